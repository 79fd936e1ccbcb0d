import {
  GATED_SECTIONS,
  overallScore,
  SECTION_KEYS,
  SECTION_TITLES,
  type CoachingBest,
  type CoachingDocument,
  type SectionKey,
} from '../../../../core/coaching-format';
import { talkShareOnTarget, talkShareTargetText } from '../../../../core/coaching-targets';
import type { ConversationMetrics } from '../../../../core/conversation-metrics';
import { personaFor } from '../../../../core/stages';
import type { Analysis, Evidence, Finding } from './detectors';
import { absenceAdvice, isTopicList, topicsWorthListing } from './gap-advice';
import { cap, mayQuote, personal, sentence, shown, type CallView } from './view';

export const findingFor = (a: Analysis, key: SectionKey): Finding =>
  ({
    empathy: a.empathy,
    needsAnalysis: a.needs,
    exploringOptions: a.options,
    objectionHandling: a.objections,
    closing: a.closing,
    followUp: a.followUp,
  })[key];

/** What the persona is testing, said in the coaching of a role-play so the advice reads as tuned to them. */
export function personaFocusNote(stage: string): string | null {
  const p = personaFor(stage);
  if (!p) return null;
  return `${p.buyerType} buyer; the focus is ${p.focus.toLowerCase()}.`;
}

/** A section scoring this or more is named as a strength, never as a thing to change. */
const STRENGTH_SCORE = 8;

/** A moment held up as Best scored at least this in its section. */
export const BEST_MIN_SCORE = 6;

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

/**
 * The strongest moment of the call, from a section everyone can read (not one behind the email
 * gate) that scored at least BEST_MIN_SCORE, with a line that may be quoted; else no Best at all.
 */
export function bestMoment(
  a: Analysis,
  scores: Record<SectionKey, number>,
  view: CallView,
): CoachingBest | null {
  if (a.empathy.abusive) return null;
  let best: { key: SectionKey; e: Evidence } | undefined;
  for (const key of SECTION_KEYS) {
    if (GATED_SECTIONS.includes(key) || scores[key] < BEST_MIN_SCORE) continue;
    for (const e of findingFor(a, key).evidence) {
      if (!mayQuote(e.quote, view)) continue;
      const better =
        !best ||
        scores[key] > scores[best.key] ||
        (scores[key] === scores[best.key] && e.strength > best.e.strength);
      if (better) best = { key, e };
    }
  }
  if (!best) return null;
  const { key, e } = best;
  return {
    title: BEST_TITLES[key],
    score: scores[key],
    content: [
      `Your strongest moment was in ${SECTION_TITLES[key]} (${scores[key]}/10): you ${personal(e.label, view)}.`,
      '',
      `> "${shown(e.quote)}"`,
      '',
      scores[key] >= 8 || e.turn < a.turns.length / 2
        ? 'Do this on every call.'
        : 'Keep doing it, and do it earlier in the call.',
    ].join('\n'),
  };
}

/** The figures a coaching text may state: the questions as counted here, the options laid out. */
export function statedFigures(a: Analysis): { questions: { total: number; open: number }; options: number } {
  return { questions: questionFigures(a), options: a.options.signals?.optionCount ?? 0 };
}

/** Questions as the Needs section counts them, over the whole call. */
export function questionFigures(a: Analysis): { total: number; open: number } {
  return { total: a.questions.length, open: a.questions.filter((q) => q.form === 'open').length };
}

function opening(
  a: Analysis,
  scores: Record<SectionKey, number>,
  doc: CoachingDocument,
  view: CallView,
  stage: string,
) {
  const overall = overallScore(doc) ?? 0;
  const where =
    view.source === 'recording'
      ? `in this recorded ${stage === 'General' ? '' : `${stage} `}call`
      : `in this ${stage} role-play with ${view.who}`;
  const strengths = a.empathy.abusive
    ? []
    : [...SECTION_KEYS]
        .sort((x, y) => scores[y] - scores[x])
        .filter((k) => scores[k] >= STRENGTH_SCORE)
        .slice(0, 2);
  return (
    `Overall **${overall}/10** across the six areas ${where}.` +
    (a.empathy.abusive
      ? ` You insulted ${view.who}, and that outweighs anything else in the call.`
      : strengths.length
        ? ` Your strengths: ${sentence(strengths.map((k) => SECTION_TITLES[k]))}.`
        : ' No area was a clear strength yet.')
  );
}

function figures(a: Analysis, metrics: ConversationMetrics, view: CallView): string {
  const q = questionFigures(a);
  const share = metrics.talkRatioWordsPercent;
  const talk = talkShareOnTarget(share)
    ? `You spoke ${share}% of the words, inside the target (${talkShareTargetText(view.who)})`
    : `You spoke ${share}% of the words (${talkShareTargetText(view.who)})`;
  const pressure = metrics.pressurePhrases.length;
  // Without question marks the questions are read but not counted to a number worth stating.
  const asked = view.unpunctuated
    ? ''
    : `, and asked ${q.total} question${q.total === 1 ? '' : 's'}, ${q.open} of them open`;
  return (
    `${talk}${asked}` +
    (pressure ? `; you used ${pressure} pressure phrase${pressure === 1 ? '' : 's'}.` : '.')
  );
}

/**
 * What to change in a section, from what the section found missing: its own advice for an absence
 * ("check your answer resolved the concern"), the section's whole recipe when something went wrong
 * in it (a price dropped at once), and nothing when the call shows every step the recipe names,
 * so the summary never tells a rep to do what they already did.
 */
export function topFix(f: Finding, key: SectionKey, score: number): string | null {
  const gaps = f.gaps.filter((g) => !isTopicList(g) || topicsWorthListing(score));
  const absent = gaps.map(absenceAdvice).find((g): g is string => g !== null);
  if (absent) return absent;
  return gaps.length || f.missteps.length ? TOP_FIX[key] : null;
}

/** The Summary: the overall picture, the same figures as the sections, the two things to change. */
export function summaryText(
  a: Analysis,
  scores: Record<SectionKey, number>,
  doc: CoachingDocument,
  metrics: ConversationMetrics,
  view: CallView,
  stage: string,
): string {
  const out = [opening(a, scores, doc, view, stage), '', figures(a, metrics, view)];
  if (view.recognition === 'basic')
    out.push('', 'The quotes below come from basic speech recognition, so they are approximate.');
  const fixes = [...SECTION_KEYS]
    .filter((k) => !(k === 'objectionHandling' && a.objections.raised === 0))
    .sort((x, y) => scores[x] - scores[y])
    .flatMap((k) => {
      // A section scored as a strength is not something to change.
      const fix = scores[k] < STRENGTH_SCORE ? topFix(findingFor(a, k), k, scores[k]) : null;
      return fix ? [{ k, fix }] : [];
    })
    .slice(0, 2);
  if (fixes.length) {
    out.push('', fixes.length === 2 ? '**Top two things to change**, in order:' : '**One thing to change:**');
    const who = view.who === 'the homeowner' ? "the homeowner's" : `${view.who}'s`;
    fixes.forEach(({ k, fix }, i) =>
      out.push(
        `${fixes.length === 2 ? `${i + 1}. ` : ''}${SECTION_TITLES[k]} (${scores[k]}/10): ${personal(fix.replace("the homeowner's", who), view)}.`,
      ),
    );
  }
  if (a.rolesLookSwapped)
    out.push(
      '',
      `**Check the speakers:** the ${view.source === 'recording' ? 'customer' : 'homeowner'} side of this transcript does the selling, so the speakers may be swapped. If so, swap them and coach again.`,
    );
  const focus = view.source === 'roleplay' && view.name ? personaFocusNote(stage) : null;
  if (focus) out.push('', `${cap(view.who)} plays a ${focus}`);
  return out.join('\n');
}

export { BEST_TITLES, TOP_FIX };
