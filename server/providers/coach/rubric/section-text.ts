import type { SectionKey } from '../../../../core/coaching-format';
import { ABUSE } from '../../../understanding/readers/speech-acts';
import { normalizeText } from '../../../understanding/text/normalise';
import type { Analysis, Evidence, Finding } from './detectors';
import { absenceAdvice, isTopicList, topicsWorthListing } from './gap-advice';
import { mayQuote, personal, sentence, shown, type CallView } from './view';

/** A misstep that is about what the homeowner said, not a line of the rep's to avoid. */
const MOVED_PAST = 'moved past what the homeowner shared';

/** "asked 2 open questions" without its number when the call came without question marks. */
function uncounted(positive: string, view: CallView): string {
  if (!view.unpunctuated) return positive;
  const words = positive.split(' ');
  const counted = words[0] === 'asked' && Number.isInteger(Number(words[1])) && words[2] === 'open';
  return counted ? 'asked open questions' : positive;
}

function judgement(key: SectionKey, a: Analysis, f: Finding, score: number, view: CallView): string[] {
  const strong = score >= 8;
  if (key === 'objectionHandling' && a.objections.raised === 0)
    return [
      'Not tested: no objection came up in this call and you pre-empted none, so this score stays in the middle.',
    ];
  const positives = f.positives.map((p) => personal(uncounted(p, view), view));
  // What happened is said as a fact; what was not found is said as what to add (gap-advice.ts).
  const observed = f.gaps.filter((g) => absenceAdvice(g) === null).map((g) => personal(g, view));
  // One piece of advice per verb: not "explore budget... and explore what they have tried".
  const verbs = new Set<string>();
  const toAdd = f.gaps
    .filter((g) => !isTopicList(g) || topicsWorthListing(score))
    .flatMap((g) => absenceAdvice(g) ?? [])
    .filter((g) => {
      const verb = g.split(' ')[0];
      if (verbs.has(verb)) return false;
      verbs.add(verb);
      return true;
    })
    .map((g) => personal(g, view));
  const lines: string[] = [];
  if (positives.length) lines.push(`You ${sentence(positives)}.`);
  if (strong) {
    if (observed.length) lines.push(`One thing held it back: ${observed[0]}.`);
    else if (toAdd.length) lines.push(`To make it even stronger: ${toAdd[0]}.`);
  } else {
    if (observed.length) lines.push(`What held it back: ${sentence(observed.slice(0, 3))}.`);
    if (toAdd.length) lines.push(`Worth adding: ${sentence(toAdd.slice(0, observed.length ? 1 : 2))}.`);
  }
  if (!positives.length && !f.gaps.length) lines.push('Little to judge here from this conversation.');
  return lines;
}

/** The rep's lines that earned the score, never an insulting one, and only lines that may be quoted. */
function goodQuotes(f: Finding, strong: boolean, abusive: boolean, view: CallView): Evidence[] {
  if (abusive) return [];
  return [...f.evidence]
    .filter((e) => !ABUSE.test(normalizeText(e.quote)) && mayQuote(e.quote, view))
    .sort((x, y) => y.strength - x.strength)
    .slice(0, strong ? 2 : 1);
}

function slipLines(f: Finding, view: CallView): string[] {
  const slip = [...f.missteps]
    .filter((m) => mayQuote(m.quote, view))
    .sort((x, y) => y.strength - x.strength)[0];
  if (!slip) return [];
  if (slip.label === MOVED_PAST)
    return slip.said && mayQuote(slip.said, view)
      ? ['', `When ${view.who} said "${shown(slip.said)}", your next line moved on without a word about it.`]
      : [];
  return ['', 'What cost you:', `> "${shown(slip.quote)}"`];
}

/** A section's text: what the rep did, what held it back, the lines that show it, one better line. */
export function sectionContent(
  key: SectionKey,
  a: Analysis,
  f: Finding,
  score: number,
  view: CallView,
  better: string,
): string {
  const strong = score >= 8;
  const lines = judgement(key, a, f, score, view);
  const good = goodQuotes(f, strong, a.empathy.abusive, view);
  if (good.length) {
    lines.push('', strong ? 'What worked:' : 'What you did:');
    for (const e of good) lines.push(`> "${shown(e.quote)}"`);
  }
  const slip = strong ? [] : slipLines(f, view);
  lines.push(...slip);
  lines.push('', `**Try this next time:** ${better}`);
  return lines.join('\n');
}
