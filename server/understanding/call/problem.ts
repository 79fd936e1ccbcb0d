import { needAreas } from '../readers/needs';
import { normalizeText } from '../text/normalise';
import { sentencesOf, spanOf } from './evidence';
import type { CallTurn, ProblemFact } from './types';

/**
 * The homeowner's trouble as a short noun phrase of its kind ("the leak", "the outside noise"),
 * from the first statement of theirs that names it: never their clause pasted into a script.
 */
const FIRST = ['reliability', 'leaks', 'condition'];
const rank = (id: string) => (FIRST.includes(id) ? FIRST.indexOf(id) : FIRST.length);

const FILLER = new Set(['the', 'a', 'an', 'and', 'or', 'of', 'your', 'their', 'its', 'with', 'in', 'on']);

/**
 * Whether the homeowner's own words carry the phrase: each of its words, or a word of the same
 * stem ("leak" in "leaking"), is in the sentence. A phrase that only names the kind of trouble
 * ("the breakdown" for a furnace that still runs) is not said back to them.
 */
function saysItself(phrase: string, sentence: string): boolean {
  const words = sentence.split(' ');
  return normalizeText(phrase)
    .split(' ')
    .filter((w) => w && !FILLER.has(w))
    .every((w) => {
      const stem = w.slice(0, Math.max(3, Math.min(w.length - 1, 5)));
      return words.some((x) => x.startsWith(stem));
    });
}

export function problemOf(turns: CallTurn[], stage: string): ProblemFact | null {
  // The trouble itself before its side effects: a breakdown before the cold it leaves.
  const areas = needAreas(stage)
    .filter((a) => a.phrase)
    .sort((x, y) => rank(x.id) - rank(y.id));
  for (const t of turns) {
    if (t.speaker !== 'homeowner') continue;
    for (const s of sentencesOf(t.text)) {
      const n = normalizeText(s.text);
      if (n.split(' ').length < 4 || s.text.trim().endsWith('?')) continue;
      const area = areas.find((a) => a.pattern.test(n) && saysItself(a.phrase!, n));
      if (area) return { area: area.id, phrase: area.phrase!, evidence: spanOf(t, s.start, s.end) };
    }
  }
  return null;
}
