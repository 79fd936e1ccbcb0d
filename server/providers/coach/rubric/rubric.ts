import {
  renderCoaching,
  SECTION_KEYS,
  SECTION_TITLES,
  type CoachingDocument,
  type SectionKey,
} from '../../../../core/coaching-format';
import type { EngineQuality } from '../../../../core/engines';
import { conversationMetrics } from '../../../understanding/metrics';
import { type ConversationMetrics } from '../../../../core/conversation-metrics';
import type { TranscriptEntry } from '../../../../core/transcript';
import { englishShare } from '../../../understanding/readers/language';
import { understandCall, type CallFacts } from '../../../understanding/call-facts';
import { adviceFor } from '../advice/advise';
import { settleClaims } from '../grounding/settle';
import { settleOwnText } from '../grounding/ground';
import type { FilledSlot } from '../advice/template';
import { analyseConversation, type Analysis } from './detectors';
import { sectionContent } from './section-text';
import { bestMoment, findingFor, statedFigures, summaryText } from './summary';
import { callView, type CallView } from './view';

export interface RubricInput {
  stage: string;
  transcript: TranscriptEntry[];
  durationSec?: number;
  personaName?: string;
  source?: 'roleplay' | 'recording';
  input?: 'speech' | 'typed';
  recognition?: EngineQuality;
  /** Only one voice could be made out (a one-channel recording): see CoachInput.oneVoice. */
  oneVoice?: boolean;
}

export interface RubricResult {
  text: string;
  doc: CoachingDocument;
  metrics: ConversationMetrics;
  scores: Record<SectionKey, number>;
  /** What the detectors found (the evidence an LLM coach is given). */
  analysis: Analysis;
  /** Set when the call was named rather than scored. */
  degenerate?: 'short' | 'language';
  /** The call's facts, which every claim of the text is checked against. */
  facts: CallFacts;
  /** Every value the advice lines named, with the words of the call it comes from. */
  slots: Partial<Record<SectionKey, FilledSlot[]>>;
}

/** Below this much rep speech there is nothing fair to score (documented in docs/providers.md). */
export const MIN_REP_WORDS = 40;
export const MIN_REP_TURNS = 3;

/**
 * A call too short or not in English: every section is named, none is scored above zero, and
 * there is no Best (nothing in the call earned one).
 */
function degenerateDocument(
  reason: 'short' | 'language' | 'customer-only',
  view: CallView,
  repWords: number,
  repTurns: number,
): { doc: CoachingDocument; scores: Record<SectionKey, number> } {
  const scores = Object.fromEntries(SECTION_KEYS.map((k) => [k, 0])) as Record<SectionKey, number>;
  if (reason === 'customer-only') return { doc: customerOnlyDocument(), scores };
  const why =
    reason === 'short'
      ? `This call is too short to judge: you said ${repWords} word${repWords === 1 ? '' : 's'} over ${repTurns} turn${repTurns === 1 ? '' : 's'}, and fair coaching needs at least ${MIN_REP_WORDS} words over ${MIN_REP_TURNS} turns from you.`
      : 'The built-in coach reads English only, and this call does not look like English, so it was not scored. A language-model coach, when one is set up, can coach it in its own language.';
  const next =
    reason === 'short'
      ? `Next time, stay in the conversation with ${view.who} long enough to ask what they need, offer a choice and agree a next step.`
      : 'Run an English call, or set up a language-model coach for calls in other languages.';
  const doc: CoachingDocument = {
    summary: `${why}\n\n${next}`,
    best: null,
    sections: SECTION_KEYS.map((key) => ({
      key,
      title: SECTION_TITLES[key],
      score: 0,
      content:
        reason === 'short'
          ? `Too short to judge: ${SECTION_TITLES[key].toLowerCase()} never had a chance to show in this call.`
          : 'Not scored: the built-in coach reads English only.',
    })),
  };
  return { doc, scores };
}

/**
 * A one-voice recording whose only voice is set as the customer's: nothing of the rep's to coach,
 * and most likely the rep's own voice, so it asks for a swap rather than calling the call short.
 */
function customerOnlyDocument(): CoachingDocument {
  const why =
    "Only one voice could be heard in this recording, and it is set as the customer's, so none of it is yours to coach.";
  return {
    summary: `${why}\n\nIf that voice is yours, use Swap speakers and the call is coached as your side of it. For coaching on both sides, upload a recording where the customer can be heard too (a two-channel call recording works best).`,
    best: { title: 'Not scored: only the customer heard', score: 0, content: why },
    sections: SECTION_KEYS.map((key) => ({
      key,
      title: SECTION_TITLES[key],
      score: 0,
      content: 'Not scored: only one voice was heard, set as the customer.',
    })),
  };
}

function sectionScores(a: Analysis): Record<SectionKey, number> {
  const scores = Object.fromEntries(
    SECTION_KEYS.map((k) => [k, Math.round(findingFor(a, k).score)]),
  ) as Record<SectionKey, number>;
  if (a.empathy.abusive) scores.empathy = Math.min(scores.empathy, 2);
  return scores;
}

/** The embedded coach: measured behaviours become scores, quotes and better lines. */
export function rubricCoaching(input: RubricInput): RubricResult {
  const metrics = conversationMetrics(input.transcript, { durationSec: input.durationSec });
  const view = callView(input);
  const facts = understandCall(input.transcript, { stage: input.stage });
  const a = analyseConversation(input.transcript, {
    stage: input.stage,
    personaName: view.name || undefined,
    facts,
  });
  const repWords = a.rep.reduce((n, t) => n + t.words, 0);
  // Consecutive rep entries are one turn (a recogniser splits long turns).
  const repTurns = a.turns.filter((t, i) => t.role === 'user' && a.turns[i - 1]?.role !== 'user').length;
  // One voice heard: the rep's words are one long turn, which is no sign of a short call.
  const degenerate: 'short' | 'language' | 'customer-only' | undefined =
    englishShare(input.transcript.map((e) => e.transcript)) < 0.12 && repWords + 1 > 10
      ? 'language'
      : input.oneVoice && repWords === 0
        ? 'customer-only'
        : repWords < MIN_REP_WORDS || (repTurns < MIN_REP_TURNS && !input.oneVoice)
          ? 'short'
          : undefined;
  if (degenerate) {
    const { doc, scores } = degenerateDocument(degenerate, view, repWords, repTurns);
    return {
      text: renderCoaching(doc),
      doc,
      metrics,
      scores,
      analysis: a,
      degenerate: degenerate === 'language' ? 'language' : 'short',
      facts,
      slots: {},
    };
  }

  settleClaims(a, facts);
  const scores = sectionScores(a);
  const slots: RubricResult['slots'] = {};
  const doc: CoachingDocument = {
    summary: '',
    best: bestMoment(a, scores, view),
    sections: SECTION_KEYS.map((key) => {
      const advice = adviceFor(key, a, facts, view, scores[key], input.stage);
      slots[key] = advice.slots;
      return {
        key,
        title: SECTION_TITLES[key],
        score: scores[key],
        content: sectionContent(key, a, findingFor(a, key), scores[key], view, advice.text),
      };
    }),
  };
  doc.summary = summaryText(a, scores, doc, metrics, view, input.stage);
  const settled = settleOwnText(doc, facts, { view, figures: statedFigures(a) }).doc;
  if (input.oneVoice) {
    settled.summary =
      '**Only your side of this call could be heard**, so this coaching reads your words alone: what the customer said, and how you answered it, could not be judged.\n\n' +
      settled.summary;
  }
  return { text: renderCoaching(settled), doc: settled, metrics, scores, analysis: a, facts, slots };
}
