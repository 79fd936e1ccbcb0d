import {
  QUESTIONS_TARGET_TEXT,
  questionsOnTarget,
  TARGETS,
  talkShareOnTarget,
  talkShareTargetText,
} from './coaching-targets';

/**
 * Conversation metrics measured from a transcript (never guessed by a model). Entries carry
 * only the time each utterance ended, so each turn owns the window from the previous entry's
 * end to its own end; time-based metrics are null when timestamps carry no information.
 */
export interface ConversationMetrics {
  version: 1;
  durationSec: number | null;
  repWords: number;
  homeownerWords: number;
  repTurns: number;
  homeownerTurns: number;
  /** Rep share of all spoken words, 0-100. */
  talkRatioWordsPercent: number;
  /** Rep share of the speaking time (turn windows), 0-100. */
  talkRatioTimePercent: number | null;
  /** Longest run of consecutive rep entries (the recogniser splits long monologues). */
  longestMonologueWords: number;
  longestMonologueSec: number | null;
  questions: { total: number; open: number; closed: number };
  questionsPerMinute: number | null;
  /** Speaker switches per minute. */
  interactivityPerMinute: number | null;
  /** Mean estimated pause before the rep answers the homeowner. */
  patienceSec: number | null;
  fillerWords: number;
  fillersPerMinute: number | null;
  /** Rep words per minute of the rep's turn windows. */
  paceWpm: number | null;
  pressurePhrases: string[];
}

export type QuestionKind = 'open' | 'closed';

export interface MetricExplanation {
  key: string;
  label: string;
  value: string;
  /** What the number means and its healthy range. */
  help: string;
  /** Whether the value sits in the healthy range (null when not measurable). */
  healthy: boolean | null;
}

const fmt = (n: number | null, unit = '') => (n === null ? 'n/a' : `${n}${unit}`);

/**
 * Rows a typed call leaves out: they time speech (pace, pauses, talk time and monologues by the
 * clock, fillers and questions per minute), and a typed turn's time is typing and reading.
 */
export const TIMED_METRICS: ReadonlySet<string> = new Set([
  'questionRate',
  'interactivity',
  'patience',
  'fillers',
  'pace',
]);

/**
 * Nobody speaks faster than about 400 words a minute; a faster "pace" means the turns' times
 * do not measure speech (typed turns arrive all at once), so there is no pace to show.
 */
export const MAX_PLAUSIBLE_WPM = 400;

/**
 * Display rows for the coaching card, the PDF and emails, so every surface explains the
 * numbers the same way. `typed`: the rep typed their turns, so only what words measure is shown
 * (talk share and monologues in words, questions, pressure).
 */
export function describeMetrics(m: ConversationMetrics, opts: { typed?: boolean } = {}): MetricExplanation[] {
  if (opts.typed) {
    const words: ConversationMetrics = { ...m, talkRatioTimePercent: null, longestMonologueSec: null };
    return describeMetrics(words).filter((row) => !TIMED_METRICS.has(row.key));
  }
  const within = (v: number | null, lo: number, hi: number) => (v === null ? null : v >= lo && v <= hi);
  return [
    {
      key: 'talkRatio',
      label: 'Your talk time',
      value:
        m.talkRatioTimePercent === null
          ? `${m.talkRatioWordsPercent}% of words`
          : `${m.talkRatioWordsPercent}% of words, ${m.talkRatioTimePercent}% of time`,
      help: `Your share of the words: ${talkShareTargetText()}, so they explain their needs.`,
      healthy: talkShareOnTarget(m.talkRatioWordsPercent),
    },
    {
      key: 'longestMonologue',
      label: 'Longest monologue',
      value:
        m.longestMonologueSec === null
          ? `${m.longestMonologueWords} words`
          : `${m.longestMonologueWords} words (${Math.round(m.longestMonologueSec)} s)`,
      help: `Your longest stretch without the homeowner speaking. Keep it under about ${TARGETS.monologueSecMax} seconds (roughly ${TARGETS.monologueWordsMax} words); check in with a question before going on.`,
      healthy:
        m.longestMonologueSec === null
          ? m.longestMonologueWords <= TARGETS.monologueWordsMax
          : m.longestMonologueSec <= TARGETS.monologueSecMax,
    },
    {
      key: 'questions',
      label: 'Questions asked',
      value: `${m.questions.total} (${m.questions.open} open, ${m.questions.closed} closed)`,
      help: `Open questions (what, how, why, tell me) get the homeowner talking about needs; closed ones confirm facts: ${QUESTIONS_TARGET_TEXT}.`,
      healthy: questionsOnTarget(m.questions.total, m.questions.open),
    },
    {
      key: 'questionRate',
      label: 'Question rate',
      value: fmt(m.questionsPerMinute, ' per min'),
      help: `Questions per minute of the call. ${TARGETS.questionsPerMinute.min} to ${TARGETS.questionsPerMinute.max} per minute keeps a conversation two-way without feeling like an interrogation.`,
      healthy: within(m.questionsPerMinute, TARGETS.questionsPerMinute.min, TARGETS.questionsPerMinute.max),
    },
    {
      key: 'interactivity',
      label: 'Interactivity',
      value: fmt(m.interactivityPerMinute, ' switches per min'),
      help: 'How often the speaker changes per minute. Higher means a real back-and-forth; aim for 4 or more per minute in a role-play.',
      healthy: m.interactivityPerMinute === null ? null : m.interactivityPerMinute >= 4,
    },
    {
      key: 'patience',
      label: 'Patience',
      value: fmt(m.patienceSec, ' s'),
      help: 'Estimated pause before you answer the homeowner. A short beat (about 0.5 to 2 seconds) shows you listened to the end instead of waiting to talk.',
      healthy: within(m.patienceSec, 0.5, 3),
    },
    {
      key: 'fillers',
      label: 'Filler words',
      value:
        m.fillersPerMinute === null
          ? String(m.fillerWords)
          : `${m.fillerWords} (${m.fillersPerMinute} per min)`,
      help: 'Um, uh, you know, basically. A few are natural; more than about 3 per minute makes you sound unsure. Pause silently instead.',
      healthy: m.fillersPerMinute === null ? m.fillerWords <= 5 : m.fillersPerMinute <= 3,
    },
    {
      key: 'pace',
      label: 'Speaking pace',
      value: fmt(m.paceWpm, ' words per min'),
      help: `Your words per minute of your own turns. About ${TARGETS.paceWpm.min} to ${TARGETS.paceWpm.max} is easy to follow; faster sounds rushed, slower can drag.`,
      healthy: within(m.paceWpm, TARGETS.paceWpm.min, TARGETS.paceWpm.max),
    },
    {
      key: 'pressure',
      label: 'Pressure phrases',
      value: m.pressurePhrases.length
        ? `${m.pressurePhrases.length}: ${m.pressurePhrases.slice(0, 3).join('; ')}`
        : 'none',
      help: 'Made-up deadlines, fear of missing out or "trust me". Healthy is zero: pressure erodes trust and invites cancellations.',
      healthy: m.pressurePhrases.length === 0,
    },
  ];
}

/** Narrows an unknown API value to metrics (older sessions may hold none). */
export function isConversationMetrics(value: unknown): value is ConversationMetrics {
  return (
    typeof value === 'object' &&
    value !== null &&
    (value as { version?: unknown }).version === 1 &&
    typeof (value as { talkRatioWordsPercent?: unknown }).talkRatioWordsPercent === 'number'
  );
}
