import { looseContractions as loose, normalizeText } from '../text/normalise';
import type { QuestionKind } from '../../../core/conversation-metrics';
import { classifyQuestion } from './questions';

/**
 * The rep's discovery questions, read from the rep's lines: a question's form (open, probe,
 * yes/no), open questions run on mid-turn in unpunctuated recogniser text, a request for an
 * account inside a sentence ("tell me what's been going on"), a menu of answers that narrows an
 * open question, and whether a question builds on the last answer. The coach's Needs Analysis
 * counts questions with these.
 */

export type QuestionForm = 'open' | 'probe' | 'yesno';

const CHOICE = loose(/\b(or)\b|,.*,/);

/**
 * The form of a question: 'open' (what, how, why; a how-question about a state: "how's the house
 * feeling?"), 'probe' (where, when, who, which; a choice offered: "is this more about X, or Y?")
 * or 'yesno'. A lead-in ("when you say it's ridiculous, what's driving it?") is read past.
 */
export function questionForm(text: string, kind: QuestionKind): QuestionForm {
  // "When you say it's ridiculous, what's driving it?": the question is what follows the lead-in.
  const lead = text.match(/^\W*(?:so,? )?(?:when you say|you said|you mentioned)\b[^,?]*,\s*(.+)$/i);
  if (lead && lead[1].split(/\s+/).length >= 3) {
    const rest = classifyQuestion(lead[1]);
    if (rest) return questionForm(lead[1], rest);
  }
  const n = normalizeText(text).replace(
    /^((so|and|okay|ok|well|um|uh|now|oh|great|perfect|yeah|right)\b\s*)+/,
    '',
  );
  if (kind === 'open') return 'open';
  // "How's the house feeling these days?" invites a description.
  // So does "How's she settling in?": a how-question about a state, not a number.
  if (
    /^(hows|how s|how is|how are|how does|how do|how did|how was|how has|how have) (the|your|it|things|everything|she|he|they|you|her|his|their)\b/.test(
      n,
    )
  )
    return 'open';
  if (/^(where|when|who|whos|which|how|what|whats|why)\b/.test(n)) return 'probe';
  // "Is this more about X, or Y?" offers a choice: it probes more than a yes/no.
  if (/\bor\b/.test(n) && n.split(' ').length >= 7) return 'probe';
  return 'yesno';
}

const RUN_ON_OPEN =
  /\b(?:ok|okay|um|uh|so|and|wow|right|great|got it|sleep|i do|me|you)\s+((?:tell me (?:about|what|how|more)|walk me through|what else|what|whats|how|hows|why|who|where|when)\b)/g;

/** Open questions that start mid-turn in unpunctuated text ("...so tell me what happened"): each from its question word, up to fourteen words. */
export function runOnOpenQuestions(norm: string): string[] {
  const out: string[] = [];
  for (const m of norm.matchAll(RUN_ON_OPEN)) {
    const at = (m.index ?? 0) + m[0].length - m[1].length;
    out.push(norm.slice(at).split(' ').slice(0, 14).join(' '));
  }
  return out;
}

/** Asks for an account inside a sentence: "tell me about", "walk me through", "help me understand". */
export const asksForAnAccount = (norm: string): boolean =>
  /\b(tell me (about|what|whats|how|why|more)|walk me through|help me understand)\b/.test(norm);

/**
 * A menu of answers ("energy, looks, noise?") that narrows an open question to a choice, unless
 * the menu stays open ("noise, the bills, anything?").
 */
export const narrowsToMenu = (text: string): boolean =>
  CHOICE.test(text) &&
  text.includes(',') &&
  !/\b(anything|something|whatever)( else)?\W*$/.test(text.toLowerCase());

/**
 * Points back at the last answer ("that", "it", "they", "her"...) in an open question or one that
 * opens as a question (how, what, when, do, is...).
 */
export const pointsBack = (norm: string, open: boolean): boolean =>
  /\b(that|it|they|those|she|he|them|her|him|his|their)\b/.test(norm) &&
  (open ||
    /^(how|hows|what|whats|when|where|why|do|does|did|is|was|are)\b/.test(
      norm.replace(/^(so|and|okay|oh)\s+/, ''),
    ));

/** Builds on the last answer by its form: "when you say", "you mentioned", "tell me more", "what do you mean". */
export const buildsOnTheirWords = (norm: string): boolean =>
  /\b(when you say|you (said|mentioned)|tell me more|what do you mean)\b/.test(norm);
