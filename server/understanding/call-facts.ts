import { countWords, isFinal, type TranscriptEntry } from '../../core/transcript';
import { findEntities } from './entities';
import { OBJECTION_KINDS, type ObjectionLabelKind } from './labels';
import { sentencesOf, spanOf } from './call/evidence';
import { offersOf, repMoney } from './call/money';
import { markNamedInAgreedStep, peopleOf, speakerNames } from './call/people';
import { problemOf } from './call/problem';
import { agreedStepOf, asksOf, proposalsOf } from './call/proposals';
import type { CallFacts, CallTurn, ObjectionFact } from './call/types';
import { understand, type Utterance } from './utterance';

export type * from './call/types';
export { invitable } from './call/people';

/** The call's turns: its final, non-empty entries, each read once (acts, topics, entities). */
export function readTurns(transcript: TranscriptEntry[]): CallTurn[] {
  const entries = transcript.filter((e) => isFinal(e) && countWords(e.transcript) > 0);
  const turns: CallTurn[] = [];
  let lastOther: Record<'rep' | 'homeowner', Utterance | undefined> = {
    rep: undefined,
    homeowner: undefined,
  };
  entries.forEach((e, index) => {
    const speaker = e.role === 'user' ? 'rep' : 'homeowner';
    const other = speaker === 'rep' ? 'homeowner' : 'rep';
    const text = e.transcript;
    const utterance = understand(text, { speaker, previous: lastOther[other] });
    const entities = findEntities(text, { speaker, previous: entries[index - 1]?.transcript });
    turns.push({ index, speaker, text, utterance, entities });
    lastOther = { ...lastOther, [speaker]: utterance };
  });
  return turns;
}

/** How sure the classifier must be of an objection the hand-written reading did not find. */
const CLASSIFIER_SURE = 0.55;

/**
 * Whether a homeowner's line pushes back: the hand-written reading says so, or the classifier does
 * surely, on a statement of some length (a question back, small talk or a two-word "I suppose" is none).
 */
function objectionKinds(t: CallTurn): ObjectionLabelKind[] {
  const u = t.utterance;
  const ruled = (OBJECTION_KINDS as readonly ObjectionLabelKind[]).filter((k) =>
    u.rules.acts.has(`objection:${k}`),
  );
  if (ruled.length) return ruled;
  const statement = !u.acts.some((a) => a.startsWith('question:') || a === 'small_talk');
  if (!statement || countWords(t.text) < 5) return [];
  return (OBJECTION_KINDS as readonly ObjectionLabelKind[]).filter(
    (k) => u.acts.includes(`objection:${k}`) && (u.scores.get(`objection:${k}`) ?? 0) >= CLASSIFIER_SURE,
  );
}

function objectionsOf(turns: CallTurn[]): ObjectionFact[] {
  const out: ObjectionFact[] = [];
  for (const t of turns) {
    if (t.speaker !== 'homeowner') continue;
    for (const kind of objectionKinds(t)) {
      const s = sentencesOf(t.text)[0];
      out.push({ kind, evidence: spanOf(t, s.start, t.text.length) });
    }
  }
  return out;
}

/**
 * What happened in a call, each fact with its evidence (turn and span): who is in the home and
 * who decides (and who has died), the problem, the money named and the distinct offers, the asks
 * and the days put forward with the answers they got, the next step agreed, the objections.
 * The coach's claims are checked against these facts; nothing else extracts them.
 */
export function understandCall(transcript: TranscriptEntry[], opts: { stage: string }): CallFacts {
  const turns = readTurns(transcript);
  const names = speakerNames(turns);
  const proposals = proposalsOf(turns);
  const agreedStep = agreedStepOf(proposals);
  const people = peopleOf(turns, names);
  markNamedInAgreedStep(people, agreedStep, turns);
  return {
    turns,
    ...names,
    people,
    problem: problemOf(turns, opts.stage),
    money: repMoney(turns),
    offers: offersOf(turns),
    asks: asksOf(turns),
    proposals,
    agreedStep,
    objections: objectionsOf(turns),
  };
}
