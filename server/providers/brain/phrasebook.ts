import { sentenceKey, trimmedSentences } from '../../understanding/text/lines';

/** A small seeded generator so a call is reproducible in tests and varies between calls. */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export const sentences = trimmedSentences;
export { sentenceKey };

/** The runs of five words of a sentence key. */
function runsOf(key: string): string[] {
  const words = key.split(' ');
  const out: string[] = [];
  for (let i = 0; i + 5 <= words.length; i++) out.push(words.slice(i, i + 5).join(' '));
  return out;
}

/**
 * What the homeowner has said in this call: picks a phrasing not used yet and never lets a
 * sentence be said twice (asked again, the homeowner restates in other words).
 */
export class Phrasebook {
  private readonly random: () => number;
  private readonly said = new Set<string>();
  /** Every run of five words said in this call, to tell a near-repeat ("I have a quote from..."). */
  private readonly runs = new Set<string>();

  constructor(
    seed: number,
    private readonly fill: (text: string) => string,
  ) {
    this.random = seededRandom(seed);
  }

  /**
   * A variant none of whose sentences has been said in this call; else one with something new
   * in it (say() drops the repeated sentences); null when every variant has been said.
   */
  pick(options: readonly string[]): string | null {
    const filled = options.map((o) => this.fill(o));
    const fresh = filled.filter((o) => !this.wasSaid(o));
    // A variant that says again, in other words, what was already said comes last.
    const distinct = fresh.filter((o) => !this.echoes(o));
    let pool = distinct.length > 0 ? distinct : fresh;
    if (pool.length === 0)
      pool = filled.filter((o) => sentences(o).some((s) => !this.said.has(sentenceKey(s))));
    if (pool.length === 0) return null;
    return pool[Math.floor(this.random() * pool.length)] ?? null;
  }

  /** A variant that neither was said nor says again what was said; null when none is left. */
  pickNew(options: readonly string[]): string | null {
    const pool = options.map((o) => this.fill(o)).filter((o) => !this.wasSaid(o) && !this.echoes(o));
    return pool.length > 0 ? (pool[Math.floor(this.random() * pool.length)] ?? null) : null;
  }

  /** The first variant not said yet, in order (for escalating lines). */
  first(options: readonly string[]): string | null {
    return options.map((o) => this.fill(o)).find((o) => !this.wasSaid(o)) ?? null;
  }

  wasSaid(text: string): boolean {
    return sentences(text).some((s) => this.said.has(sentenceKey(s)));
  }

  /** Whether the text repeats five words in a row of something said in this call. */
  echoes(text: string): boolean {
    return sentences(text).some((s) => runsOf(sentenceKey(s)).some((r) => this.runs.has(r)));
  }

  private remember(key: string): void {
    this.said.add(key);
    for (const r of runsOf(key)) this.runs.add(r);
  }

  /**
   * Joins the parts into the reply, dropping any sentence already said; when nothing is left, a
   * fresh filler. Records what was said.
   */
  say(parts: readonly (string | null)[], fillers: readonly string[] = []): string {
    const out: string[] = [];
    for (const part of parts) {
      if (!part) continue;
      for (const s of sentences(part)) {
        const key = sentenceKey(s);
        if (!key || this.said.has(key)) continue;
        this.remember(key);
        out.push(s);
      }
    }
    if (out.length === 0) {
      const filler =
        this.pick(fillers) ?? this.fill(fillers[Math.floor(this.random() * fillers.length)] ?? 'Hm.');
      for (const s of sentences(filler)) this.remember(sentenceKey(s));
      out.push(filler);
    }
    return out.join(' ');
  }
}
