import { completeness, type Completeness } from './completeness';
import type { PitchContour } from './pitch';

/**
 * End-of-turn detection over per-window voice decisions. A rep's turn ends after a stretch
 * of silence whose length depends on what was said up to the pause (completeness.ts) and how
 * the voice ended (pitch.ts):
 *
 * - 1,200 ms when the words end on a filler or a hanging word ("um", "so", "and", "the",
 *   "about"), because people pause there mid-thought;
 * - 350 ms when they are finished: a complete question, or a finished statement or answer
 *   whose pitch falls at the end. Only a caption that heard the audio up to the pause counts
 *   (an older one may miss the last words, "...the furnace and");
 * - 640 ms when finished words end on a rising or level pitch, the way a speaker holds the
 *   floor mid-list or between clauses;
 * - 400 ms otherwise (no words yet, nothing to judge, no clear pitch).
 *
 * The silence is counted from where the voice ended, not where the voice detector let go: its
 * decision trails the voice by 40-230 ms (134 ms at the median), and a window at less than 0.15
 * of the utterance's voice is already pause (quietTailRatio).
 *
 * npm run bench:turns measures the trade: false cut-ins on recorded speech against the wait.
 */
export interface TurnTakingOptions {
  /** Speech needed to start an utterance (filters clicks). */
  minSpeechMs: number;
  /** Speech needed to interrupt the homeowner (echo and coughs should not). */
  bargeInMs: number;
  /** Silence that ends a turn. */
  endOfTurnMs: number;
  /** Silence that ends a turn whose words end on a filler. */
  fillerEndOfTurnMs: number;
  /** Silence that ends a finished question, or finished words said with a falling pitch. */
  completeEndOfTurnMs: number;
  /** Silence that ends finished words said with a rising or level pitch (more may follow). */
  continuingEndOfTurnMs: number;
  /** Silence after which a speculative final decode is worth starting. */
  pauseMs: number;
  /** A turn this long ends regardless (the recogniser needs bounded input). */
  maxUtteranceMs: number;
  /**
   * A window this much quieter than the utterance's loud windows (a ratio of RMS; 0: off) is
   * already the end of the speech, though the voice detector still calls it speech: its
   * decision trails the voice by 40-230 ms, time a pause would otherwise not be counted.
   */
  quietTailRatio: number;
  /** At most this much of that trailing quiet counts as pause (soft speech stays speech). */
  maxQuietTailMs: number;
}

export const DEFAULT_TURN_TAKING: TurnTakingOptions = {
  minSpeechMs: 96,
  bargeInMs: 160,
  endOfTurnMs: 400,
  fillerEndOfTurnMs: 1200,
  completeEndOfTurnMs: 350,
  continuingEndOfTurnMs: 640,
  pauseMs: 200,
  maxUtteranceMs: 20_000,
  quietTailRatio: 0.15,
  maxQuietTailMs: 256,
};

export type TurnEvent =
  | { type: 'speech-start'; atMs: number }
  | { type: 'barge-in'; atMs: number }
  | { type: 'pause'; atMs: number; speechEndMs: number }
  | { type: 'resume'; atMs: number }
  | { type: 'end-of-turn'; atMs: number; speechEndMs: number; startMs: number; waitedMs: number };

/** Per 32 ms window: the loud level halves in about two seconds. */
const LOUD_DECAY = 0.99;

const FILLERS = new Set([
  'um',
  'umm',
  'uh',
  'uhh',
  'er',
  'erm',
  'hmm',
  'mm',
  'so',
  'and',
  'but',
  'or',
  'because',
  'well',
  'the',
  'a',
  'an',
  'to',
  'of',
  'if',
  'that',
  'which',
  'with',
  'my',
  'your',
  'our',
]);

/** True when the words so far trail off ("so...", "and um") and the rep is likely to go on. */
export function endsOnFiller(text: string): boolean {
  const trimmed = text.trim().toLowerCase();
  if (!trimmed) return false;
  if (/(\.\.\.|…|,|-)$/.test(trimmed)) return true;
  const words = trimmed
    .replace(/[^a-z' ]+/g, ' ')
    .trim()
    .split(/\s+/);
  return FILLERS.has(words[words.length - 1] ?? '');
}

export class TurnDetector {
  private readonly opts: TurnTakingOptions;
  private inUtterance = false;
  private speechRunMs = 0;
  private silenceRunMs = 0;
  private startMs = 0;
  private lastSpeechEndMs = 0;
  private pausedReported = false;
  private bargeReported = false;
  private hint = '';
  private hintKind: Completeness = 'unknown';
  /** Stream position up to which the latest caption heard the audio (-1: unknown). */
  private hintHeardToMs = -1;
  private contour: PitchContour = 'unknown';
  private contourAtMs = -1;
  /** The utterance's loud level (a slowly decaying peak of window RMS). */
  private loudLevel = 0;
  /** Trailing windows of speech quieter than quietTailRatio of the loud level. */
  private quietTailMs = 0;

  constructor(opts: Partial<TurnTakingOptions> = {}) {
    this.opts = { ...DEFAULT_TURN_TAKING, ...opts };
  }

  /**
   * The latest words of the current utterance (from partial decodes); `heardToMs` is the stream
   * position of the last audio the recogniser had when it produced them.
   */
  setTranscriptHint(text: string, heardToMs = -1): void {
    if (text !== this.hint) this.hintKind = completeness(text);
    this.hint = text;
    this.hintHeardToMs = heardToMs;
  }

  /** The pitch contour of the speech before the current pause, read at stream position `atMs`. */
  setPitchContour(contour: PitchContour, atMs: number): void {
    this.contour = contour;
    this.contourAtMs = atMs;
  }

  get speaking(): boolean {
    return this.inUtterance;
  }

  /** The silence the detector will wait for right now before ending the turn. */
  currentEndOfTurnMs(): number {
    if (endsOnFiller(this.hint)) return this.opts.fillerEndOfTurnMs;
    // Words that stop short of the pause may miss its last word ("...and"), and a caption taken
    // mid-sentence naturally ends mid-phrase ("eight of spades for"): no judgement on them.
    if (this.hintHeardToMs < this.lastSpeechEndMs) return this.opts.endOfTurnMs;
    if (this.hintKind === 'incomplete') return this.opts.fillerEndOfTurnMs;
    const pitch = this.contourAtMs >= this.lastSpeechEndMs ? this.contour : 'unknown';
    if (this.hintKind === 'question') return this.opts.completeEndOfTurnMs;
    if (this.hintKind === 'statement' || this.hintKind === 'fragment') {
      if (pitch === 'falling') return this.opts.completeEndOfTurnMs;
      if (pitch === 'rising' || pitch === 'level') return this.opts.continuingEndOfTurnMs;
    }
    return this.opts.endOfTurnMs;
  }

  /**
   * Feeds one window. `nowMs` is the stream position at the window's end; `assistantSpeaking`
   * raises the bar for starting an utterance so that interruptions are deliberate; `level` is
   * the window's RMS (full scale 1), which places the end of speech more exactly than the voice
   * detector's decision (quietTailRatio).
   */
  push(
    isSpeech: boolean,
    windowMs: number,
    nowMs: number,
    assistantSpeaking = false,
    level?: number,
  ): TurnEvent[] {
    const events: TurnEvent[] = [];
    if (isSpeech) {
      this.speechRunMs += windowMs;
      if (this.silenceRunMs > 0 && this.inUtterance && this.pausedReported)
        events.push({ type: 'resume', atMs: nowMs });
      this.silenceRunMs = 0;
      this.pausedReported = false;
      if (!this.inUtterance && this.speechRunMs >= this.opts.minSpeechMs) {
        this.inUtterance = true;
        this.bargeReported = false;
        this.startMs = nowMs - this.speechRunMs;
        this.loudLevel = 0;
        this.clearHint();
        events.push({ type: 'speech-start', atMs: this.startMs });
      }
      this.trackLevel(level, windowMs);
      if (
        this.inUtterance &&
        assistantSpeaking &&
        !this.bargeReported &&
        this.speechRunMs >= this.opts.bargeInMs
      ) {
        this.bargeReported = true;
        events.push({ type: 'barge-in', atMs: nowMs });
      }
      this.lastSpeechEndMs = nowMs;
      if (this.inUtterance && nowMs - this.startMs >= this.opts.maxUtteranceMs) {
        events.push(this.endTurn(nowMs));
      }
      return events;
    }
    this.speechRunMs = 0;
    if (!this.inUtterance) return events;
    if (this.silenceRunMs === 0 && this.quietTailMs > 0) {
      // The detector's first silent window: the quiet end of its speech was pause already.
      this.silenceRunMs = this.quietTailMs;
      this.lastSpeechEndMs -= this.quietTailMs;
    }
    this.quietTailMs = 0;
    this.silenceRunMs += windowMs;
    if (!this.pausedReported && this.silenceRunMs >= this.opts.pauseMs) {
      this.pausedReported = true;
      events.push({ type: 'pause', atMs: nowMs, speechEndMs: this.lastSpeechEndMs });
    }
    if (this.silenceRunMs >= this.currentEndOfTurnMs()) events.push(this.endTurn(nowMs));
    return events;
  }

  /** Follows the utterance's loudness, and how long its speech has been quiet at the end. */
  private trackLevel(level: number | undefined, windowMs: number): void {
    if (level === undefined || this.opts.quietTailRatio <= 0 || !this.inUtterance) {
      this.quietTailMs = 0;
      return;
    }
    // A peak that halves in about two seconds: the voice's recent strength, not one shout's.
    this.loudLevel = Math.max(level, this.loudLevel * LOUD_DECAY);
    if (level < this.loudLevel * this.opts.quietTailRatio)
      this.quietTailMs = Math.min(this.quietTailMs + windowMs, this.opts.maxQuietTailMs);
    else this.quietTailMs = 0;
  }

  private endTurn(nowMs: number): TurnEvent {
    const event: TurnEvent = {
      type: 'end-of-turn',
      atMs: nowMs,
      speechEndMs: this.lastSpeechEndMs,
      startMs: this.startMs,
      waitedMs: nowMs - this.lastSpeechEndMs,
    };
    this.inUtterance = false;
    this.silenceRunMs = 0;
    this.speechRunMs = 0;
    this.pausedReported = false;
    this.quietTailMs = 0;
    this.clearHint();
    return event;
  }

  private clearHint(): void {
    this.hint = '';
    this.hintKind = 'unknown';
    this.hintHeardToMs = -1;
    this.contour = 'unknown';
    this.contourAtMs = -1;
  }

  reset(): void {
    this.inUtterance = false;
    this.speechRunMs = 0;
    this.silenceRunMs = 0;
    this.pausedReported = false;
    this.quietTailMs = 0;
    this.clearHint();
  }
}
