import {
  looseContractions as loose,
  normalizeText,
  splitSentences,
} from '../../../understanding/text/normalise';
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

/** Undo the commonest recogniser slips that change a phrase's grammar ("want too see", "your welcome"). */
function repairNorm(norm: string): string {
  return (
    norm
      .replace(
        /\btoo (see|be|look|do|get|go|come|make|have|talk|think|show|meet|decide|sign|pick|start|keep|ask|know)\b/g,
        'to $1',
      )
      .replace(/\byour (welcome|right|probably|going|gonna|looking|paying|getting|not)\b/g, 'youre $1')
      // "Too" never takes a possessive or an object pronoun: "talk too my son" is "to".
      .replace(/\btoo (my|your|our|his|their|him|them|me|us)\b/g, 'to $1')
  );
}

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
        norm: repairNorm(normalizeText(e.transcript)),
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
  const sentences = splitSentences(turn.text);
  let pick = sentences[0] ?? turn.text;
  if (re) {
    const hit = sentences.find((s) => re.test(normalizeText(s)));
    if (hit) pick = hit;
    else if (sentences.length === 1) {
      // Unpunctuated text: quote the words around the match.
      const m = turn.norm.match(re);
      if (m && m.index !== undefined) {
        // The words as said (the reading repairs slips such as "too meet"), when they line up.
        const said = turn.text.split(/\s+/);
        const words = said.length === turn.norm.split(' ').length ? said : turn.norm.split(' ');
        const at = turn.norm.slice(0, m.index).split(' ').length - 1;
        pick = words.slice(Math.max(0, at - 6), at + 14).join(' ');
      }
    }
  }
  const words = pick.split(/\s+/);
  return words.length > 32 ? `${words.slice(0, 30).join(' ')}...` : pick;
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

// Phrases more than one section reads.

export const LOGISTICS = loose(
  /\b(would|does|is|how about|what about) (\w+ )?(tuesday|monday|wednesday|thursday|friday|saturday|sunday|tomorrow|morning|evening|afternoon)|\bwhich (one s|ones|one is) better\b|\b(best|good) (number|email|time to reach)\b|\bget (it|you) on (the|our) schedule\b|\bgo ahead\b|\bdoes that (work|sound)\b|\bfeel better about\b|\bdoes that (explain|make sense|help)\b/,
);
export const OPTIONS_START = loose(
  /\b(option (one|1|a)|(three|two|a few|four) (ways|options|routes|choices|packages|levels|kinds|types|approaches)|one of (two|three) ways|here s what i d|heres what id|the simplest|if budget s|if budgets|we have (a|two|three)|special (price|pricing|offer|deal|promo\w*|rate|financing|package)|(our|this month s|the) special\b(?! (time|day|occasion|moment))|package|series|our (flagship|best))\b/,
);
