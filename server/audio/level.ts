/**
 * Brings quiet speech up to the level the recogniser was trained on. PocketSphinx's voice
 * detection and noise removal work on absolute levels: read speech 40 dB down came back as a
 * word or two (or nothing at all), the same audio raised back up was recognised normally.
 * Only gain is applied (never compression), and never so much that more than a few samples
 * in ten thousand would clip.
 */
const FRAME = 480; // 30 ms at 16 kHz
/** Where the loud end of the speech (95th percentile of 30 ms frames) is put, dBFS. */
export const TARGET_SPEECH_DB = -18;
/** Most gain ever applied: beyond this a recording is background, not quiet speech. */
export const MAX_GAIN_DB = 36;
/**
 * Recordings within this much of the target are left alone: on the fixtures (normal levels)
 * small corrections only moved single words either way.
 */
const MIN_GAIN_DB = 10;

export function levelGainDb(pcm: Int16Array): number {
  const frames = Math.floor(pcm.length / FRAME);
  if (!frames) return 0;
  const db = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let i = f * FRAME; i < (f + 1) * FRAME; i++) sum += pcm[i] * pcm[i];
    const rms = Math.sqrt(sum / FRAME) / 32768;
    db[f] = rms > 0 ? 20 * Math.log10(rms) : -120;
  }
  db.sort();
  const loud = db[Math.floor((frames - 1) * 0.95)];
  if (loud <= -100) return 0; // digital silence: nothing to raise
  // Headroom: the 99.97th percentile of |sample| (over every 5th sample) must stay below full scale.
  const mags = new Uint16Array(Math.ceil(pcm.length / 5));
  for (let i = 0, k = 0; i < pcm.length; i += 5, k++) mags[k] = Math.abs(pcm[i]);
  mags.sort();
  const peak = Math.max(1, mags[Math.floor((mags.length - 1) * 0.9997)]);
  const headroomDb = 20 * Math.log10(32767 / peak);
  const gain = Math.min(TARGET_SPEECH_DB - loud, headroomDb, MAX_GAIN_DB);
  return gain >= MIN_GAIN_DB ? gain : 0;
}

/** The clip with quiet speech raised (a copy), or the clip itself when it is loud enough. */
export function normaliseLevel(pcm: Int16Array): Int16Array {
  const gainDb = levelGainDb(pcm);
  if (!gainDb) return pcm;
  const g = 10 ** (gainDb / 20);
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = Math.max(-32768, Math.min(32767, Math.round(pcm[i] * g)));
  return out;
}

/**
 * Telephone audio (8 kHz, resampled to 16 kHz) has nothing above 4 kHz. PocketSphinx's
 * wideband model takes log energies of mel bands up to 6.8 kHz, and empty bands there come
 * out as extreme values that wreck recognition (read speech at 8 kHz: 100% of words wrong).
 * Filling the empty band with faint white noise (about 32 dB under the speech) brings those
 * bands back to the range the model knows.
 */
const FILL_CUTOFF_HZ = 4200;
/**
 * Ratio of upper-band (4.2-7.5 kHz) to speech-band power. Wideband fixtures measure -26 to -8
 * dB, the same clips at 8 kHz -68 to -31 dB, but the 1961 JFK recording (16 kHz, yet band-
 * limited) measures -43 dB and got worse with the fill (14 -> 19 errors of 22). So a
 * recording known to be sampled at 12 kHz or less is filled below -30 dB; one of unknown
 * origin only when its upper band is really empty (below -50 dB).
 */
const NARROWBAND_RATIO_DB = -30;
const EMPTY_BAND_RATIO_DB = -50;
export const FILL_BELOW_SPEECH_DB = 32;

const DFT_N = 256;
let dftTable: { bins: number[]; cos: Float32Array; sin: Float32Array; speechBins: number } | null = null;

/** Hann-windowed DFT basis for the speech band and the upper band only (16 kHz, 256 points). */
function bandTable() {
  if (dftTable) return dftTable;
  const bin = (hz: number) => Math.round((hz * DFT_N) / 16_000);
  const speech = Array.from({ length: bin(3400) - bin(300) + 1 }, (_, i) => bin(300) + i);
  const upper = Array.from(
    { length: bin(7500) - bin(FILL_CUTOFF_HZ) + 1 },
    (_, i) => bin(FILL_CUTOFF_HZ) + i,
  );
  const bins = [...speech, ...upper];
  const cos = new Float32Array(bins.length * DFT_N);
  const sin = new Float32Array(bins.length * DFT_N);
  bins.forEach((k, b) => {
    for (let i = 0; i < DFT_N; i++) {
      const w = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / (DFT_N - 1));
      cos[b * DFT_N + i] = w * Math.cos((2 * Math.PI * k * i) / DFT_N);
      sin[b * DFT_N + i] = w * Math.sin((2 * Math.PI * k * i) / DFT_N);
    }
  });
  dftTable = { bins, cos, sin, speechBins: speech.length };
  return dftTable;
}

/** Power ratio (dB) of 4.2-7.5 kHz to 0.3-3.4 kHz over up to 200 frames spread through the clip. */
export function upperBandRatioDb(pcm: Int16Array): number {
  const { bins, cos, sin, speechBins } = bandTable();
  let speech = 0;
  let upper = 0;
  const step = Math.max(DFT_N, Math.floor(pcm.length / 200));
  for (let at = 0; at + DFT_N <= pcm.length; at += step) {
    for (let b = 0; b < bins.length; b++) {
      let re = 0;
      let im = 0;
      const o = b * DFT_N;
      for (let i = 0; i < DFT_N; i++) {
        re += pcm[at + i] * cos[o + i];
        im += pcm[at + i] * sin[o + i];
      }
      if (b < speechBins) speech += re * re + im * im;
      else upper += re * re + im * im;
    }
  }
  if (speech <= 0) return 0;
  return 10 * Math.log10((upper + 1e-9) / speech);
}

let fillNoise: Float32Array | null = null;

/** Two seconds of white noise high-passed at 4.2 kHz (windowed-sinc FIR), unit RMS. */
function upperBandNoise(): Float32Array {
  if (fillNoise) return fillNoise;
  const len = 32_000;
  const taps = 101;
  const fc = FILL_CUTOFF_HZ / 16_000;
  const h = new Float32Array(taps);
  const mid = (taps - 1) / 2;
  for (let i = 0; i < taps; i++) {
    const t = i - mid;
    const lowpass = t === 0 ? 2 * fc : Math.sin(2 * Math.PI * fc * t) / (Math.PI * t);
    const w =
      0.42 - 0.5 * Math.cos((2 * Math.PI * i) / (taps - 1)) + 0.08 * Math.cos((4 * Math.PI * i) / (taps - 1));
    h[i] = ((t === 0 ? 1 : 0) - lowpass) * w;
  }
  let seed = 12345;
  const white = Float32Array.from({ length: len + taps }, () => {
    seed = (seed * 1103515245 + 12345) >>> 0;
    return seed / 2 ** 31 - 1;
  });
  const out = new Float32Array(len);
  let power = 0;
  for (let i = 0; i < len; i++) {
    let acc = 0;
    for (let k = 0; k < taps; k++) acc += h[k] * white[i + k];
    out[i] = acc;
    power += acc * acc;
  }
  const scale = 1 / Math.sqrt(power / len);
  for (let i = 0; i < len; i++) out[i] *= scale;
  fillNoise = out;
  return out;
}

/** Loud end of the speech (95th percentile of 30 ms frames), dBFS. */
function speechLevelDb(pcm: Int16Array): number {
  const frames = Math.floor(pcm.length / FRAME);
  if (!frames) return -120;
  const db = new Float32Array(frames);
  for (let f = 0; f < frames; f++) {
    let sum = 0;
    for (let i = f * FRAME; i < (f + 1) * FRAME; i++) sum += pcm[i] * pcm[i];
    const rms = Math.sqrt(sum / FRAME) / 32768;
    db[f] = rms > 0 ? 20 * Math.log10(rms) : -120;
  }
  db.sort();
  return db[Math.floor((frames - 1) * 0.95)];
}

/** Telephone-band audio with its empty upper band filled (a copy); other audio as it is. */
export function fillMissingBand(
  pcm: Int16Array,
  sourceSampleRate?: number,
  belowSpeechDb = FILL_BELOW_SPEECH_DB,
): Int16Array {
  const limit = sourceSampleRate && sourceSampleRate <= 12_000 ? NARROWBAND_RATIO_DB : EMPTY_BAND_RATIO_DB;
  if (pcm.length < 4096 || upperBandRatioDb(pcm) > limit) return pcm;
  const level = speechLevelDb(pcm);
  if (level <= -100) return pcm;
  const amp = 32768 * 10 ** ((level - belowSpeechDb) / 20);
  const noise = upperBandNoise();
  const out = new Int16Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) {
    out[i] = Math.max(-32768, Math.min(32767, Math.round(pcm[i] + amp * noise[i % noise.length])));
  }
  return out;
}
