import type { CallFacts } from '../../../understanding/call-facts';
import type { Analysis, Finding } from '../rubric/detectors';

/**
 * The detectors' own wording, settled against the call facts: a gap that states something the
 * facts contradict (the two readings disagree) is dropped or said without the claim, so the text
 * never states what the call does not support.
 */
interface Rule {
  /** The gap as a detector words it. */
  gap: string;
  /** Whether the facts support it. */
  holds: (facts: CallFacts) => boolean;
  /** What to say instead when they do not (nothing when omitted). */
  instead?: string;
}

const said = (facts: CallFacts) => !!facts.agreedStep || facts.asks.some((a) => a.answer === 'agreed');

const RULES: Rule[] = [
  { gap: 'offered a single package instead of a choice', holds: (f) => f.offers.length <= 1 },
  {
    gap: 'never asked for the sale or a next step',
    holds: (f) => f.asks.length === 0,
    instead: 'no clear ask for the decision or a next step came through',
  },
  {
    gap: 'checked the fit but never asked for the decision or a next step',
    holds: (f) => f.asks.length === 0,
    instead: 'checked the fit, but no clear ask for the decision came through',
  },
  { gap: 'the homeowner never agreed to it', holds: (f) => !said(f) },
  { gap: 'no day for the next step', holds: (f) => !f.proposals.some((p) => p.day) },
];

function settle(f: Finding, facts: CallFacts): void {
  f.gaps = f.gaps.flatMap((g) => {
    const rule = RULES.find((r) => r.gap === g);
    if (!rule || rule.holds(facts)) return [g];
    return rule.instead ? [rule.instead] : [];
  });
}

/** Settles every section's wording against the facts. */
export function settleClaims(a: Analysis, facts: CallFacts): void {
  for (const f of [a.empathy, a.needs, a.options, a.objections, a.closing, a.followUp]) settle(f, facts);
}
