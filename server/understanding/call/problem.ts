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
      const area = areas.find((a) => a.pattern.test(n));
      if (area) return { area: area.id, phrase: area.phrase!, evidence: spanOf(t, s.start, s.end) };
    }
  }
  return null;
}
