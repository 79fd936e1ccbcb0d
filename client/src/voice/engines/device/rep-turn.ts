import { MAX_USER_TEXT_CHARS } from '@core/voice-protocol';
import { endOfTurnDelay } from './speech-logic';

/**
 * The rep's turn as the device recogniser delivers it: final pieces, live interim ones (keyed
 * by result), and the pause after the last final that ends the turn.
 */
export class RepTurn {
  private finals: string[] = [];
  private readonly finalKeys = new Set<string>();
  private readonly interims = new Map<string, string>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  /** `onEnd` runs when the rep has paused long enough after a final piece. */
  constructor(private readonly onEnd: () => void) {}

  /** Final words recognised and not yet sent. */
  get pending(): boolean {
    return this.finals.length > 0;
  }

  /** A result already taken as final: recognisers repeat them. */
  isDone(key: string): boolean {
    return this.finalKeys.has(key);
  }

  /** A result that held only the homeowner's voice: never part of the turn. */
  discard(key: string, isFinal: boolean): void {
    this.interims.delete(key);
    if (isFinal) this.finalKeys.add(key);
  }

  /** Adds a recognised piece and returns the caption so far (finals, then interims). */
  add(key: string, text: string, isFinal: boolean): string {
    this.stopTimer();
    if (isFinal) {
      this.finalKeys.add(key);
      this.interims.delete(key);
      this.finals.push(text);
    } else {
      this.interims.set(key, text);
    }
    const caption = [...this.finals, ...this.interims.values()].join(' ');
    if (this.interims.size === 0 && this.finals.length) {
      this.timer = setTimeout(this.onEnd, endOfTurnDelay(caption));
    }
    return caption;
  }

  /** The finished turn's text (empty when there is none); the turn starts over. */
  take(): string {
    const text = this.finals.join(' ').trim().slice(0, MAX_USER_TEXT_CHARS);
    this.clear();
    return text;
  }

  clear(): void {
    this.stopTimer();
    this.finals = [];
    this.interims.clear();
  }

  private stopTimer(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
