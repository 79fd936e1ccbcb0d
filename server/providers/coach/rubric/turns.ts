import { normalizeText } from '../../../understanding/text/normalise';
import { repairRecogniserSlips } from '../../../understanding/text/marks';
import { quoteMatching } from '../../../understanding/text/quote';
export { LOGISTICS, OPTIONS_START } from '../../../understanding/readers/selling-talk';
import { type QuestionKind } from '../../../../core/conversation-metrics';
import { countWords, isFinal, type TranscriptEntry } from '../../../../core/transcript';
import { analyse } from '../../../nlp';
import type { CallFacts } from '../../../understanding/call-facts';
import type { ActLabel, CorpusTopic, ObjectionLabelKind } from '../../../understanding/labels';

/**
 * The turns, findings and quoting helpers every behaviour detector shares. Every rule runs on normalized text (lowercase, no apostrophes or
 * punctuation) so recogniser output scores like typed text; punctuation is only a bonus
 * (a question mark, a dash showing a cut-off).
 */

export interface Turn {
  index: number;
  role: 'user' | 'assistant';
  text: string;
  norm: string;
  words: number;
  lemmas: Set<string>;
  sentiment: number;
  /** The kind of objection the shared reading finds in this homeowner line (call facts), if any. */
  objection?: ObjectionLabelKind;
  /** The shared reading of the line (call facts): its acts and topics. */
  acts: readonly ActLabel[];
  topics: readonly CorpusTopic[];
}

export interface Evidence {
  quote: string;
  turn: number;
  /** How strong a moment it is, 0-1 (used to pick 'Best'). */
  strength: number;
  label: string;
  /** The homeowner's words the moment answered (a misstep about what they shared). */
  said?: string;
}

export interface Finding {
  /** Raw 0-10 score before rounding. */
  score: number;
  /** What the rep did well. */
  positives: string[];
  /** What was missing or hurt. */
  gaps: string[];
  /** What the detector counted, by name (the advice reads the situation from these). */
  signals?: Record<string, number>;
  evidence: Evidence[];
  /** Rep lines that hurt (quoted as what not to say). */
  missteps: Evidence[];
}

export interface QuestionFact {
  turn: number;
  text: string;
  kind: QuestionKind;
  /** 'open' (what/how/why), 'probe' (where/when/how long...), 'yesno' (do you/are you...). */
  form: 'open' | 'probe' | 'yesno';
  followUp: boolean;
  areas: string[];
}

export const has = (re: RegExp, s: string) => re.test(s);
export const clamp = (n: number, lo = 0, hi = 10) => Math.max(lo, Math.min(hi, n));

/** The call's turns (its final, non-empty entries, numbered as the call facts number them). */
export function buildTurns(entries: TranscriptEntry[], facts?: CallFacts): Turn[] {
  const objections = new Map((facts?.objections ?? []).map((o) => [o.evidence.turn, o.kind]));
  return entries
    .filter((e) => isFinal(e) && countWords(e.transcript) > 0)
    .map((e, index) => {
      const a = analyse(e.transcript);
      return {
        index,
        role: e.role,
        text: e.transcript.trim(),
        norm: repairRecogniserSlips(normalizeText(e.transcript)),
        words: countWords(e.transcript),
        lemmas: a.lemmas,
        sentiment: a.sentiment,
        ...(objections.has(index) ? { objection: objections.get(index) } : {}),
        acts: facts?.turns[index]?.utterance.acts ?? [],
        topics: facts?.turns[index]?.utterance.topics ?? [],
      };
    });
}

/** A short quotable piece of a turn: the sentence that matched, else the start of the turn. */
export function quoteFrom(turn: Turn, re?: RegExp): string {
  return quoteMatching(turn.text, turn.norm, re);
}

export const prevOwner = (turns: Turn[], i: number): Turn | undefined => {
  for (let j = i - 1; j >= 0; j--) {
    if (turns[j].role === 'assistant') return turns[j];
    if (i - j > 2) break;
  }
  return undefined;
};
export const nextRep = (turns: Turn[], i: number): Turn | undefined =>
  turns.slice(i + 1).find((t) => t.role === 'user');
