/**
 * Shares the cores among the warm live decoders by urgency.
 *
 * Left alone, every call's decoder gets its audio as it arrives and the operating system shares
 * the cores among all of them equally. When more reps talk at once than the cores can decode in
 * real time, every decoder falls behind by the same share, and the rep whose turn is ending
 * waits for their decoder to catch up while it still competes with all the others: at 20 calls
 * on two cores that was the whole tail of the reply latency (docs/benchmarks.md).
 *
 * Here, at most `slots` decoders have work in hand at a time, and the next free slot goes to
 * the decoder a turn decision is waiting on (the rep fell silent: are the words finished? what
 * were they?), then to the one whose queued audio is oldest. A rep who is still talking can
 * afford a decoder that runs a second behind; a rep who stopped cannot. The total work is the
 * same; only its order changes.
 */
export interface GatedDecoder {
  /** Whether the decoder has frames waiting to be handed to it. */
  readonly waiting: boolean;
  /** Whether a turn decision waits on one of its queued frames. */
  readonly urgent: boolean;
  /** When its oldest waiting frame was queued (performance.now()). */
  readonly waitingSince: number;
  /** Whether it still works on frames it was handed. */
  readonly busy: boolean;
  /** Hands it the next share of its waiting frames (it then reports busy until they are done). */
  release(): void;
}

export class DecoderGate {
  private readonly members = new Set<GatedDecoder>();
  private pumping = false;

  constructor(
    /** Decoders working at once: about one per core, so each runs on a core of its own. */
    readonly slots: number,
  ) {}

  join(d: GatedDecoder): void {
    this.members.add(d);
    this.pump();
  }

  leave(d: GatedDecoder): void {
    if (this.members.delete(d)) this.pump();
  }

  /** Something changed (new frames, a decoder finished its share): fill the free slots. */
  pump(): void {
    // release() may report back synchronously (a decoder that has died); one pass does it all.
    if (this.pumping) return;
    this.pumping = true;
    /** Decoders that could not take their frames this time (skipped, not spun on). */
    const refused = new Set<GatedDecoder>();
    try {
      for (;;) {
        let busy = 0;
        let next: GatedDecoder | null = null;
        for (const d of this.members) {
          if (d.busy) {
            busy++;
            continue;
          }
          if (!d.waiting || refused.has(d)) continue;
          if (
            !next ||
            (d.urgent && !next.urgent) ||
            (d.urgent === next.urgent && d.waitingSince < next.waitingSince)
          )
            next = d;
        }
        if (!next || busy >= this.slots) return;
        next.release();
        if (!next.busy && next.waiting) refused.add(next);
      }
    } finally {
      this.pumping = false;
    }
  }

  /** Decoders working now (tests and the benchmark). */
  get working(): number {
    let n = 0;
    for (const d of this.members) if (d.busy) n++;
    return n;
  }
}
