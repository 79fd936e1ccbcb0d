import os from 'node:os';

/**
 * Shares the recogniser across calls. Final decodes (a rep finished a turn) always queue;
 * partial decodes (live captions) run only when a slot is free, so under load captions
 * thin out instead of delaying replies.
 */
export class DecodeQueue {
  private running = 0;
  private partialsRunning = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly slots = Math.max(1, os.availableParallelism?.() ?? os.cpus().length),
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

  /** Runs a partial decode now, or returns null when every slot is taken or finals are waiting. */
  async tryPartial<T>(job: () => Promise<T>): Promise<T | null> {
    if (this.running >= this.slots || this.waiting.length > 0 || this.partialsRunning >= this.partialSlots)
      return null;
    this.running++;
    this.partialsRunning++;
    try {
      return await job();
    } finally {
      this.partialsRunning--;
      this.release();
    }
  }

  private release(): void {
    const next = this.waiting.shift();
    // The slot passes straight to the next final decode.
    if (next) next();
    else this.running--;
  }
}
