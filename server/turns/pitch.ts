/**
 * The pitch contour at the end of what the rep said: falling at the end of a finished
 * statement, rising at a yes/no question or when a speaker signals there is more to come
 * ("eight of spades, four of clubs, ..."). Turn-taking reads it when the rep falls silent.
 *
 * F0 comes from a cheap normalised autocorrelation of 32 ms frames every 15 ms at 8 kHz, only
 * over the last 600 ms of speech and only when a pause begins, so a call pays a few
 * milliseconds of CPU per pause, nothing while the rep talks.
 */
export type PitchContour = 'rising' | 'falling' | 'level' | 'unknown';

export interface ContourReading {
  contour: PitchContour;
  /** Change over the final voiced stretch, in semitones (negative: falling). */
  semitones: number;
  /** Voiced audio the reading rests on. */
  voicedMs: number;
}

const RATE = 8000;
const FRAME = 256;
const HOP = 120;
const HOP_MS = (HOP / RATE) * 1000;
const MIN_HZ = 70;
const MAX_HZ = 400;
const MIN_LAG = Math.floor(RATE / MAX_HZ);
const MAX_LAG = Math.ceil(RATE / MIN_HZ);
/** Samples one frame's correlation reads: the frame, the longest lag and one more for the peak fit. */
const SPAN = FRAME + MAX_LAG + 2;
/** Normalised correlation at the period above which a frame counts as voiced. */
const VOICED_CLARITY = 0.6;
/** The stretch of voiced audio at the end whose slope decides the contour. */
const TAIL_MS = 300;
/** Fewer voiced frames than this at the end (breathy, whispered, clipped) give no reading. */
const MIN_VOICED_FRAMES = 6;
/** A change this large (semitones) over the final stretch is a rise or a fall, not level. */
const CHANGE_ST = 1.5;

/**
 * F0 in Hz of one frame of 8 kHz audio, or null when
 * the frame is not clearly periodic. Reads `SPAN` samples from `start`. The first lag whose correlation is within 10% of the best
 * wins, so a period's multiples (an octave too low) do not.
 */
export function frameF0(x: Float32Array, start: number): { hz: number; clarity: number } | null {
  if (start + SPAN > x.length) return null;
  let e0 = 0;
  for (let n = 0; n < FRAME; n++) e0 += x[start + n] * x[start + n];
  if (e0 <= 1e-9) return null;
  const r = new Float32Array(MAX_LAG + 2);
  let eLag = 0;
  for (let n = 0; n < FRAME; n++) eLag += x[start + MIN_LAG + n] ** 2;
  let best = 0;
  for (let lag = MIN_LAG; lag <= MAX_LAG + 1; lag++) {
    let dot = 0;
    for (let n = 0; n < FRAME; n++) dot += x[start + n] * x[start + n + lag];
    r[lag] = eLag > 0 ? dot / Math.sqrt(e0 * eLag) : 0;
    if (lag <= MAX_LAG && r[lag] > best) best = r[lag];
    // Slide the energy of the lagged frame one sample on.
    const out = x[start + lag];
    const inn = x[start + lag + FRAME];
    eLag += inn * inn - out * out;
  }
  if (best < VOICED_CLARITY) return null;
  for (let lag = MIN_LAG + 1; lag <= MAX_LAG; lag++) {
    const peak = r[lag] >= r[lag - 1] && r[lag] >= r[lag + 1];
    if (!peak || r[lag] < best * 0.9) continue;
    // A parabola through the peak and its neighbours places it between samples.
    const denom = r[lag - 1] - 2 * r[lag] + r[lag + 1];
    const shift = denom !== 0 ? (0.5 * (r[lag - 1] - r[lag + 1])) / denom : 0;
    return { hz: RATE / (lag + Math.max(-0.5, Math.min(0.5, shift))), clarity: r[lag] };
  }
  return null;
}

const semitones = (hz: number) => 12 * Math.log2(hz);

function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)];
}

/**
 * The contour of a stretch of 8 kHz speech: F0 over frames every 15 ms, the last `TAIL_MS` of
 * voiced frames, smoothed by a 3-frame median (one octave slip must not read as a rise), then a
 * least-squares line through them; its change over the stretch decides.
 */
export function contourOf(x: Float32Array): ContourReading {
  // Frame placement alone moved single readings across the threshold (one clip read rising at
  // one offset and falling 10 ms later): the median of three placements a third of a hop apart.
  const readings = [0, HOP / 3, (2 * HOP) / 3].map((offset) => contourAt(x, Math.round(offset)));
  const known = readings.filter((r) => r.contour !== 'unknown').sort((a, b) => a.semitones - b.semitones);
  if (known.length < 2) return readings[0];
  return known[Math.floor((known.length - 1) / 2)];
}

function contourAt(x: Float32Array, first: number): ContourReading {
  const frames: { t: number; st: number; energy: number }[] = [];
  let maxEnergy = 0;
  for (let start = first; start + SPAN <= x.length; start += HOP) {
    let energy = 0;
    for (let n = 0; n < FRAME; n++) energy += x[start + n] * x[start + n];
    maxEnergy = Math.max(maxEnergy, energy);
    const f = frameF0(x, start);
    if (f) frames.push({ t: (start / RATE) * 1000, st: semitones(f.hz), energy });
  }
  // Quiet periodic frames (a hum, the tail of a breath) are not the rep's voice.
  const voiced = frames.filter((f) => f.energy >= maxEnergy * 0.02);
  if (voiced.length < MIN_VOICED_FRAMES)
    return { contour: 'unknown', semitones: 0, voicedMs: voiced.length * HOP_MS };
  // Creaky voice at the end of a phrase often reads an octave low (or high): fold each frame into
  // the octave around the speaker's median of the last 600 ms before judging the contour.
  const mid = median(voiced.map((f) => f.st));
  for (const f of voiced) {
    while (f.st - mid > 7) f.st -= 12;
    while (mid - f.st > 7) f.st += 12;
  }
  const lastT = voiced[voiced.length - 1].t;
  const tail = voiced.filter((f) => f.t >= lastT - TAIL_MS);
  if (tail.length < MIN_VOICED_FRAMES)
    return { contour: 'unknown', semitones: 0, voicedMs: tail.length * HOP_MS };
  const smooth = tail.map((f, i) => ({
    t: f.t,
    st: median(tail.slice(Math.max(0, i - 1), i + 2).map((g) => g.st)),
  }));
  const n = smooth.length;
  const mt = smooth.reduce((s, f) => s + f.t, 0) / n;
  const ms = smooth.reduce((s, f) => s + f.st, 0) / n;
  let num = 0;
  let den = 0;
  for (const f of smooth) {
    num += (f.t - mt) * (f.st - ms);
    den += (f.t - mt) ** 2;
  }
  const slope = den > 0 ? num / den : 0;
  const change = slope * (smooth[n - 1].t - smooth[0].t);
  const contour: PitchContour = change <= -CHANGE_ST ? 'falling' : change >= CHANGE_ST ? 'rising' : 'level';
  return { contour, semitones: Math.round(change * 10) / 10, voicedMs: n * HOP_MS };
}

/** Keeps the last 600 ms of the rep's speech (16 kHz windows) for a contour when a pause begins. */
export class PitchTracker {
  private readonly buf = new Float32Array((RATE * 6) / 10);
  private filled = 0;

  /** A window of 16 kHz speech; silence is not kept (the contour is of the voice before it). */
  push(window: Int16Array): void {
    const n = window.length >> 1;
    if (n >= this.buf.length) return;
    this.buf.copyWithin(0, n);
    const at = this.buf.length - n;
    // Two samples averaged into one: 16 kHz to 8 kHz with a crude low-pass, plenty for F0.
    for (let i = 0; i < n; i++) this.buf[at + i] = (window[2 * i] + window[2 * i + 1]) / 65536;
    this.filled = Math.min(this.buf.length, this.filled + n);
  }

  contour(): ContourReading {
    return contourOf(this.buf.subarray(this.buf.length - this.filled));
  }

  reset(): void {
    this.filled = 0;
  }
}
