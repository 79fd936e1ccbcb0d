import { normalizeText } from '../../../understanding/text/normalise';
import { endsSentence } from '../../../understanding/text/marks';
import {
  OPTIONS_START,
  OWN_OFFER,
  SELLING,
  wordsAroundFigure,
} from '../../../understanding/readers/selling-talk';
import { type TranscriptEntry } from '../../../../core/transcript';
import type { CallFacts } from '../../../understanding/call-facts';
import { type Turn, type Finding, type QuestionFact, has, buildTurns, prevOwner } from './turns';
import { detectEmpathy } from './empathy';
import { detectNeeds, detectQuestions } from './needs';
import { detectOptions } from './options';
import { choiceMarkers, distinctPrices, ORDINAL_BONUS } from '../../../understanding/readers/options-offered';
import { detectObjections } from './objections';
import { detectClosing } from './closing';
import { detectFollowUp } from './follow-up';

export type { Evidence, Finding, QuestionFact, Turn } from './turns';
export { buildTurns, quoteFrom } from './turns';
export { distinctPrices, ORDINAL_BONUS } from '../../../understanding/readers/options-offered';

/**
 * Behaviour detectors, one module per rubric section (empathy, needs, options, objections,
 * closing, follow-up) over the turns built in turns.ts; this module runs them all.
 */
export interface Analysis {
  stage: string;
  turns: Turn[];
  rep: Turn[];
  questions: QuestionFact[];
  discoveryEnd: number;
  optionTurns: number[];
  needAreasCovered: string[];
  /** Need areas anyone in the call spoke of, asked about or not ("this is my forever home"). */
  needAreasTalkedOf: string[];
  empathy: Finding & { abusive: boolean };
  needs: Finding;
  options: Finding;
  objections: ReturnType<typeof detectObjections>;
  closing: Finding;
  followUp: Finding;
  /** The homeowner side does the selling: the recogniser probably guessed the speakers wrong. */
  rolesLookSwapped: boolean;
}

// ---------------------------------------------------------------- speaker check

function rolesLookSwapped(turns: Turn[]): boolean {
  const selling = (role: Turn['role']) =>
    turns.filter(
      (t) =>
        t.role === role &&
        (has(SELLING, t.norm) ||
          distinctPrices(t.text).length >= 2 ||
          choiceMarkers(t.norm) % ORDINAL_BONUS >= 2),
    ).length;
  const owner = selling('assistant');
  // Homeowners quote a price now and then; only a side that lays out prices and asks is selling.
  return owner >= 2 && owner > 2 * selling('user');
}

// ---------------------------------------------------------------- all

export function analyseConversation(
  entries: TranscriptEntry[],
  opts: { stage: string; personaName?: string; facts?: CallFacts },
): Analysis {
  const turns = buildTurns(entries, opts.facts);
  const rep = turns.filter((t) => t.role === 'user');
  const repWords = rep.reduce((n, t) => n + t.words, 0);
  const allWords = turns.reduce((n, t) => n + t.words, 0);
  const repShare = allWords ? repWords / allWords : 0.5;

  // Discovery ends where the rep first lays out a solution.
  // A figure the homeowner just said ("four hundred a month, that's a lot") is echoed, not offered.
  // So is one the rep reads back from the homeowner's side of the call (an adjuster's approval,
  // another company's quote: "he approved eight thousand" ... "eight thousand two hundred, front
  // only"), unless the rep puts it forward as their own ("we can do it for eight thousand five").
  const offeredPrices = (t: Turn) => {
    const said = prevOwner(turns, t.index)?.norm ?? '';
    const earlier = turns
      .filter((x) => x.role === 'assistant' && x.index < t.index && x.index >= t.index - 8)
      .flatMap((x) => distinctPrices(x.text).map((p) => normalizeText(p)));
    return distinctPrices(t.text).filter((p) => {
      const n = normalizeText(p);
      if (said.includes(n)) return false;
      const readBack = earlier.some((e) => n === e || n.startsWith(`${e} `));
      return !readBack || has(OWN_OFFER, wordsAroundFigure(t.text, p));
    });
  };
  const firstOption = turns.find(
    (t) =>
      t.role === 'user' &&
      (has(OPTIONS_START, t.norm) || choiceMarkers(t.norm) >= 2 || offeredPrices(t).length >= 1),
  );
  let discoveryEnd = firstOption ? firstOption.index : turns.length;
  // A recogniser may split the turn that lays out the options: start at the first piece.
  while (
    firstOption &&
    discoveryEnd > 0 &&
    turns[discoveryEnd - 1].role === 'user' &&
    !endsSentence(turns[discoveryEnd - 1].text)
  )
    discoveryEnd--;
  const questions = detectQuestions(turns, opts.stage);
  const opt = detectOptions(turns, discoveryEnd, opts.facts);
  const needs = detectNeeds(turns, questions, discoveryEnd, opt.singlePush, opts.stage);
  const closing = detectClosing(turns);
  return {
    stage: opts.stage,
    turns,
    rep,
    questions,
    discoveryEnd,
    optionTurns: opt.optionTurns,
    needAreasCovered: needs.covered,
    needAreasTalkedOf: needs.talkedOf,
    empathy: detectEmpathy(turns, repShare, opts.personaName),
    needs: needs.finding,
    options: opt.finding,
    objections: detectObjections(turns),
    closing,
    followUp: detectFollowUp(turns, closing.firstAsk),
    rolesLookSwapped: rolesLookSwapped(turns),
  };
}
