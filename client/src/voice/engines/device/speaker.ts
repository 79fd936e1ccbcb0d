/**
 * The homeowner's voice through the device's `speechSynthesis`: one utterance per sentence,
 * in the persona's rate and pitch, cancellable at once (barge-in).
 */
export interface SpeakerHandlers {
  /** A sentence started playing. */
  onSentence(sentence: string): void;
  /** Everything queued has been spoken (or cancelled). */
  onIdle(): void;
}

export class Speaker {
  private pending = 0;
  private generation = 0;
  /** When the last word boundary was reported (drives the level meter). */
  lastBoundaryAt = 0;

  constructor(
    private readonly synth: SpeechSynthesis,
    private readonly voice: SpeechSynthesisVoice,
    private readonly settings: { rate: number; pitch: number },
    private readonly handlers: SpeakerHandlers,
  ) {}

  get speaking(): boolean {
    return this.pending > 0;
  }

  say(sentence: string): void {
    const text = sentence.trim();
    if (!text) return;
    const generation = this.generation;
    const u = new SpeechSynthesisUtterance(text);
    u.voice = this.voice;
    u.lang = this.voice.lang;
    u.rate = this.settings.rate;
    u.pitch = this.settings.pitch;
    let finished = false;
    const done = () => {
      if (finished || generation !== this.generation) return;
      finished = true;
      this.pending = Math.max(0, this.pending - 1);
      if (this.pending === 0) this.handlers.onIdle();
    };
    u.onstart = () => {
      if (generation !== this.generation) return;
      this.lastBoundaryAt = performance.now();
      this.handlers.onSentence(text);
    };
    u.onboundary = () => {
      this.lastBoundaryAt = performance.now();
    };
    u.onend = done;
    u.onerror = done;
    this.pending++;
    this.synth.speak(u);
  }

  /** Stops speaking now and drops the queue. */
  cancel(): void {
    const was = this.pending > 0;
    this.generation++;
    this.pending = 0;
    this.synth.cancel();
    if (was) this.handlers.onIdle();
  }

  /** A level for the meter: speechSynthesis gives no audio to measure, so it follows the words. */
  level(now = performance.now()): number {
    if (!this.speaking) return 0;
    return now - this.lastBoundaryAt < 180 ? 0.09 : 0.05;
  }
}
