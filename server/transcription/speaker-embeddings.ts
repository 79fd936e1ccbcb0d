/**
 * Who said what on one channel, from speaker embeddings (the spans' voice prints,
 * server/transcription/speaker-spans.ts): each utterance gets the mean direction of the prints that
 * overlap it, the utterances are split into two voices by cosine two-means, and the split stands
 * only when utterances of different voices sit clearly further apart than utterances of one.
 * Used instead of the voice features (attributeMono) when a speaker model is installed.
 */
import type { SttSegment } from '../providers/stt/types';
import {
  fillFromNeighbours,
  labelTurns,
  MIN_UTTERANCES_PER_VOICE,
  oneVoice,
  utterancesFrom,
  type MonoAttribution,
  type Utterance,
} from './attribution';
import { spanFeatures, type FrameTrack } from '../audio/voice-features';

/** A voice print and the stretch of the recording it was taken from. */
export interface TimedVector {
  startMs: number;
  endMs: number;
  vector: ArrayLike<number>;
}

/** An utterance carries a voice print when prints cover at least this much of it. */
export const MIN_EMBEDDED_MS = 500;

/**
 * How much further apart two utterances of different voices sit than two of the same voice
 * (mean cosine distance across the split minus within it, over within) for the split to count as
 * two people. Measured over pairs, never against a centre fitted to the same points, so it does
 * not grow when there are few utterances. On synthetic 192-dimensional prints (4 to 200
 * utterances, 30 draws each) splitting one voice gave at most 0.3, two voices at least 0.7 while a
 * print keeps a cosine of 0.7 to its voice and 0.5 at 0.64 (from six utterances on). Not yet
 * tuned on a real model's prints; a ratio, so it carries over between models better than a fixed
 * distance would.
 */
export const MIN_EMBEDDING_SEPARATION = 0.5;
/**
 * Prints of one voice never agree better than this (mean cosine distance between them), so two
 * tight groups of near-identical prints are not overrated.
 */
const WITHIN_FLOOR = 0.05;

function dot(a: ArrayLike<number>, b: ArrayLike<number>): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/** A unit-length copy (all zeros stay zeros). */
export function normalise(v: ArrayLike<number>): Float64Array {
  const n = Math.sqrt(dot(v, v));
  const out = new Float64Array(v.length);
  if (n > 0) for (let i = 0; i < v.length; i++) out[i] = v[i] / n;
  return out;
}

export function cosine(a: ArrayLike<number>, b: ArrayLike<number>): number {
  const n = Math.sqrt(dot(a, a) * dot(b, b));
  return n > 0 ? dot(a, b) / n : 0;
}

/**
 * Each utterance's voice print: the mean of the unit-length span prints that overlap it, each
 * weighted by how long it overlaps, as a unit vector; null when prints cover less than
 * MIN_EMBEDDED_MS of it (too short to say). `spans` in time order.
 */
export function utteranceEmbeddings(
  utterances: Utterance[],
  spans: TimedVector[],
): { vector: Float64Array | null; coveredMs: number }[] {
  const units = spans.map((s) => normalise(s.vector));
  let first = 0;
  return utterances.map((u) => {
    while (first < spans.length && spans[first].endMs <= u.startMs) first++;
    let sum: Float64Array | null = null;
    let covered = 0;
    for (let k = first; k < spans.length && spans[k].startMs < u.endMs; k++) {
      const overlap = Math.min(u.endMs, spans[k].endMs) - Math.max(u.startMs, spans[k].startMs);
      if (overlap <= 0) continue;
      sum ??= new Float64Array(units[k].length);
      if (units[k].length !== sum.length) continue;
      for (let d = 0; d < sum.length; d++) sum[d] += units[k][d] * overlap;
      covered += overlap;
    }
    return { vector: sum && covered >= MIN_EMBEDDED_MS ? normalise(sum) : null, coveredMs: covered };
  });
}

interface Clustering {
  labels: number[];
  centers: Float64Array[];
  /** Weighted mean cosine distance of the points to their own centre. */
  within: number;
}

function centres(xs: Float64Array[], weights: number[], labels: number[]): Float64Array[] | null {
  const dims = xs[0].length;
  const sums = [new Float64Array(dims), new Float64Array(dims)];
  const mass = [0, 0];
  xs.forEach((x, i) => {
    mass[labels[i]] += weights[i];
    for (let d = 0; d < dims; d++) sums[labels[i]][d] += x[d] * weights[i];
  });
  if (!mass[0] || !mass[1]) return null;
  return sums.map(normalise);
}

function lloyd(xs: Float64Array[], weights: number[], start: number[], iterations = 30): Clustering | null {
  let labels = start;
  let centers = centres(xs, weights, labels);
  if (!centers) return null;
  for (let it = 0; it < iterations; it++) {
    const next = xs.map((x) => (dot(x, centers![0]) >= dot(x, centers![1]) ? 0 : 1));
    const same = next.every((l, i) => l === labels[i]);
    labels = next;
    const moved = centres(xs, weights, labels);
    if (!moved) return null;
    centers = moved;
    if (same) break;
  }
  const total = weights.reduce((a, b) => a + b, 0);
  const within = xs.reduce((s, x, i) => s + weights[i] * (1 - dot(x, centers![labels[i]])), 0) / total;
  return { labels, centers, within };
}

/** Labels from two seed points: each point to the nearer seed. */
function fromSeeds(xs: Float64Array[], a: number, b: number): number[] {
  return xs.map((x) => (dot(x, xs[a]) >= dot(x, xs[b]) ? 0 : 1));
}

function leastLike(xs: Float64Array[], to: ArrayLike<number>): number {
  let best = 0;
  for (let i = 1; i < xs.length; i++) if (dot(xs[i], to) < dot(xs[best], to)) best = i;
  return best;
}

/** Labels by which side of the mean the points lie along their main direction of spread. */
function principalSplit(xs: Float64Array[], weights: number[]): number[] {
  const dims = xs[0].length;
  const total = weights.reduce((a, b) => a + b, 0);
  const mean = new Float64Array(dims);
  xs.forEach((x, i) => {
    for (let d = 0; d < dims; d++) mean[d] += (x[d] * weights[i]) / total;
  });
  const centred = xs.map((x) => x.map((v, d) => v - mean[d]));
  // Power iteration on the weighted scatter matrix, started from the point furthest from the mean.
  let dir = normalise(centred[leastLike(xs, mean)]);
  for (let it = 0; it < 30; it++) {
    const next = new Float64Array(dims);
    centred.forEach((c, i) => {
      const p = dot(c, dir) * weights[i];
      for (let d = 0; d < dims; d++) next[d] += p * c[d];
    });
    dir = normalise(next);
  }
  return centred.map((c) => (dot(c, dir) >= 0 ? 0 : 1));
}

/**
 * Two-means on the unit sphere (cosine distance), weighted by each point's speech. Started three
 * ways (the point least like the mean and the point least like it; the first point and the point
 * least like it; the two sides of the main direction of spread) and the tightest result kept, so
 * one odd print (a cough, a noise) cannot claim a group of its own while two voices share the other.
 */
export function cosineTwoMeans(vectors: ArrayLike<number>[], weights: number[]): Clustering | null {
  const xs = vectors.map(normalise);
  if (xs.length < 2) return null;
  const total = weights.reduce((a, b) => a + b, 0);
  const mean = normalise(xs[0].map((_, d) => xs.reduce((s, x, i) => s + x[d] * weights[i], 0) / total));
  const odd = leastLike(xs, mean);
  const starts = [
    fromSeeds(xs, odd, leastLike(xs, xs[odd])),
    fromSeeds(xs, 0, leastLike(xs, xs[0])),
    principalSplit(xs, weights),
  ];
  let best: Clustering | null = null;
  for (const start of starts) {
    const result = lloyd(xs, weights, start);
    if (result && (!best || result.within < best.within)) best = result;
  }
  return best;
}

export interface VoiceSplit {
  /** 0/1 per vector; null when they are one voice. */
  labels: number[] | null;
  /** See MIN_EMBEDDING_SEPARATION. */
  separation: number;
}

/**
 * Mean cosine distance between the prints of one group and across the two (pairs weighted by
 * both prints' weights; a print is never paired with itself), from the groups' weighted sums:
 * the sum of x_i.x_j over pairs in a group is (|S|^2 - sum of w_i^2) / 2 for unit vectors.
 */
export function pairDistances(
  vectors: ArrayLike<number>[],
  weights: number[],
  labels: number[],
): { within: number; across: number } {
  const xs = vectors.map(normalise);
  const dims = xs[0].length;
  const sums = [new Float64Array(dims), new Float64Array(dims)];
  const mass = [0, 0];
  const squares = [0, 0];
  xs.forEach((x, i) => {
    const k = labels[i];
    mass[k] += weights[i];
    squares[k] += weights[i] ** 2;
    for (let d = 0; d < dims; d++) sums[k][d] += x[d] * weights[i];
  });
  let samePairs = 0;
  let sameSim = 0;
  for (const k of [0, 1]) {
    samePairs += (mass[k] ** 2 - squares[k]) / 2;
    sameSim += (dot(sums[k], sums[k]) - squares[k]) / 2;
  }
  const acrossPairs = mass[0] * mass[1];
  return {
    within: samePairs > 0 ? 1 - sameSim / samePairs : 0,
    across: acrossPairs > 0 ? 1 - dot(sums[0], sums[1]) / acrossPairs : 0,
  };
}

/**
 * Whether the prints are two voices, and which is which: the two-means split stands when the
 * voices are at least MIN_EMBEDDING_SEPARATION apart and each is heard in at least
 * MIN_UTTERANCES_PER_VOICE utterances.
 */
export function splitVoices(vectors: ArrayLike<number>[], weights: number[]): VoiceSplit {
  const c = cosineTwoMeans(vectors, weights);
  if (!c) return { labels: null, separation: 0 };
  const counts = [0, 1].map((k) => c.labels.filter((l) => l === k).length);
  if (Math.min(...counts) < MIN_UTTERANCES_PER_VOICE) return { labels: null, separation: 0 };
  const { within, across } = pairDistances(vectors, weights, c.labels);
  const separation = (across - within) / Math.max(within, WITHIN_FLOOR);
  return { labels: separation >= MIN_EMBEDDING_SEPARATION ? c.labels : null, separation };
}

/**
 * Mono attribution from voice prints. Null when too few utterances carry a print to decide either
 * way (fewer than two per voice could ever be found): the voice features decide instead.
 * Utterances without a print take the voice of the nearest one in time; the rep is chosen as
 * attributeMono chooses (the louder voice, else the one who talks more).
 */
export function attributeMonoByEmbeddings(
  segments: SttSegment[],
  track: FrameTrack,
  spans: TimedVector[],
): MonoAttribution | null {
  const utterances = utterancesFrom(segments);
  const prints = utteranceEmbeddings(utterances, spans);
  const idx = prints.flatMap((p, i) => (p.vector ? [i] : []));
  if (idx.length < 2 * MIN_UTTERANCES_PER_VOICE) return null;
  const split = splitVoices(
    idx.map((i) => prints[i].vector!),
    idx.map((i) => prints[i].coveredMs),
  );
  if (!split.labels) return oneVoice(utterances);
  const labelOf = new Array<number>(utterances.length).fill(-1);
  idx.forEach((i, k) => (labelOf[i] = split.labels![k]));
  fillFromNeighbours(utterances, labelOf);
  const loudness = (k: number) => {
    const vals = idx
      .filter((i) => labelOf[i] === k)
      .map((i) => spanFeatures(track, utterances[i].startMs, utterances[i].endMs))
      .filter((f) => f.voicedFrames > 0)
      .map((f) => f.energyDb)
      .sort((a, b) => a - b);
    return vals.length ? vals[vals.length >> 1] : NaN;
  };
  return labelTurns(utterances, labelOf, [loudness(0), loudness(1)]);
}
