import type { TranscriptEntry } from '../../core/transcript';
import { STT_SAMPLE_RATE, type SpeechToText, type SttSegment } from '../providers/stt/types';
import { VOICE_FEATURES, type SpeakerEmbedder } from '../providers/speaker/types';
import {
  attributeMono,
  attributeStereo,
  ChannelStatsAccumulator,
  stereoPlan,
  toEntries,
  type Attribution,
  type MonoAttribution,
} from './attribution';
import { attributeMonoByEmbeddings } from './speaker-embeddings';
import { SpeakerEmbeddingTracker, type SpeakerSpan } from './speaker-spans';
import { splitAtQuietPoints } from '../audio/chunking';
import { concatPcm } from '../audio/wav';
import { AudioTooLongError, decodePcm, probeAudio, tooLongMessage, type AudioProbe } from '../audio/decode';
import { SpanMap, speechSpans } from '../audio/speech-gate';
import { VoiceFeatureTracker } from '../audio/voice-features';
import type { StepListener } from './progress';

export interface TranscribeFileOptions {
  signal?: AbortSignal;
  /** Fraction of the audio done, 0..1 (the recogniser's share of the work). */
  onProgress?: (fraction: number) => void;
  /** Each named step as it goes (server/transcription/progress.ts weighs them into one percentage). */
  onStep?: StepListener;
  /** What the container says about the recording, read before anything is decoded. */
  onProbe?: (probe: AudioProbe) => void;
  /**
   * Audio handed to the engine at once; bounds memory (16 kHz: about 11.5 MB per channel for
   * the default 6 minutes). A window's last chunk leaves a core idle while it finishes, so a
   * typical role-play recording (up to 5 minutes) fits one window: the 5-minute call took 34.3 s
   * in 2-minute windows and 31.0 s in one (docs/benchmarks.md).
   */
  windowMs?: number;
  /** Longest recording accepted; longer ones fail with AudioTooLongError before recognition. */
  maxDurationMs?: number;
  /**
   * Tells the voices of a one-channel recording apart by speaker embeddings; without one (or when
   * it fails) the voice features alone do.
   */
  speakers?: SpeakerEmbedder | null;
}

/** How the voices of a one-channel recording were told apart (null for two-channel recordings). */
export interface SpeakerSplit {
  /** The embedding model's engine id, or 'voice-features'. */
  id: string;
  label: string;
  quality: 'basic' | 'enhanced';
  /** Why a speaker model that was there was not used for this recording (for operators). */
  fallback?: string;
}

export interface TranscribeFileResult {
  transcript: TranscriptEntry[];
  /** Audio the voice detection passed to the engine, ms (the rest was background). */
  speechMs: number;
  attribution: Attribution;
  speakers: SpeakerSplit | null;
  durationMs: number;
  channels: number;
  probe: AudioProbe;
  /** Engine time / audio time. */
  realTimeFactor: number;
}

export const DEFAULT_WINDOW_MS = 360_000;

const msOf = (samples: number) => Math.round((samples * 1000) / STT_SAMPLE_RATE);

/**
 * Streams decoded audio through the engine a window at a time (memory stays flat), cutting
 * windows in quiet spots, and returns segment lists per source channel with voice features.
 */
async function transcribeChannels(
  file: string,
  stt: SpeechToText,
  mode: 'mix' | 'split',
  pick: (channels: Int16Array[]) => Int16Array[],
  expectedSamples: number,
  opts: TranscribeFileOptions,
  sourceRate: number,
  /** Share of the decoding done before this pass (a two-channel file is decoded twice). */
  decodedBefore: number,
) {
  const windowSamples = Math.round(((opts.windowMs ?? DEFAULT_WINDOW_MS) * STT_SAMPLE_RATE) / 1000);
  let pending: Int16Array[] | null = null;
  let offset = 0;
  let engineMs = 0;
  const segments: SttSegment[][] = [];
  const trackers: VoiceFeatureTracker[] = [];
  // Voice prints only for one channel: two channels carry a speaker each.
  let prints: SpeakerEmbeddingTracker | null = null;

  let speechSamples = 0;
  const step = opts.onStep ?? (() => undefined);
  const runWindow = async (channels: Int16Array[]) => {
    const len = channels[0].length;
    const share = 1 / channels.length;
    // Only what may be speech (over all channels) reaches the engine; times are mapped back.
    const map = new SpanMap(
      speechSpans(channels.length === 1 ? channels[0] : loudest(channels), STT_SAMPLE_RATE),
      STT_SAMPLE_RATE,
    );
    step('finding-speech', Math.min(1, (offset + len) / expectedSamples));
    speechSamples += map.length;
    const base = msOf(offset);
    const at = (ms: number) => map.toOriginalMs(ms) + base;
    for (let c = 0; c < channels.length && map.length; c++) {
      const t0 = performance.now();
      const callShare = (len * share) / expectedSamples;
      const doneBefore = (offset + len * share * c) / expectedSamples;
      step('transcribing', doneBefore, callShare);
      const segs = await stt.transcribe(map.join(channels[c]), {
        signal: opts.signal,
        sourceSampleRate: sourceRate,
        onProgress: (f) => {
          opts.onProgress?.(Math.min(1, (offset + len * share * (c + f)) / expectedSamples));
          step('transcribing', Math.min(1, doneBefore + callShare * f), callShare * (1 - f));
        },
      });
      engineMs += performance.now() - t0;
      (segments[c] ??= []).push(
        ...segs.map((s) => ({
          ...s,
          startMs: at(s.startMs),
          endMs: at(s.endMs),
          words: s.words?.map((w) => ({ ...w, startMs: at(w.startMs), endMs: at(w.endMs) })),
        })),
      );
    }
    offset += len;
    opts.onProgress?.(Math.min(1, offset / expectedSamples));
    step('transcribing', Math.min(1, offset / expectedSamples));
  };

  const maxSeconds = opts.maxDurationMs ? opts.maxDurationMs / 1000 : undefined;
  let decoded = 0;
  for await (const block of decodePcm(file, { channels: mode, signal: opts.signal, maxSeconds })) {
    const chans = pick(block.channels);
    decoded += chans[0].length;
    step('decoding', decodedBefore + (1 - decodedBefore) * Math.min(1, decoded / expectedSamples));
    chans.forEach((c, i) => (trackers[i] ??= new VoiceFeatureTracker()).push(c));
    if (opts.speakers && chans.length === 1) {
      prints ??= new SpeakerEmbeddingTracker(opts.speakers, { signal: opts.signal });
      await prints.push(chans[0]);
    }
    pending = pending ? pending.map((p, i) => concatPcm([p, chans[i]])) : chans;
    if (pending[0].length >= windowSamples + STT_SAMPLE_RATE * 10) {
      // Cut at the quietest moment (over all channels) near the window's end.
      const mixed = pending.length === 1 ? pending[0] : loudest(pending);
      const [first] = splitAtQuietPoints(mixed, {
        sampleRate: STT_SAMPLE_RATE,
        maxMs: (windowSamples * 1000) / STT_SAMPLE_RATE,
        searchMs: 8000,
      });
      await runWindow(pending.map((p) => p.subarray(0, first.end)));
      pending = pending.map((p) => p.slice(first.end));
    }
  }
  if (pending && pending[0].length) await runWindow(pending);
  return {
    segments: trackers.map((_, i) => segments[i] ?? []),
    tracks: trackers.map((t) => t.track),
    prints: prints ? { spans: await prints.finish(), failure: prints.failure } : null,
    samples: offset,
    speechSamples,
    engineMs,
  };
}

function loudest(chans: Int16Array[]): Int16Array {
  const out = new Int16Array(chans[0].length);
  for (let i = 0; i < out.length; i++) {
    let m = 0;
    for (const c of chans) if (Math.abs(c[i]) > Math.abs(m)) m = c[i];
    out[i] = m;
  }
  return out;
}

/** Decode -> speech-to-text in windows -> who said what. */
export async function transcribeFile(
  file: string,
  stt: SpeechToText,
  opts: TranscribeFileOptions = {},
): Promise<TranscribeFileResult> {
  const probe = await probeAudio(file);
  opts.onProbe?.(probe);
  const maxMs = opts.maxDurationMs;
  if (maxMs && probe.durationMs !== null && probe.durationMs > maxMs) {
    throw new AudioTooLongError(tooLongMessage(Math.round(maxMs / 60_000), probe.durationMs));
  }
  const maxSeconds = maxMs ? maxMs / 1000 : undefined;
  let plan: 'stereo' | 'left' | 'right' | 'mix' = 'mix';
  let counted = 0;
  const probed = Math.max(1, Math.round(((probe.durationMs ?? 60_000) * STT_SAMPLE_RATE) / 1000));
  if (probe.channels >= 2) {
    // A quick first pass decides whether the two channels are two people.
    const acc = new ChannelStatsAccumulator();
    for await (const block of decodePcm(file, { channels: 'split', signal: opts.signal, maxSeconds })) {
      acc.push(block.channels[0], block.channels[1]);
      counted += block.channels[0].length;
      opts.onStep?.('decoding', 0.5 * Math.min(1, counted / probed));
    }
    plan = stereoPlan(acc.result());
  }
  const expected =
    counted || Math.max(1, Math.round(((probe.durationMs ?? 60_000) * STT_SAMPLE_RATE) / 1000));
  const mode = plan === 'mix' ? 'mix' : 'split';
  const pick =
    plan === 'left'
      ? (c: Int16Array[]) => [c[0]]
      : plan === 'right'
        ? (c: Int16Array[]) => [c[1]]
        : (c: Int16Array[]) => c;
  const run = await transcribeChannels(
    file,
    stt,
    mode,
    pick,
    plan === 'stereo' ? expected : expected,
    opts,
    probe.sampleRate,
    probe.channels >= 2 ? 0.5 : 0,
  );
  const durationMs = msOf(run.samples);
  opts.onStep?.('speakers', 0);

  let transcript: TranscriptEntry[];
  let attribution: Attribution;
  let speakers: SpeakerSplit | null = null;
  if (plan === 'stereo') {
    attribution = 'stereo';
    transcript = toEntries(attributeStereo(run.segments[0], run.segments[1], [run.tracks[0], run.tracks[1]]));
  } else {
    const split = splitMono(run.segments[0] ?? [], run.tracks[0] ?? EMPTY_TRACK, opts.speakers, run.prints);
    attribution = split.mono.attribution;
    speakers = split.speakers;
    transcript = toEntries(split.mono.utterances);
  }
  opts.onStep?.('speakers', 1);
  return {
    transcript,
    speechMs: msOf(run.speechSamples),
    attribution,
    speakers,
    durationMs,
    channels: probe.channels,
    probe,
    realTimeFactor: durationMs ? run.engineMs / durationMs : 0,
  };
}

const EMPTY_TRACK = { energyDb: [], bands: [], pitchHz: [], zcr: [] };

/**
 * One channel, two voices: by the voice prints when a speaker model gave them and enough
 * utterances carry one, else by the voice features; says which did it, and why not the model.
 */
export function splitMono(
  segments: SttSegment[],
  track: VoiceFeatureTracker['track'],
  embedder: SpeakerEmbedder | null | undefined,
  prints: { spans: SpeakerSpan[]; failure: string | null } | null,
): { mono: MonoAttribution; speakers: SpeakerSplit } {
  let fallback: string | undefined;
  if (embedder) {
    if (prints?.failure) fallback = `the speaker model failed on this recording: ${prints.failure}`;
    else {
      const mono = attributeMonoByEmbeddings(segments, track, prints?.spans ?? []);
      if (mono) {
        return { mono, speakers: { id: embedder.id, label: embedder.label, quality: 'enhanced' } };
      }
      fallback = `too few utterances long enough for a voice print (${prints?.spans.length ?? 0} spans)`;
    }
  }
  return {
    mono: attributeMono(segments, track),
    speakers: { ...VOICE_FEATURES, quality: 'basic', ...(fallback ? { fallback } : {}) },
  };
}
