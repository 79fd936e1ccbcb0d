import type { TranscriptEntry } from '../../core/transcript';
import type { SttSegment, SttWord } from '../providers/stt/types';
import { meanEnergyDb, spanFeatures, type FrameTrack, type SpanFeatures } from '../audio/voice-features';

export type Attribution = 'stereo' | 'turns' | 'single';
export type Role = TranscriptEntry['role'];

/** A stretch of speech with no long pause inside. */
export interface Utterance {
  startMs: number;
  endMs: number;
  text: string;
}

/** A pause this long ends an utterance; speakers usually change at pauses. */
export const TURN_PAUSE_MS = 600;
/** Features are measured per utterance; very long ones are cut so a change inside is still seen. */
const MAX_UTTERANCE_MS = 15_000;
/** Consecutive entries of one speaker closer than this are one turn. */
const MERGE_GAP_MS = 2000;

function wordsOf(segments: SttSegment[]): SttWord[] {
  const words: SttWord[] = [];
  for (const s of segments) {
    if (s.words?.length) words.push(...s.words);
    else words.push({ word: s.text, startMs: s.startMs, endMs: s.endMs });
  }
  return words.sort((a, b) => a.startMs - b.startMs);
}

/** Groups recognised words into utterances at pauses. */
export function utterancesFrom(segments: SttSegment[], pauseMs = TURN_PAUSE_MS): Utterance[] {
  const out: Utterance[] = [];
  let cur: { startMs: number; endMs: number; words: string[] } | null = null;
  for (const w of wordsOf(segments)) {
    if (!w.word.trim()) continue;
    if (cur && (w.startMs - cur.endMs >= pauseMs || w.endMs - cur.startMs > MAX_UTTERANCE_MS)) {
      out.push({ startMs: cur.startMs, endMs: cur.endMs, text: cur.words.join(' ') });
      cur = null;
    }
    if (!cur) cur = { startMs: w.startMs, endMs: w.endMs, words: [] };
    cur.words.push(w.word.trim());
    cur.endMs = Math.max(cur.endMs, w.endMs);
  }
  if (cur) out.push({ startMs: cur.startMs, endMs: cur.endMs, text: cur.words.join(' ') });
  return out;
}

export interface LabelledUtterance extends Utterance {
  role: Role;
}

/** Joins neighbouring utterances of one speaker into transcript entries (timestamp = offset in ms). */
export function toEntries(items: LabelledUtterance[]): TranscriptEntry[] {
  const sorted = [...items].sort((a, b) => a.startMs - b.startMs);
  const entries: (TranscriptEntry & { endMs: number })[] = [];
  for (const u of sorted) {
    const last = entries[entries.length - 1];
    if (last && last.role === u.role && u.startMs - last.endMs < MERGE_GAP_MS) {
      last.transcript += ` ${u.text}`;
      last.endMs = Math.max(last.endMs, u.endMs);
    } else {
      entries.push({
        role: u.role,
        transcript: u.text,
        timestamp: Math.max(0, Math.round(u.startMs)),
        transcriptType: 'final',
        endMs: u.endMs,
      });
    }
  }
  return entries.map(({ endMs: _endMs, ...e }) => e);
}

interface Point {
  x: number[];
  weight: number;
}

/** Two-cluster k-means (weighted), seeded with the two points farthest apart. */
export function twoMeans(points: Point[], iterations = 20): { labels: number[]; centers: number[][] } {
  const dist = (a: number[], b: number[]) => a.reduce((s, v, i) => s + (v - b[i]) ** 2, 0);
  let seedA = 0;
  let seedB = 0;
  let far = -1;
  for (let i = 0; i < points.length; i++)
    for (let j = i + 1; j < points.length; j++) {
      const d = dist(points[i].x, points[j].x);
      if (d > far) {
        far = d;
        seedA = i;
        seedB = j;
      }
    }
  let centers = [points[seedA].x.slice(), points[seedB].x.slice()];
  let labels = points.map(() => 0);
  for (let it = 0; it < iterations; it++) {
    labels = points.map((p) => (dist(p.x, centers[0]) <= dist(p.x, centers[1]) ? 0 : 1));
    const next = [0, 1].map((k) => {
      const members = points.filter((_, i) => labels[i] === k);
      const w = members.reduce((s, p) => s + p.weight, 0);
      if (!w) return centers[k];
      return centers[k].map((_, d) => members.reduce((s, p) => s + p.x[d] * p.weight, 0) / w);
    });
    if (next.every((c, k) => dist(c, centers[k]) < 1e-9)) break;
    centers = next;
  }
  return { labels, centers };
}

/**
 * Distance between the two voice groups along the line joining them, in units of the spread
 * within the groups along that line, that counts as two people. Splitting one voice in two
 * gives about 2.5-3 (half a bell curve each side); two voices sit much further apart.
 */
export const MIN_SEPARATION = 4;
/** The same for pitch alone (semitones), with the groups' medians at least this far apart. */
export const MIN_PITCH_SEPARATION = 4;
export const MIN_PITCH_GAP_SEMITONES = 4;
/** Within-group pitch spread assumed at least this (semitones), so two tight groups of 2 are not overrated. */
const PITCH_SPREAD_FLOOR = 1;
export const MIN_UTTERANCES_PER_VOICE = 2;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1];

/** Gap between two 1-D groups in units of their pooled spread (0 unless the medians are far enough apart). */
export function pitchSeparation(semitoneValues: number[], labels: number[]): number {
  const groups = [0, 1].map((k) => semitoneValues.filter((_, i) => labels[i] === k));
  if (groups.some((g) => g.length === 0)) return 0;
  if (Math.abs(median(groups[0]) - median(groups[1])) < MIN_PITCH_GAP_SEMITONES) return 0;
  return oneDimSeparation(groups, PITCH_SPREAD_FLOOR);
}

function oneDimSeparation(groups: number[][], floor: number): number {
  const means = groups.map((g) => g.reduce((a, b) => a + b, 0) / g.length);
  const n = groups[0].length + groups[1].length;
  const pooledVar =
    groups.reduce((s, g, k) => s + g.reduce((a, v) => a + (v - means[k]) ** 2, 0), 0) / Math.max(1, n - 2);
  return Math.abs(means[0] - means[1]) / Math.max(Math.sqrt(pooledVar), floor);
}

/** Separation of two clusters along the line joining their centres (Fisher's criterion in 1-D). */
export function projectedSeparation(xs: number[][], labels: number[], centers: number[][]): number {
  const dir = centers[1].map((v, d) => v - centers[0][d]);
  const len = Math.sqrt(dir.reduce((s, v) => s + v * v, 0));
  if (len === 0) return 0;
  const proj = xs.map((x) => x.reduce((s, v, d) => s + v * dir[d], 0) / len);
  const groups = [0, 1].map((k) => proj.filter((_, i) => labels[i] === k));
  if (groups.some((g) => g.length === 0)) return 0;
  return oneDimSeparation(groups, 0.05);
}

const semitones = (hz: number) => 12 * Math.log2(Math.max(hz, 1) / 100);

export interface MonoAttribution {
  attribution: Attribution;
  utterances: LabelledUtterance[];
}

/**
 * Who said what on one channel: utterances at pauses, then two voices told apart by pitch,
 * loudness and brightness. When the two groups are not clearly different voices, the whole
 * recording is one speaker (the rep). The rep is the louder voice (the phone is in their
 * pocket); if loudness does not decide, the one who talks more. Always a guess.
 */
export function attributeMono(segments: SttSegment[], track: FrameTrack): MonoAttribution {
  const utterances = utterancesFrom(segments);
  const feats: SpanFeatures[] = utterances.map((u) => spanFeatures(track, u.startMs, u.endMs));
  const usable = utterances.map((_, i) => feats[i].voicedFrames >= 5);
  const idx = utterances.map((_, i) => i).filter((i) => usable[i]);
  const single = () => oneVoice(utterances);
  if (idx.length < 2) return single();

  // Standardise each feature so the cues are weighted on purpose, not by their units.
  const raw = idx.map((i) => [
    semitones(feats[i].pitchHz),
    feats[i].energyDb,
    feats[i].zcr * 100,
    ...feats[i].shape,
  ]);
  const dims = raw[0].length;
  const weights = Array.from({ length: dims }, (_, d) =>
    d === 0 ? 1 : d === 1 ? 0.5 : d === 2 ? 0.2 : 0.45,
  );
  const floors = Array.from({ length: dims }, (_, d) => (d === 0 ? 1.5 : d === 1 ? 2 : d === 2 ? 1 : 1.5));
  const spread = floors.map((floor, d) => {
    const vals = raw.map((r) => r[d]);
    const m = vals.reduce((a, b) => a + b, 0) / vals.length;
    const sd = Math.sqrt(vals.reduce((a, b) => a + (b - m) ** 2, 0) / vals.length);
    return { m, sd: Math.max(sd, floor) };
  });
  const points = raw.map((r, k) => ({
    x: r.map((v, d) => ((v - spread[d].m) / spread[d].sd) * weights[d]),
    weight: Math.max(1, utterances[idx[k]].endMs - utterances[idx[k]].startMs),
  }));
  // Two candidate splits: by the whole voice (pitch, loudness, brightness, spectral shape) and by
  // pitch alone. Pitch is the surest cue between a higher and a lower voice, but with a dozen
  // other cues beside it the spread of those (room, words, distance to the phone) can hide it.
  const whole = twoMeans(points);
  const pitchOnly = twoMeans(points.map((p, k) => ({ x: [raw[k][0]], weight: p.weight })));
  const counts = (labels: number[]) => [0, 1].map((k) => labels.filter((l) => l === k).length);
  const heardTwice = (labels: number[]) => Math.min(...counts(labels)) >= MIN_UTTERANCES_PER_VOICE;
  let labels: number[] | null = null;
  if (
    heardTwice(pitchOnly.labels) &&
    pitchSeparation(
      raw.map((r) => r[0]),
      pitchOnly.labels,
    ) >= MIN_PITCH_SEPARATION
  )
    labels = pitchOnly.labels;
  else if (
    heardTwice(whole.labels) &&
    projectedSeparation(
      points.map((p) => p.x),
      whole.labels,
      whole.centers,
    ) >= MIN_SEPARATION
  )
    labels = whole.labels;
  if (!labels) return single();
  const groupStat = (k: number, d: number) => {
    const vals = raw.filter((_, i) => labels[i] === k).map((r) => r[d]);
    return vals.length ? [...vals].sort((a, b) => a - b)[vals.length >> 1] : NaN;
  };

  // Utterances without enough voiced frames take the label of the nearest labelled neighbour in time.
  const labelOf = new Array<number>(utterances.length).fill(-1);
  idx.forEach((i, k) => (labelOf[i] = labels[k]));
  fillFromNeighbours(utterances, labelOf);
  return labelTurns(utterances, labelOf, [groupStat(0, 1), groupStat(1, 1)]);
}

/** The whole recording as one speaker, the rep. */
export function oneVoice(utterances: Utterance[]): MonoAttribution {
  return { attribution: 'single', utterances: utterances.map((u) => ({ ...u, role: 'user' as const })) };
}

/**
 * Gives each unlabelled utterance (-1) the label of the labelled utterance that starts nearest
 * to it in time (the earlier one on a tie). In place; returns the labels.
 */
export function fillFromNeighbours(utterances: Utterance[], labelOf: number[]): number[] {
  const labelled = labelOf.flatMap((l, i) => (l === -1 ? [] : [i]));
  if (!labelled.length) return labelOf;
  for (let i = 0; i < utterances.length; i++) {
    if (labelOf[i] !== -1) continue;
    let best = -1;
    let bestGap = Infinity;
    for (const j of labelled) {
      const gap = Math.abs(utterances[j].startMs - utterances[i].startMs);
      if (gap < bestGap) {
        bestGap = gap;
        best = j;
      }
    }
    labelOf[i] = labelOf[best];
  }
  return labelOf;
}

/** Voices this much apart in loudness (dB) are told apart by it: the phone is on the rep. */
export const REP_LOUDER_DB = 3;

/**
 * Two voices (labels 0 and 1 for every utterance) as roles: the rep is the louder voice, by
 * each voice's typical loudness (NaN when unknown), else the one who talks more.
 */
export function labelTurns(utterances: Utterance[], labelOf: number[], loudDb: number[]): MonoAttribution {
  const talkMs = [0, 0];
  utterances.forEach((u, i) => (talkMs[labelOf[i]] += u.endMs - u.startMs));
  const repCluster =
    Math.abs(loudDb[0] - loudDb[1]) >= REP_LOUDER_DB
      ? loudDb[0] > loudDb[1]
        ? 0
        : 1
      : talkMs[0] >= talkMs[1]
        ? 0
        : 1;
  return {
    attribution: 'turns',
    utterances: utterances.map((u, i) => ({ ...u, role: labelOf[i] === repCluster ? 'user' : 'assistant' })),
  };
}

/** A channel this much quieter than the other during a word only picked up the other side. */
export const BLEED_DB = 12;

/**
 * Stereo: left is the rep, right the other party. Words a channel only heard faintly through
 * the other side's microphone are dropped.
 */
export function attributeStereo(
  left: SttSegment[],
  right: SttSegment[],
  tracks: [FrameTrack, FrameTrack],
): LabelledUtterance[] {
  const keep = (segments: SttSegment[], own: FrameTrack, other: FrameTrack): SttSegment[] =>
    segments
      .map((s) => {
        const words = (
          s.words?.length ? s.words : [{ word: s.text, startMs: s.startMs, endMs: s.endMs }]
        ).filter(
          (w) => meanEnergyDb(own, w.startMs, w.endMs) > meanEnergyDb(other, w.startMs, w.endMs) - BLEED_DB,
        );
        return { ...s, words, text: words.map((w) => w.word).join(' ') };
      })
      .filter((s) => s.words.length > 0);
  const l = utterancesFrom(keep(left, tracks[0], tracks[1])).map((u) => ({ ...u, role: 'user' as const }));
  const r = utterancesFrom(keep(right, tracks[1], tracks[0])).map((u) => ({
    ...u,
    role: 'assistant' as const,
  }));
  return [...l, ...r];
}

/** Channel loudness summary for choosing between stereo and mono attribution. */
export interface ChannelStats {
  rmsDb: [number, number];
  /** Correlation of the two channels (1 = the same signal twice). */
  correlation: number;
}

export class ChannelStatsAccumulator {
  private sumL = 0;
  private sumR = 0;
  private sumLR = 0;
  private n = 0;
  push(left: Int16Array, right: Int16Array): void {
    for (let i = 0; i < left.length; i++) {
      const a = left[i];
      const b = right[i];
      this.sumL += a * a;
      this.sumR += b * b;
      this.sumLR += a * b;
    }
    this.n += left.length;
  }
  result(): ChannelStats {
    const db = (s: number) => {
      const rms = Math.sqrt(s / Math.max(1, this.n)) / 32768;
      return rms > 0 ? 20 * Math.log10(rms) : -100;
    };
    const denom = Math.sqrt(this.sumL * this.sumR);
    return { rmsDb: [db(this.sumL), db(this.sumR)], correlation: denom > 0 ? this.sumLR / denom : 1 };
  }
}

/** Below this a channel is treated as silent. */
export const SILENT_CHANNEL_DB = -55;

/**
 * How to treat a two-channel file: 'stereo' when both channels carry different speech;
 * otherwise which single channel to analyse as mono ('mix' when they are the same signal).
 */
export function stereoPlan(stats: ChannelStats): 'stereo' | 'left' | 'right' | 'mix' {
  const [l, r] = stats.rmsDb;
  const lSilent = l < SILENT_CHANNEL_DB || l < r - 30;
  const rSilent = r < SILENT_CHANNEL_DB || r < l - 30;
  if (lSilent && !rSilent) return 'right';
  if (rSilent && !lSilent) return 'left';
  if (lSilent && rSilent) return 'mix';
  if (stats.correlation > 0.9) return 'mix';
  return 'stereo';
}

/** Roles as shown after the user's swap. */
export function applySwap(entries: TranscriptEntry[], swapped: boolean): TranscriptEntry[] {
  if (!swapped) return entries;
  return entries.map((e) => ({ ...e, role: e.role === 'user' ? 'assistant' : 'user' }));
}
