/**
 * Cheap voice detection ahead of recognition: long stretches with nothing above the
 * recording's own background are cut out before the recogniser sees the audio, so the cost of
 * a recording follows its speech, not its length. The test is deliberately permissive (a
 * level a few dB over the background, or any level well above digital silence in a clean
 * recording) and keeps generous margins around what it keeps: a false "speech" costs a few
 * milliseconds of decoding, a missed word is lost for good.
 */
export const GATE_FRAME_MS = 30;
/** Kept before and after anything that may be speech (the recogniser needs context too). */
export const GATE_PAD_MS = 600;
/** Quiet gaps shorter than this are kept, so turns and phrasing stay intact. */
export const GATE_MIN_GAP_MS = 2000;
/** A frame this far above the background may be speech. */
const OVER_BACKGROUND_DB = 6;
/** Below this nothing is speech, however clean the recording. */
const ABSOLUTE_FLOOR_DB = -72;

export interface Span {
  start: number;
  end: number;
}

function frameDb(pcm: Int16Array, from: number, len: number): number {
  let sum = 0;
  const end = Math.min(pcm.length, from + len);
  for (let i = from; i < end; i++) sum += pcm[i] * pcm[i];
  const rms = Math.sqrt(sum / Math.max(1, end - from)) / 32768;
  return rms > 0 ? 20 * Math.log10(rms) : -120;
}

/** Sample ranges that may hold speech, padded and merged; empty when there is nothing to hear. */
export function speechSpans(pcm: Int16Array, sampleRate: number): Span[] {
  const frame = Math.round((sampleRate * GATE_FRAME_MS) / 1000);
  const n = Math.ceil(pcm.length / frame);
  if (!n) return [];
  const db = new Float32Array(n);
  for (let f = 0; f < n; f++) db[f] = frameDb(pcm, f * frame, frame);
  // The background is the level of the quieter frames (10th percentile).
  const sorted = Float32Array.from(db).sort();
  const background = sorted[Math.floor((n - 1) * 0.1)];
  const threshold = Math.max(ABSOLUTE_FLOOR_DB, background + OVER_BACKGROUND_DB);
  const pad = Math.round((sampleRate * GATE_PAD_MS) / 1000);
  const minGap = Math.round((sampleRate * GATE_MIN_GAP_MS) / 1000);
  const spans: Span[] = [];
  for (let f = 0; f < n; f++) {
    if (db[f] <= threshold) continue;
    const start = Math.max(0, f * frame - pad);
    const end = Math.min(pcm.length, (f + 1) * frame + pad);
    const last = spans[spans.length - 1];
    if (last && start - last.end < minGap) last.end = Math.max(last.end, end);
    else spans.push({ start, end });
  }
  return spans;
}

/** Maps times in the joined speech spans back to times in the original audio. */
export class SpanMap {
  private readonly starts: number[] = [];
  constructor(
    readonly spans: Span[],
    private readonly sampleRate: number,
  ) {
    let at = 0;
    for (const s of spans) {
      this.starts.push(at);
      at += s.end - s.start;
    }
  }

  /** Total samples once the spans are joined. */
  get length(): number {
    return this.spans.reduce((n, s) => n + s.end - s.start, 0);
  }

  /** The spans of `pcm` joined end to end. */
  join(pcm: Int16Array): Int16Array {
    const out = new Int16Array(this.length);
    this.spans.forEach((s, i) => out.set(pcm.subarray(s.start, s.end), this.starts[i]));
    return out;
  }

  /** A time (ms) in the joined audio -> the same moment in the original (ms). */
  toOriginalMs(ms: number): number {
    const sample = (ms * this.sampleRate) / 1000;
    let i = 0;
    while (i + 1 < this.starts.length && this.starts[i + 1] <= sample) i++;
    if (!this.spans.length) return ms;
    const s = this.spans[i];
    const inSpan = Math.min(sample - this.starts[i], s.end - s.start);
    return Math.round(((s.start + Math.max(0, inSpan)) * 1000) / this.sampleRate);
  }
}
