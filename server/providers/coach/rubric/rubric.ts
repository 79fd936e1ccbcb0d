import {
  overallScore,
  renderCoaching,
  SECTION_KEYS,
  SECTION_TITLES,
  type CoachingDocument,
  type SectionKey,
} from '../../../../core/coaching-format';
import { conversationMetrics } from '../../../understanding/metrics';
import { type ConversationMetrics } from '../../../../core/conversation-metrics';
import type { TranscriptEntry } from '../../../../core/transcript';
import { normalizeText } from '../../../understanding/text/normalise';
import { ABUSE } from '../../../understanding/readers/speech-acts';
import { betterLine, callFacts, personaFocusNote, type CallFacts } from './advice';
import { analyseConversation, type Analysis, type Finding } from './detectors';

export interface RubricInput {
  stage: string;
  transcript: TranscriptEntry[];
  durationSec?: number;
  personaName?: string;
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
}

const findingFor = (a: Analysis, key: SectionKey): Finding =>
  ({
    empathy: a.empathy,
    needsAnalysis: a.needs,
    exploringOptions: a.options,
    objectionHandling: a.objections,
    closing: a.closing,
    followUp: a.followUp,
  })[key];

const sentence = (items: string[]) =>
  items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** A quote is at most 30 words of the rep's own line. */
const clean = (q: string) => {
  const words = q
    .replace(/\s+/g, ' ')
    .replace(/^>+\s*/, '')
    .replace(/"/g, "'")
    .trim()
    .split(' ');
  return words.length > 30 ? `${words.slice(0, 30).join(' ')}...` : words.join(' ');
};

/** Below this much rep speech there is nothing fair to score (documented in docs/providers.md). */
export const MIN_REP_WORDS = 40;
export const MIN_REP_TURNS = 3;

const ENGLISH_FUNCTION_WORDS = new Set(
  'the a an and or but so to of in on at for with you your i me my we our it is are was be that this what how do does did not can will just have has yeah okay ok well'.split(
    ' ',
  ),
);

/** Share of the words that are common English function words; English speech sits near 0.4. */
export function englishShare(transcript: TranscriptEntry[]): number {
  const words = transcript
    .map((e) => normalizeText(e.transcript))
    .join(' ')
    .split(' ')
    .filter(Boolean);
  if (!words.length) return 1;
  return words.filter((w) => ENGLISH_FUNCTION_WORDS.has(w)).length / words.length;
}

function sectionContent(
  key: SectionKey,
  a: Analysis,
  found: Finding,
  score: number,
  name: string,
  facts: CallFacts,
  abusive: boolean,
): string {
  const lines: string[] = [];
  // Speak of the homeowner by name when it is known.
  const personal = (s: string) =>
    name ? s.replace(/\bthe homeowner's\b/g, `${name}'s`).replace(/\bthe homeowner\b/g, name) : s;
  const f = { ...found, positives: found.positives.map(personal), gaps: found.gaps.map(personal) };
  const strong = score >= 8;
  if (key === 'objectionHandling' && a.objections.raised === 0)
    lines.push(
      'Not tested: no objection came up in this call and you pre-empted none, so this score stays in the middle.',
    );
  else {
    if (f.positives.length) lines.push(`You ${sentence(f.positives)}.`);
    if (f.gaps.length && !strong) lines.push(`What held it back: ${sentence(f.gaps.slice(0, 3))}.`);
    else if (f.gaps.length && strong) lines.push(`To make it even stronger: ${f.gaps[0]}.`);
    if (!f.positives.length && !f.gaps.length) lines.push('Little to judge here from this conversation.');
  }

  // Strengths are only quoted from lines that earned them; never an insulting line.
  const good = abusive
    ? []
    : [...f.evidence]
        .filter((e) => !ABUSE.test(normalizeText(e.quote)))
        .sort((x, y) => y.strength - x.strength)
        .slice(0, strong ? 2 : 1);
  const bad = [...f.missteps].sort((x, y) => y.strength - x.strength).slice(0, 1);
  if (good.length) {
    lines.push('', strong ? 'What worked:' : 'What you did:');
    for (const e of good) lines.push(`> "${clean(e.quote)}"`);
  }
  if (bad.length && !strong) {
    lines.push('', 'What cost you:');
    for (const e of bad) lines.push(`> "${clean(e.quote)}"`);
  }
  if (!good.length && !bad.length && !(key === 'objectionHandling' && a.objections.raised === 0))
    lines.push('', 'No line in the conversation showed this behaviour.');
  lines.push('', `**Try this next time:** ${betterLine(key, a, found, score, facts)}`);
  return lines.join('\n');
}

const BEST_TITLES: Record<SectionKey, string> = {
  empathy: 'Showing you understood',
  needsAnalysis: 'A real discovery question',
  exploringOptions: 'Options built on their needs',
  objectionHandling: 'Handling the objection',
  closing: 'Asking for the decision',
  followUp: 'A concrete next step',
};

const TOP_FIX: Record<SectionKey, string> = {
  empathy: "name the homeowner's feelings before moving on",
  needsAnalysis: 'ask open questions about their needs, budget and plans before pitching',
  exploringOptions: 'offer two or three priced options tied to what they told you, and recommend one',
  objectionHandling: 'acknowledge, ask a question, answer, then check it landed',
  closing: 'ask directly for the decision or a firm next step',
  followUp: 'lock the next step: day, time, who attends and what happens',
};

function degenerateDocument(
  reason: 'short' | 'language' | 'customer-only',
  homeowner: string,
  repWords: number,
  repTurns: number,
): { doc: CoachingDocument; scores: Record<SectionKey, number> } {
  const scores = Object.fromEntries(SECTION_KEYS.map((k) => [k, 0])) as Record<SectionKey, number>;
  if (reason === 'customer-only') return customerOnlyDocument(scores);
  const why =
    reason === 'short'
      ? `This call is too short to judge: you said ${repWords} word${repWords === 1 ? '' : 's'} over ${repTurns} turn${repTurns === 1 ? '' : 's'}, and fair coaching needs at least ${MIN_REP_WORDS} words over ${MIN_REP_TURNS} turns from you.`
      : 'The built-in coach reads English only, and this call does not look like English, so it was not scored. A language-model coach, when one is set up, can coach it in its own language.';
  const next =
    reason === 'short'
      ? `Next time, stay in the conversation with ${homeowner} long enough to ask what they need, offer a choice and agree a next step.`
      : 'Run an English call, or set up a language-model coach for calls in other languages.';
  const doc: CoachingDocument = {
    summary: `${why}\n\n${next}`,
    best: {
      title: reason === 'short' ? 'Too short to judge' : 'Not scored: English only',
      score: 0,
      content: reason === 'short' ? 'There was not enough from you in this call to name a strength.' : why,
    },
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
function customerOnlyDocument(scores: Record<SectionKey, number>): {
  doc: CoachingDocument;
  scores: Record<SectionKey, number>;
} {
  const why =
    "Only one voice could be heard in this recording, and it is set as the customer's, so none of it is yours to coach.";
  return {
    doc: {
      summary: `${why}\n\nIf that voice is yours, use Swap speakers and the call is coached as your side of it. For coaching on both sides, upload a recording where the customer can be heard too (a two-channel call recording works best).`,
      best: { title: 'Not scored: only the customer heard', score: 0, content: why },
      sections: SECTION_KEYS.map((key) => ({
        key,
        title: SECTION_TITLES[key],
        score: 0,
        content: 'Not scored: only one voice was heard, set as the customer.',
      })),
    },
    scores,
  };
}

/** The embedded coach: measured behaviours become scores, quotes and better lines. */
export function rubricCoaching(input: RubricInput): RubricResult {
  const metrics = conversationMetrics(input.transcript, { durationSec: input.durationSec });
  const a = analyseConversation(input.transcript, { stage: input.stage, personaName: input.personaName });
  const name = input.personaName ?? '';
  const homeowner = name || 'the homeowner';
  const repWords = a.rep.reduce((n, t) => n + t.words, 0);
  // Consecutive rep entries are one turn (a recogniser splits long turns).
  const repTurns = a.turns.filter((t, i) => t.role === 'user' && a.turns[i - 1]?.role !== 'user').length;

  if (englishShare(input.transcript) < 0.12 && repWords + 1 > 10) {
    const { doc, scores } = degenerateDocument('language', homeowner, repWords, repTurns);
    return { text: renderCoaching(doc), doc, metrics, scores, analysis: a, degenerate: 'language' };
  }
  if (input.oneVoice && repWords === 0) {
    const { doc, scores } = degenerateDocument('customer-only', homeowner, repWords, repTurns);
    return { text: renderCoaching(doc), doc, metrics, scores, analysis: a, degenerate: 'short' };
  }
  // One voice heard: the rep's words are one long turn, which is no sign of a short call.
  if (repWords < MIN_REP_WORDS || (repTurns < MIN_REP_TURNS && !input.oneVoice)) {
    const { doc, scores } = degenerateDocument('short', homeowner, repWords, repTurns);
    return { text: renderCoaching(doc), doc, metrics, scores, analysis: a, degenerate: 'short' };
  }

  const facts = callFacts(a, input.personaName);
  const abusive = a.empathy.abusive;
  const scores = Object.fromEntries(
    SECTION_KEYS.map((k) => [k, Math.round(findingFor(a, k).score)]),
  ) as Record<SectionKey, number>;
  if (abusive) scores.empathy = Math.min(scores.empathy, 2);

  const doc: CoachingDocument = {
    summary: '',
    best: null,
    sections: SECTION_KEYS.map((key) => ({
      key,
      title: SECTION_TITLES[key],
      score: scores[key],
      content: sectionContent(key, a, findingFor(a, key), scores[key], name, facts, abusive),
    })),
  };

  // Best is the highest-scored section, quoting the line that earned it.
  const bestKey = [...SECTION_KEYS].sort(
    (x, y) =>
      scores[y] - scores[x] ||
      Math.max(0, ...findingFor(a, y).evidence.map((e) => e.strength)) -
        Math.max(0, ...findingFor(a, x).evidence.map((e) => e.strength)),
  )[0];
  const bestEvidence = abusive
    ? undefined
    : [...findingFor(a, bestKey).evidence]
        .filter((e) => !ABUSE.test(normalizeText(e.quote)))
        .sort((x, y) => y.strength - x.strength)[0];
  if (abusive) {
    doc.best = {
      title: 'Nothing to build on yet',
      score: scores[bestKey],
      content:
        'Insulting the homeowner ends the sale and any chance of trust, so nothing in this call is held up as a strength. Start the next call with respect and one honest question about their needs.',
    };
  } else if (bestEvidence) {
    doc.best = {
      title: BEST_TITLES[bestKey],
      score: scores[bestKey],
      content: [
        `Your strongest area was ${SECTION_TITLES[bestKey]} (${scores[bestKey]}/10): you ${bestEvidence.label}.`,
        '',
        `> "${clean(bestEvidence.quote)}"`,
        '',
        scores[bestKey] >= 8
          ? 'Do this on every call.'
          : 'It is your best area, and there is still room to grow it.',
      ].join('\n'),
    };
  } else {
    doc.best = {
      title: BEST_TITLES[bestKey],
      score: scores[bestKey],
      content:
        bestKey === 'objectionHandling' && a.objections.raised === 0
          ? `No area stood out: your highest score is Objection Handling (${scores[bestKey]}/10), and only because no objection came up to test it.`
          : `Your highest score was ${SECTION_TITLES[bestKey]} (${scores[bestKey]}/10), though no single line stood out.`,
    };
  }

  const overall = overallScore(doc) ?? 0;
  const ranked = [...SECTION_KEYS].sort((x, y) => scores[y] - scores[x]);
  const strengths = abusive ? [] : ranked.filter((k) => scores[k] >= 8).slice(0, 2);
  const fixes = [...SECTION_KEYS]
    .filter((k) => !(k === 'objectionHandling' && a.objections.raised === 0))
    .sort((x, y) => scores[x] - scores[y])
    .slice(0, 2);
  const focus = personaFocusNote(input.stage);
  const summary: string[] = [];
  summary.push(
    `Overall **${overall}/10** across the six areas in this ${input.stage} conversation with ${homeowner}.` +
      (abusive
        ? ' You insulted the homeowner, and that outweighs anything else in the call.'
        : strengths.length
          ? ` Your strengths: ${sentence(strengths.map((k) => SECTION_TITLES[k]))}.`
          : ' No area was a clear strength yet.'),
  );
  summary.push(
    '',
    `You spoke ${metrics.talkRatioWordsPercent}% of the words (top reps are nearer 43%), asked ${metrics.questions.total} question${metrics.questions.total === 1 ? '' : 's'} (${metrics.questions.open} open)` +
      (metrics.pressurePhrases.length
        ? ` and used ${metrics.pressurePhrases.length} pressure phrase${metrics.pressurePhrases.length === 1 ? '' : 's'}.`
        : '.'),
  );
  if (fixes.length) {
    summary.push('', '**Top two things to change**, in order:');
    fixes.forEach((k, i) =>
      summary.push(
        `${i + 1}. ${SECTION_TITLES[k]} (${scores[k]}/10): ${TOP_FIX[k].replace("the homeowner's", name ? `${name}'s` : "the homeowner's")}.`,
      ),
    );
  }
  if (a.rolesLookSwapped) {
    summary.push(
      '',
      '**Check the speakers:** the homeowner side of this transcript does the selling, so the speakers may be swapped. If so, swap them and coach again.',
    );
  }
  if (focus) summary.push('', `${cap(homeowner)} plays a ${focus}`);
  if (input.oneVoice) {
    summary.unshift(
      '**Only your side of this call could be heard**, so this coaching reads your words alone: what the customer said, and how you answered it, could not be judged.',
      '',
    );
  }
  doc.summary = summary.join('\n');

  return { text: renderCoaching(doc), doc, metrics, scores, analysis: a };
}
