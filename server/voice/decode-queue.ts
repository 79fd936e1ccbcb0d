import { cpuCores } from '../machine';

/** Captions stop for this long after a caption decode ran slower than real time. */
const OVERLOAD_PAUSE_MS = 10_000;

/**
 * Shares the recogniser across calls. Final decodes (a rep finished a turn) always queue;
 * partial decodes (live captions) run only when a slot is free, so under load captions
 * thin out instead of delaying replies.
 */
export class DecodeQueue {
  private running = 0;
  private partialsRunning = 0;
  private partialsPausedUntil = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly slots = cpuCores(),
    /** Captions are a nicety: one at a time across all calls keeps them from starving replies. */
    readonly partialSlots = 1,
  ) {}

  get busy(): boolean {
    return this.running >= this.slots;
  }

  /** Runs a final decode as soon as a slot frees up. */
  async runFinal<T>(job: () => Promise<T>): Promise<T> {
    if (this.running >= this.slots) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.running++;
    try {
      return await job();
    } finally {
      this.release();
    }
  }

  /**
   * Runs a partial decode now, or returns null when every slot is taken, finals are waiting, or
   * the machine recently decoded slower than real time (captions pause for a while then).
   */
  async tryPartial<T>(job: () => Promise<T>, audioMs = 0): Promise<T | null> {
    if (this.running >= this.slots || this.waiting.length > 0 || this.partialsRunning >= this.partialSlots)
      return null;
    if (Date.now() < this.partialsPausedUntil) return null;
    this.running++;
    this.partialsRunning++;
    const started = Date.now();
    try {
      return await job();
    } finally {
      this.partialsRunning--;
      this.release();
      if (audioMs > 0 && Date.now() - started > audioMs)
        this.partialsPausedUntil = Date.now() + OVERLOAD_PAUSE_MS;
    }
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next final decode.
    if (next) next();
    else this.running--;
  }
}
