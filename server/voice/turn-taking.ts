/**
 * End-of-turn detection over per-window voice decisions. A rep's turn ends after a stretch
 * of silence; the stretch is longer when the words so far end on a filler or a hanging word
 * ("um", "so", "and"), because people pause there mid-thought.
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
  /** Silence after which a speculative final decode is worth starting. */
  pauseMs: number;
  /** A turn this long ends regardless (the recogniser needs bounded input). */
  maxUtteranceMs: number;
}

export const DEFAULT_TURN_TAKING: TurnTakingOptions = {
  minSpeechMs: 96,
  bargeInMs: 160,
  endOfTurnMs: 400,
  fillerEndOfTurnMs: 1200,
  pauseMs: 200,
  maxUtteranceMs: 20_000,
};

export type TurnEvent =
  | { type: 'speech-start'; atMs: number }
  | { type: 'barge-in'; atMs: number }
  | { type: 'pause'; atMs: number; speechEndMs: number }
  | { type: 'resume'; atMs: number }
  | { type: 'end-of-turn'; atMs: number; speechEndMs: number; startMs: number; waitedMs: number };

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

  constructor(opts: Partial<TurnTakingOptions> = {}) {
    this.opts = { ...DEFAULT_TURN_TAKING, ...opts };
  }

  /** The latest words of the current utterance (from partial decodes). */
  setTranscriptHint(text: string): void {
    this.hint = text;
  }

  get speaking(): boolean {
    return this.inUtterance;
  }

  /** The silence the detector will wait for right now before ending the turn. */
  currentEndOfTurnMs(): number {
    return endsOnFiller(this.hint) ? this.opts.fillerEndOfTurnMs : this.opts.endOfTurnMs;
  }

  /**
   * Feeds one window. `nowMs` is the stream position at the window's end; `assistantSpeaking`
   * raises the bar for starting an utterance so that interruptions are deliberate.
   */
  push(isSpeech: boolean, windowMs: number, nowMs: number, assistantSpeaking = false): TurnEvent[] {
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
        this.hint = '';
        events.push({ type: 'speech-start', atMs: this.startMs });
      }
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
    this.silenceRunMs += windowMs;
    if (!this.pausedReported && this.silenceRunMs >= this.opts.pauseMs) {
      this.pausedReported = true;
      events.push({ type: 'pause', atMs: nowMs, speechEndMs: this.lastSpeechEndMs });
    }
    if (this.silenceRunMs >= this.currentEndOfTurnMs()) events.push(this.endTurn(nowMs));
    return events;
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
    this.hint = '';
    return event;
  }

  reset(): void {
    this.inUtterance = false;
    this.speechRunMs = 0;
    this.silenceRunMs = 0;
    this.pausedReported = false;
    this.hint = '';
  }
}
