import type { SectionKey } from '../../../../core/coaching-format';
import type { CallFacts } from '../../../understanding/call-facts';
import { normalizeText } from '../../../understanding/text/normalise';
import type { FilledSlot } from '../advice/template';
import type { CallView } from '../rubric/view';

/**
 * Traces every value a coaching line named back to the call: its evidence must be the words of a
 * turn exactly as said, and the value must come from them (a name, a day, a price or a quote is in
 * its evidence; the problem phrase is the one read from its evidence).
 */
export function traceSlots(
  slots: Partial<Record<SectionKey, FilledSlot[]>>,
  sections: { key: SectionKey; content: string }[],
  facts: CallFacts,
  view: CallView,
): string[] {
  const problems: string[] = [];
  for (const [key, filled] of Object.entries(slots) as [SectionKey, FilledSlot[]][]) {
    const content = sections.find((s) => s.key === key)?.content ?? '';
    for (const slot of filled) {
      const where = `${key}/${slot.slot} "${slot.value}"`;
      if (!content.includes(slot.value)) problems.push(`${where}: not in the section's text`);
      for (const e of slot.evidence) {
        const turn = facts.turns[e.turn];
        if (!turn || turn.speaker !== e.speaker || turn.text.slice(e.start, e.end) !== e.text)
          problems.push(`${where}: its evidence is not the words of turn ${e.turn}`);
      }
      const problem = fromEvidence(slot, facts, view);
      if (problem) problems.push(`${where}: ${problem}`);
    }
  }
  return problems;
}

function fromEvidence(slot: FilledSlot, facts: CallFacts, view: CallView): string | null {
  if (slot.slot === 'problem')
    return facts.problem && slot.value === facts.problem.phrase && slot.evidence[0] === facts.problem.evidence
      ? null
      : 'is not the problem read from the call';
  if (slot.slot === 'who' && slot.value === view.name) return null;
  if (!slot.evidence.length) return 'carries no evidence';
  const said = normalizeText(slot.evidence.map((e) => e.text).join(' '));
  const bare = slot.value.replaceAll('"', '').replaceAll('...', '');
  const value = normalizeText(bare.startsWith('your ') ? bare.slice('your '.length) : bare);
  const words = value.split(' ').filter((w) => w && !['and', 'with', 'your'].includes(w));
  const missing = words.filter((w) => !said.includes(w));
  return missing.length ? `"${missing.join(' ')}" is not in its evidence` : null;
}
