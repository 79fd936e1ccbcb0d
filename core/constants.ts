/** Business constants from the product spec (§9). Times in milliseconds unless the name ends in Sec. */
export const MAX_CALL_SEC = 300;
export const EARLY_STOP_WARNING_SEC = 30;
export const LISTENING_TARGET_PERCENT = 60;
export const MAX_AUDIO_BYTES = 25 * 1024 * 1024;

/**
 * The most text a role-play call can produce, so a saved transcript (and the coaching work it
 * costs) is bounded by the call length. Both speakers together, generously: conversational
 * speech runs 120-200 words a minute, so 300; an English word averages under 6 characters with
 * its space, so 10; and a call may run a minute past MAX_CALL_SEC while its last turn ends.
 * 6 min x 300 words x 10 characters = 18,000 characters; at most 2 entries a second.
 */
export const MAX_SPEECH_WORDS_PER_MIN = 300;
export const MAX_CHARS_PER_WORD = 10;
export const CALL_END_GRACE_SEC = 60;
export const MAX_CALL_TRANSCRIPT_CHARS =
  ((MAX_CALL_SEC + CALL_END_GRACE_SEC) / 60) * MAX_SPEECH_WORDS_PER_MIN * MAX_CHARS_PER_WORD;
export const MAX_CALL_TRANSCRIPT_ENTRIES = (MAX_CALL_SEC + CALL_END_GRACE_SEC) * 2;
export const AUDIO_POLL_INTERVAL = 2000;
export const COACHING_QUERY_RETRIES = 2;

export const SCORE_STRENGTH_MIN = 8;
export const SCORE_MID_MIN = 5;

export const TOAST_LIMIT = 1;
export const TOAST_REMOVE_DELAY = 1_000_000;
export const TOAST_DURATION = 5000;
export const TOAST_SWIPE_THRESHOLD_PX = 50;
export const TOAST_HOTKEY = ['F8'];
export const TOAST_LABEL = 'Notification';
export const TOOLTIP_DELAY = 700;
export const TOOLTIP_SKIP_DELAY = 300;

/** Voice constants (§9): volume level = summed level / 0.15, capped at 1. */
export const VOLUME_OBSERVER_INTERVAL = 100;
export const VOLUME_LEVEL_DIVISOR = 0.15;
export const SPEAKING_THRESHOLD = 0.01;
export const SPEECH_END_DELAY = 1000;
export const MOBILE_PERMISSION_WAIT = 1000;

export function volumeLevelFromSum(summedLevel: number): number {
  if (!Number.isFinite(summedLevel) || summedLevel <= 0) return 0;
  return Math.min(1, summedLevel / VOLUME_LEVEL_DIVISOR);
}

/** How long uploaded recordings are kept when the server does not say (days). */
export const DEFAULT_RETENTION_DAYS = 90;
/** A transcription whose progress has not moved for this long is reported as stalled. */
export const TRANSCRIPTION_STALL_MS = 2 * 60 * 1000;
