/**
 * Per-frame voice features (loudness, pitch, zero-crossing rate) computed block by block, so a
 * long recording never needs to sit in memory whole. Used to tell two voices apart.
 */
export const FEATURE_FRAME_MS = 20;
const SAMPLE_RATE = 16_000;
const FRAME = (SAMPLE_RATE * FEATURE_FRAME_MS) / 1000; // 320 samples
const MIN_PITCH_HZ = 70;
const MAX_PITCH_HZ = 400;
/** Frames quieter than this (dBFS) are not analysed for pitch. */
const VOICED_FLOOR_DB = -45;

export interface FrameTrack {
  energyDb: number[];
  /** Log band energies (spectral envelope) per frame; the strongest cue to who is talking. */
  bands: Float32Array[];
  /** 0 where the frame is unvoiced or too quiet. */
  pitchHz: number[];
  zcr: number[];
}

function frameEnergyDb(pcm: Int16Array, from: number): number {
  let sum = 0;
  for (let i = from; i < from + FRAME; i++) sum += pcm[i] * pcm[i];
  const rms = Math.sqrt(sum / FRAME) / 32768;
  return rms > 0 ? 20 * Math.log10(rms) : -100;
}

function frameZcr(pcm: Int16Array, from: number): number {
  let crossings = 0;
  for (let i = from + 1; i < from + FRAME; i++) if (pcm[i - 1] < 0 !== pcm[i] < 0) crossings++;
  return crossings / FRAME;
}

/**
 * Pitch by normalised autocorrelation on a 2x-decimated 40 ms window (8 kHz keeps it cheap).
 * Returns 0 when no lag correlates well enough to call the frame voiced.
 */
function framePitch(pcm: Int16Array, from: number): number {
  const start = Math.max(0, from - FRAME / 2);
  const end = Math.min(pcm.length, start + 2 * FRAME);
  const n = (end - start) >> 1;
  if (n < 100) return 0;
  const x = new Float32Array(n);
  let mean = 0;
  for (let i = 0; i < n; i++) {
    x[i] = (pcm[start + 2 * i] + pcm[start + 2 * i + 1]) / 2;
    mean += x[i];
  }
  mean /= n;
  for (let i = 0; i < n; i++) x[i] -= mean;
  const rate = SAMPLE_RATE / 2;
  const minLag = Math.floor(rate / MAX_PITCH_HZ);
  const maxLag = Math.min(n - 20, Math.ceil(rate / MIN_PITCH_HZ));
  let best = 0;
  let bestLag = 0;
  for (let lag = minLag; lag <= maxLag; lag++) {
    let num = 0;
    let e1 = 0;
    let e2 = 0;
    for (let i = 0; i + lag < n; i++) {
      num += x[i] * x[i + lag];
      e1 += x[i] * x[i];
      e2 += x[i + lag] * x[i + lag];
    }
    const r = num / Math.sqrt(e1 * e2 + 1e-9);
    if (r > best) {
      best = r;
      bestLag = lag;
    }
  }
  return best >= 0.55 && bestLag > 0 ? rate / bestLag : 0;
}

export const BAND_COUNT = 12;
const FFT_SIZE = 512;
const hann = Float32Array.from(
  { length: FFT_SIZE },
  (_, i) => 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (FFT_SIZE - 1)),
);
const melOf = (hz: number) => 2595 * Math.log10(1 + hz / 700);
const hzOf = (mel: number) => 700 * (10 ** (mel / 2595) - 1);
/** FFT bin edges of mel-spaced bands between 100 Hz and 7 kHz. */
const BAND_EDGES = Array.from({ length: BAND_COUNT + 1 }, (_, i) => {
  const mel = melOf(100) + ((melOf(7000) - melOf(100)) * i) / BAND_COUNT;
  return Math.round((hzOf(mel) * FFT_SIZE) / SAMPLE_RATE);
});

/** In-place iterative radix-2 FFT. */
function fft(re: Float32Array, im: Float32Array): void {
  const n = re.length;
  for (let i = 1, j = 0; i < n; i++) {
    let bit = n >> 1;
    for (; j & bit; bit >>= 1) j ^= bit;
    j ^= bit;
    if (i < j) {
      [re[i], re[j]] = [re[j], re[i]];
      [im[i], im[j]] = [im[j], im[i]];
    }
  }
  for (let len = 2; len <= n; len <<= 1) {
    const ang = (-2 * Math.PI) / len;
    const wr = Math.cos(ang);
    const wi = Math.sin(ang);
    for (let i = 0; i < n; i += len) {
      let cr = 1;
      let ci = 0;
      for (let k = 0; k < len / 2; k++) {
        const a = i + k;
        const b = a + len / 2;
        const tr = re[b] * cr - im[b] * ci;
        const ti = re[b] * ci + im[b] * cr;
        re[b] = re[a] - tr;
        im[b] = im[a] - ti;
        re[a] += tr;
        im[a] += ti;
        const ncr = cr * wr - ci * wi;
        ci = cr * wi + ci * wr;
        cr = ncr;
      }
    }
  }
}

function frameBands(pcm: Int16Array, from: number): Float32Array {
  const re = new Float32Array(FFT_SIZE);
  const im = new Float32Array(FFT_SIZE);
  const start = from + FRAME / 2 - FFT_SIZE / 2;
  for (let i = 0; i < FFT_SIZE; i++) {
    const at = start + i;
    re[i] = at >= 0 && at < pcm.length ? (pcm[at] / 32768) * hann[i] : 0;
  }
  fft(re, im);
  const bands = new Float32Array(BAND_COUNT);
  for (let b = 0; b < BAND_COUNT; b++) {
    let p = 1e-10;
    for (let k = BAND_EDGES[b]; k < Math.max(BAND_EDGES[b] + 1, BAND_EDGES[b + 1]); k++)
      p += re[k] * re[k] + im[k] * im[k];
    bands[b] = 10 * Math.log10(p);
  }
  return bands;
}

/** Accumulates frame features over consecutive PCM blocks. */
export class VoiceFeatureTracker {
  readonly track: FrameTrack = { energyDb: [], bands: [], pitchHz: [], zcr: [] };
  private carry = new Int16Array(0);

  push(block: Int16Array): void {
    const pcm = new Int16Array(this.carry.length + block.length);
    pcm.set(this.carry, 0);
    pcm.set(block, this.carry.length);
    let at = 0;
    for (; at + FRAME <= pcm.length; at += FRAME) {
      const e = frameEnergyDb(pcm, at);
      this.track.energyDb.push(e);
      this.track.zcr.push(frameZcr(pcm, at));
      this.track.bands.push(e > VOICED_FLOOR_DB ? frameBands(pcm, at) : new Float32Array(0));
      this.track.pitchHz.push(e > VOICED_FLOOR_DB ? framePitch(pcm, at) : 0);
    }
    this.carry = pcm.slice(at);
  }
}

export interface SpanFeatures {
  /** Median pitch of voiced frames, Hz (0 when none were voiced). */
  pitchHz: number;
  /** Mean loudness of the louder half of frames (speech, not the gaps), dBFS. */
  energyDb: number;
  zcr: number;
  voicedFrames: number;
  /** Mean spectral shape of the speech frames (band level minus the frame's mean level), dB. */
  shape: number[];
}

const median = (xs: number[]) => {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
};

export function spanFeatures(track: FrameTrack, startMs: number, endMs: number): SpanFeatures {
  const from = Math.max(0, Math.floor(startMs / FEATURE_FRAME_MS));
  const to = Math.min(track.energyDb.length, Math.ceil(endMs / FEATURE_FRAME_MS));
  const pitches: number[] = [];
  const energies: number[] = [];
  let zcr = 0;
  for (let i = from; i < to; i++) {
    energies.push(track.energyDb[i]);
    zcr += track.zcr[i];
    if (track.pitchHz[i] > 0) pitches.push(track.pitchHz[i]);
  }
  const shape = new Array<number>(BAND_COUNT).fill(0);
  let shaped = 0;
  for (let i = from; i < to; i++) {
    const bands = track.bands[i];
    if (!bands || bands.length !== BAND_COUNT) continue;
    const mean = bands.reduce((a, b) => a + b, 0) / BAND_COUNT;
    for (let b = 0; b < BAND_COUNT; b++) shape[b] += bands[b] - mean;
    shaped++;
  }
  if (shaped) for (let b = 0; b < BAND_COUNT; b++) shape[b] /= shaped;
  energies.sort((a, b) => b - a);
  const loud = energies.slice(0, Math.max(1, energies.length >> 1));
  return {
    pitchHz: median(pitches),
    energyDb: loud.length ? loud.reduce((a, b) => a + b, 0) / loud.length : -100,
    zcr: to > from ? zcr / (to - from) : 0,
    voicedFrames: pitches.length,
    shape,
  };
}

/** Mean loudness of a span in dBFS (all frames). */
export function meanEnergyDb(track: FrameTrack, startMs: number, endMs: number): number {
  const from = Math.max(0, Math.floor(startMs / FEATURE_FRAME_MS));
  const to = Math.min(track.energyDb.length, Math.max(from + 1, Math.ceil(endMs / FEATURE_FRAME_MS)));
  let power = 0;
  for (let i = from; i < to; i++) power += 10 ** (track.energyDb[i] / 10);
  const mean = power / Math.max(1, to - from);
  return mean > 0 ? 10 * Math.log10(mean) : -100;
}
