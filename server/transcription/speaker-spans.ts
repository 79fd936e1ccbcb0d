/**
 * Speaker embeddings while a recording streams through (server/transcription/pipeline.ts): the speech is
 * cut into short spans of one stretch of talk, 1-3 s of voiced audio each, with their times in the
 * recording, and each span goes to the speaker model as soon as it is complete. Only the span being
 * filled (at most 3 s) and the finished voice prints are kept, never the recording.
 */
import type { SpeakerEmbedder } from '../providers/speaker/types';

const SAMPLE_RATE = 16_000;
export const SPAN_FRAME_MS = 20;
const FRAME = (SAMPLE_RATE * SPAN_FRAME_MS) / 1000; // 320 samples

/** A span is complete with this much voiced audio, at its next quiet frame... */
export const TARGET_SPAN_MS = 2000;
/** ...or at this much, wherever it is. */
export const MAX_SPAN_MS = 3000;
/**
 * A pause this long ends a span (the other person may answer after it); what it holds is kept
 * when it reaches MIN_SPAN_MS. Shorter than the pause that ends an utterance (TURN_PAUSE_MS), so a
 * span does not run across two utterances.
 */
export const SPAN_BREAK_MS = 400;
/**
 * Less voiced audio than this says too little about the voice; such a stretch (a "yes", a
 * cough) gives no span, and its utterance takes a neighbour's voice. Replies of a second or so
 * are common in a sales call, and speaker models give usable prints from about a second.
 */
export const MIN_SPAN_MS = 1000;
/** Frames quieter than this (dBFS) are never speech. */
const SPEECH_FLOOR_DB = -60;
/** A frame is speech when it stands this far above the background level. */
const OVER_BACKGROUND_DB = 12;
/** The background estimate falls at once to a quieter frame and rises 1 dB a second. */
const BACKGROUND_RISE_DB_PER_FRAME = 1 / (1000 / SPAN_FRAME_MS);

/** A cut stretch of speech: its voiced samples joined, and where it lies in the recording. */
export interface SpeechSpan {
  startMs: number;
  endMs: number;
  voicedMs: number;
  samples: Float32Array;
}

/** A span's voice print. */
export interface SpeakerSpan {
  startMs: number;
  endMs: number;
  voicedMs: number;
  vector: Float32Array;
}

function frameDb(pcm: Int16Array, from: number): number {
  let sum = 0;
  for (let i = from; i < from + FRAME; i++) sum += pcm[i] * pcm[i];
  const rms = Math.sqrt(sum / FRAME) / 32768;
  return rms > 0 ? 20 * Math.log10(rms) : -100;
}

/**
 * Cuts 16 kHz mono PCM, block by block, into spans of speech. Quiet frames are left out: a short
 * pause is skipped and the span goes on; a long one ends it.
 */
export class SpeechSpanCutter {
  private carry = new Int16Array(0);
  /** Frames seen so far (the next frame's index in the recording). */
  private frame = 0;
  private background: number | null = null;
  private readonly buffer = new Float32Array((MAX_SPAN_MS / SPAN_FRAME_MS) * FRAME);
  private voicedFrames = 0;
  private startMs = 0;
  private endMs = 0;
  private quietMs = 0;

  push(block: Int16Array): SpeechSpan[] {
    const pcm = new Int16Array(this.carry.length + block.length);
    pcm.set(this.carry, 0);
    pcm.set(block, this.carry.length);
    const out: SpeechSpan[] = [];
    let at = 0;
    for (; at + FRAME <= pcm.length; at += FRAME, this.frame++) {
      const db = frameDb(pcm, at);
      this.background =
        this.background === null ? db : Math.min(db, this.background + BACKGROUND_RISE_DB_PER_FRAME);
      const speech = db > SPEECH_FLOOR_DB && db > this.background + OVER_BACKGROUND_DB;
      if (speech) this.voiced(pcm, at, out);
      else this.quiet(out);
    }
    this.carry = pcm.slice(at);
    return out;
  }

  /** The span in progress, if it is long enough, at the end of the recording. */
  finish(): SpeechSpan[] {
    const out: SpeechSpan[] = [];
    if (this.voicedFrames * SPAN_FRAME_MS >= MIN_SPAN_MS) out.push(this.take());
    this.voicedFrames = 0;
    return out;
  }

  private voiced(pcm: Int16Array, at: number, out: SpeechSpan[]): void {
    const ms = this.frame * SPAN_FRAME_MS;
    if (this.voicedFrames === 0) this.startMs = ms;
    const base = this.voicedFrames * FRAME;
    for (let i = 0; i < FRAME; i++) this.buffer[base + i] = pcm[at + i] / 32768;
    this.voicedFrames++;
    this.endMs = ms + SPAN_FRAME_MS;
    this.quietMs = 0;
    if (this.voicedFrames * SPAN_FRAME_MS >= MAX_SPAN_MS) out.push(this.take());
  }

  private quiet(out: SpeechSpan[]): void {
    if (this.voicedFrames === 0) return;
    this.quietMs += SPAN_FRAME_MS;
    const voicedMs = this.voicedFrames * SPAN_FRAME_MS;
    if (voicedMs >= TARGET_SPAN_MS) out.push(this.take());
    else if (this.quietMs >= SPAN_BREAK_MS) {
      if (voicedMs >= MIN_SPAN_MS) out.push(this.take());
      else this.voicedFrames = 0;
    }
  }

  private take(): SpeechSpan {
    const span = {
      startMs: this.startMs,
      endMs: this.endMs,
      voicedMs: this.voicedFrames * SPAN_FRAME_MS,
      samples: this.buffer.slice(0, this.voicedFrames * FRAME),
    };
    this.voicedFrames = 0;
    this.quietMs = 0;
    return span;
  }
}

/** Spans handed to the model and not yet answered, per recording. */
const MAX_IN_FLIGHT = 4;

/**
 * Voice prints of a recording's speech: the cutter's spans, each embedded as soon as it is
 * complete while decoding and recognition go on. At most a few spans wait for the model at once
 * (`push` waits when they do), so memory stays flat. A model that fails stops the embeddings for
 * this recording and `failure` says why; the recording is then split by its voice features.
 */
export class SpeakerEmbeddingTracker {
  private readonly cutter = new SpeechSpanCutter();
  private readonly spans: SpeakerSpan[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  failure: string | null = null;

  constructor(
    private readonly embedder: SpeakerEmbedder,
    private readonly opts: { signal?: AbortSignal; maxInFlight?: number } = {},
  ) {}

  async push(block: Int16Array): Promise<void> {
    if (this.failure) return;
    for (const span of this.cutter.push(block)) await this.embed(span);
  }

  /** The voice prints in time order (empty when the model failed: see `failure`). */
  async finish(): Promise<SpeakerSpan[]> {
    if (!this.failure) for (const span of this.cutter.finish()) await this.embed(span);
    await Promise.all(this.inFlight);
    if (this.failure) return [];
    return this.spans.sort((a, b) => a.startMs - b.startMs);
  }

  private async embed(span: SpeechSpan): Promise<void> {
    while (this.inFlight.size >= (this.opts.maxInFlight ?? MAX_IN_FLIGHT)) await Promise.race(this.inFlight);
    if (this.failure) return;
    const task: Promise<void> = this.embedder
      .embed(span.samples, { signal: this.opts.signal })
      .then(
        (vector) => {
          if (vector && vector.length && vector.every(Number.isFinite)) {
            this.spans.push({ startMs: span.startMs, endMs: span.endMs, voicedMs: span.voicedMs, vector });
          }
        },
        (err: unknown) => {
          this.failure ??= err instanceof Error ? err.message : String(err);
        },
      )
      .finally(() => this.inFlight.delete(task));
    this.inFlight.add(task);
  }
}
