import { LISTENING_TARGET_PERCENT } from './constants';

/**
 * The targets a rep is measured against, in one place: the coaching text, the metric help
 * (conversation-metrics.ts) and the transcript's listening tip (speaking-balance.ts) all read
 * them here, so no two surfaces give a rep different numbers.
 */
export const TARGETS = {
  /** The homeowner speaks this share of the words or more (spec §9)... */
  homeownerSharePercentMin: LISTENING_TARGET_PERCENT,
  /** ...so the rep speaks this share or less. */
  repSharePercentMax: 100 - LISTENING_TARGET_PERCENT,
  /** Questions in a five-minute call, with more open than closed. */
  questionsMin: 8,
  /** A two-way conversation without an interrogation. */
  questionsPerMinute: { min: 1, max: 4 },
  /** The longest stretch without the homeowner speaking. */
  monologueWordsMax: 150,
  monologueSecMax: 60,
  /** Easy to follow; faster sounds rushed, slower drags. */
  paceWpm: { min: 120, max: 170 },
} as const;

/** Whether a rep's share of the words meets the listening target. */
export function talkShareOnTarget(repPercent: number): boolean {
  return repPercent <= TARGETS.repSharePercentMax;
}

/** Whether the questions meet the target: enough of them, and not mostly closed. */
export function questionsOnTarget(total: number, open: number): boolean {
  return total >= TARGETS.questionsMin && open * 2 >= total - open;
}

/** The talk-share target in words, as every surface says it. */
export function talkShareTargetText(homeowner = 'the homeowner'): string {
  return `aim for ${TARGETS.repSharePercentMax}% or less, so ${homeowner} speaks ${TARGETS.homeownerSharePercentMin}% or more`;
}

/** The question target in words, as every surface says it. */
export const QUESTIONS_TARGET_TEXT = `aim for ${TARGETS.questionsMin} or more in a five-minute call, more open than closed`;
