import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import { z } from 'zod';
import { coachingForGate } from '../../../core/coaching-format';
import { parseServedBy, parseSpeakerEngine, type ServedBy } from '../../../core/engines';
import { UUID_PATTERN } from '../../../core/ids';
import type { AudioSessionView, CoachingView } from '../../../core/views';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../errors';
import { defineJob, enqueue, PermanentJobError, requeueJob, type JobRun } from '../../jobs/queue';
import { applySwap } from '../../audio/attribution';
import { AudioDecodeError } from '../../audio/decode';
import { SNIFF_BYTES, sniffAudio, type SniffResult } from '../../audio/sniff';
import { transcribeFile } from '../../audio/pipeline';
import { makeTempDir } from '../../temp';
import { coachTranscript, describeCoachEngine } from '../coaching/service';
import { recordingContext } from '../coaching/context';
import { findAudioSession, type AudioSessionRecord, type AudioSessionRow } from './data';
import { insertAudioSession, setAudioProgress, updateAudioSession } from './mutations';

export const TRANSCRIBE_AUDIO_JOB = 'transcribe-audio';
const dedupeKeyFor = (id: string) => `${TRANSCRIBE_AUDIO_JOB}:${id}`;

/** Until the recording is unlocked, the gated coaching sections leave only as heading and locked line. */
export function toAudioSessionView(row: AudioSessionRow & { unlocked?: boolean }): AudioSessionView {
  const unlocked = row.unlocked ?? false;
  const attribution = (row.attribution as AudioSessionView['attribution']) ?? null;
  return {
    id: row.id,
    fileName: row.fileName,
    stage: row.stage,
    uploadedAt: row.uploadedAt.toISOString(),
    transcript: applySwap(row.transcript ?? [], row.speakersSwapped),
    coaching: coachingForGate(row.coaching ?? null, unlocked),
    status: row.status as AudioSessionView['status'],
    progress: row.status === 'transcribed' ? 100 : row.progress,
    error: publicError(row.error ?? null),
    durationMs: row.durationMs ?? null,
    attribution,
    attributionIsGuess: attribution === 'turns' || attribution === 'single',
    speakersSwapped: row.speakersSwapped,
    sttEngine: parseServedBy(row.sttEngine)?.engine ?? null,
    speakerEngine: parseSpeakerEngine(row.sttEngine),
    coachingEngine: parseServedBy(row.coachingEngine)?.engine ?? null,
    metrics: row.metrics ?? null,
    unlocked,
  };
}

const audioNotFound = () => notFound('Recording');

async function load(ctx: AppContext, id: string): Promise<AudioSessionRecord> {
  const row = await findAudioSession(ctx.database.db, id);
  if (!row) throw audioNotFound();
  return row;
}

export async function getAudioSession(ctx: AppContext, id: string): Promise<AudioSessionView> {
  return toAudioSessionView(await load(ctx, id));
}

/**
 * Control characters (C0, DEL, C1) and invisible formatting characters: bidirectional overrides
 * and isolates (U+202A-202E, U+2066-2069) that make "evil\u202Eavm.exe" read as "evilexe.mva",
 * zero-width characters, and lone surrogates.
 */
const UNSAFE_NAME_CHARS =
  // eslint-disable-next-line no-control-regex -- control characters are what this removes
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/** Keeps the user's file name as plain text: no control or invisible characters, at most 255 characters. */
export function cleanFileName(name: string | undefined): string {
  const cleaned = (name ?? '')
    .normalize('NFC')
    .replace(UNSAFE_NAME_CHARS, '')
    .replace(/^.*[\\/]/, '')
    .trim();
  // Cut by code point, so the cut never leaves half of a surrogate pair.
  return Array.from(cleaned).slice(0, 255).join('').trim() || 'recording';
}

export function newStorageKey(): string {
  return `audio-${randomBytes(16).toString('hex')}`;
}

/** Stores an upload stream under a random key; returns the key and size. */
export async function storeUpload(ctx: AppContext, body: Readable): Promise<{ key: string; bytes: number }> {
  const key = newStorageKey();
  const { bytes } = await ctx.providers.get('storage').put(key, body);
  return { key, bytes };
}

/** What the stored upload's first bytes say it is (see server/audio/sniff.ts). */
export async function sniffUpload(ctx: AppContext, key: string): Promise<SniffResult> {
  const stream = await ctx.providers.get('storage').get(key);
  const parts: Buffer[] = [];
  let bytes = 0;
  try {
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      parts.push(chunk);
      bytes += chunk.length;
      if (bytes >= SNIFF_BYTES) break;
    }
  } finally {
    stream.destroy();
  }
  return sniffAudio(Buffer.concat(parts).subarray(0, SNIFF_BYTES));
}

export async function discardUpload(ctx: AppContext, key: string): Promise<void> {
  await ctx.providers
    .get('storage')
    .remove(key)
    .catch(() => undefined);
}

/** Creates the recording's row and queues its transcription (one job per upload). */
export async function createAudioSession(
  ctx: AppContext,
  input: { fileName: string; stage: string; storageKey: string; mimeType: string | null; sizeBytes: number },
): Promise<AudioSessionView> {
  const row = await insertAudioSession(ctx.database.db, {
    fileName: input.fileName,
    stage: input.stage,
    storageKey: input.storageKey,
    mimeType: input.mimeType,
    sizeBytes: input.sizeBytes,
    status: 'uploaded',
  });
  await enqueue(
    ctx.database.db,
    transcribeAudioJob,
    { audioSessionId: row.id },
    { dedupeKey: dedupeKeyFor(row.id) },
  );
  ctx.wakeWorker();
  return toAudioSessionView(row);
}

/** Queues a failed transcription again. Anything else is returned as it is. */
export async function retryAudioSession(ctx: AppContext, id: string): Promise<AudioSessionView> {
  const row = await load(ctx, id);
  if (row.status !== 'failed') return toAudioSessionView(row);
  if (!(await ctx.providers.get('storage').stat(row.storageKey))) {
    throw new HttpError(
      409,
      'recording_removed',
      'This recording could not be used and is no longer stored. Please upload the original file again.',
    );
  }
  const db = ctx.database.db;
  const updated = await updateAudioSession(db, id, { status: 'uploaded', progress: 0, error: null });
  const requeued = await requeueJob(db, dedupeKeyFor(id));
  if (!requeued)
    await enqueue(db, transcribeAudioJob, { audioSessionId: id }, { dedupeKey: dedupeKeyFor(id) });
  ctx.wakeWorker();
  return toAudioSessionView({ ...(updated ?? row), unlocked: row.unlocked });
}

/**
 * Persists which way round the speakers are. Coaching written for the other attribution no
 * longer describes the rep, so it is cleared.
 */
export async function swapSpeakers(ctx: AppContext, id: string, swapped: boolean): Promise<AudioSessionView> {
  const row = await load(ctx, id);
  if (row.speakersSwapped === swapped) return toAudioSessionView(row);
  const updated = await updateAudioSession(ctx.database.db, id, {
    speakersSwapped: swapped,
    coaching: null,
    coachingEngine: null,
    metrics: null,
  });
  return toAudioSessionView({ ...(updated ?? row), unlocked: row.unlocked });
}

/** Coaching for a transcribed recording; stored, so asking again returns the same text. */
export async function coachAudioSession(ctx: AppContext, id: string): Promise<CoachingView> {
  const row = await load(ctx, id);
  if (row.coaching) {
    const stored = parseServedBy(row.coachingEngine);
    return {
      coaching: coachingForGate(row.coaching, row.unlocked) ?? '',
      metrics: row.metrics ?? null,
      engine: stored?.engine ?? { id: 'unknown', label: 'Unknown', quality: 'basic' },
      ...(stored?.note ? { note: stored.note } : {}),
      unlocked: row.unlocked,
    };
  }
  const transcript = applySwap(row.transcript ?? [], row.speakersSwapped);
  if (row.status !== 'transcribed' || !transcript.some((e) => e.transcript.trim())) {
    throw new HttpError(
      400,
      'no_transcript',
      'This recording has no transcript yet. Wait for the transcription to finish, then ask for coaching.',
    );
  }
  const result = await coachTranscript(ctx.providers.get('coach'), {
    stage: row.stage,
    transcript,
    durationSec: row.durationMs ? row.durationMs / 1000 : undefined,
    context: recordingContext(row.sttEngine),
  });
  const engine = describeCoachEngine(ctx, result.engine);
  await updateAudioSession(ctx.database.db, id, {
    coaching: result.coaching,
    coachingEngine: JSON.stringify({ ...engine, ...(result.note ? { note: result.note } : {}) }),
    metrics: result.metrics ?? null,
  });
  return {
    coaching: coachingForGate(result.coaching, row.unlocked) ?? '',
    metrics: result.metrics ?? null,
    engine,
    ...(result.note ? { note: result.note } : {}),
    unlocked: row.unlocked,
  };
}

/** The stored recording as a local file path (copied to a temp file for remote stores). */
async function localCopy(
  ctx: AppContext,
  key: string,
): Promise<{ file: string; cleanup: () => Promise<void> }> {
  const storage = ctx.providers.get('storage');
  if (storage.localPath) {
    const file = storage.localPath(key);
    if (!fs.existsSync(file)) throw new PermanentJobError(MISSING_FILE_MESSAGE);
    return { file, cleanup: async () => undefined };
  }
  const dir = await makeTempDir('doorstep-audio-');
  const file = path.join(dir, 'input');
  await pipeline(await storage.get(key), fs.createWriteStream(file));
  return { file, cleanup: () => fsp.rm(dir, { recursive: true, force: true }) };
}

export const NO_SPEECH_MESSAGE =
  'No speech was found in this recording. Please upload a recording of the call.';

/**
 * A failure that says the stored file can never be transcribed: it is not readable audio.
 * (A recording without speech is real audio the user may want to play back; retention removes it.)
 */
export function fileIsUseless(err: Error): boolean {
  return err instanceof AudioDecodeError;
}

export const MISSING_FILE_MESSAGE = 'The uploaded file is missing from storage. Please upload it again.';

/**
 * What the rep sees when transcription fails for a reason on the server's side (an engine that is
 * not installed, a speech service that is down). The cause, which may name commands, settings or
 * paths, is for the operator: it is in the error log, the job's `lastError` and `/api/status`.
 */
export const TRANSCRIPTION_UNAVAILABLE_MESSAGE =
  'This recording could not be transcribed right now because of a problem on the server. Please try again later.';

/** What the user sees when transcription gives up: a message about their file, or a plain one. */
export function failureMessage(err: Error): string {
  if (err instanceof AudioDecodeError) return err.message;
  if (err.message === NO_SPEECH_MESSAGE || err.message === MISSING_FILE_MESSAGE) return err.message;
  return TRANSCRIPTION_UNAVAILABLE_MESSAGE;
}

/** A stored failure as the rep sees it (rows written before causes were kept from reps held one). */
function publicError(stored: string | null): string | null {
  return stored?.startsWith('Transcription failed:') ? TRANSCRIPTION_UNAVAILABLE_MESSAGE : stored;
}

/** Durable transcription: decode -> speech-to-text in windows -> who said what -> saved. */
export const transcribeAudioJob = defineJob({
  name: TRANSCRIBE_AUDIO_JOB,
  schema: z.object({ audioSessionId: z.string().regex(UUID_PATTERN, 'not a recording id') }),
  leaseMs: 30_000,
  maxAttempts: 3,
  async handle(payload, job: JobRun<AppContext>) {
    const ctx = job.deps;
    const db = ctx.database.db;
    const row = await findAudioSession(db, payload.audioSessionId);
    if (!row || row.status === 'transcribed') return;
    let stt;
    try {
      stt = ctx.providers.get('stt');
    } catch (err) {
      throw new PermanentJobError(err instanceof Error ? err.message : String(err));
    }
    const engineInfo = ctx.providers.info('stt');
    // How one-channel recordings are split into two voices (a speaker model, or voice features).
    const speakers = ctx.providers.has('speakers') ? ctx.providers.get('speakers').embedder : null;
    await updateAudioSession(db, row.id, { status: 'transcribing', error: null });
    const beat = setInterval(() => void job.heartbeat().catch(() => undefined), 5000);
    let lastPercent = 0;
    let lastWrite = Promise.resolve();
    const { file, cleanup } = await localCopy(ctx, row.storageKey);
    try {
      const result = await transcribeFile(file, stt, {
        signal: job.signal,
        maxDurationMs: ctx.config.MAX_AUDIO_MINUTES * 60_000,
        speakers,
        onProgress: (fraction) => {
          const percent = Math.floor(fraction * 100);
          if (percent <= lastPercent) return;
          lastPercent = percent;
          lastWrite = lastWrite.then(() => setAudioProgress(db, row.id, percent).catch(() => undefined));
        },
      });
      await lastWrite;
      if (!result.transcript.length) throw new PermanentJobError(NO_SPEECH_MESSAGE);
      if (result.speakers?.fallback) {
        // For operators: a speaker model is installed, yet this recording was split without it.
        ctx.log.info(
          { recording: row.id, speakers: result.speakers.id, reason: result.speakers.fallback },
          'speaker embeddings were not used for this recording; its voices were told apart by voice features',
        );
      }
      await updateAudioSession(db, row.id, {
        status: 'transcribed',
        progress: 100,
        error: null,
        transcript: result.transcript,
        durationMs: result.durationMs,
        channels: result.channels,
        attribution: result.attribution,
        // The speaker split is kept beside the speech engine; its fallback reason is for operators.
        sttEngine: JSON.stringify({
          id: stt.id,
          label: stt.label,
          quality: engineInfo?.quality ?? 'basic',
          ...(result.speakers ? { speakers: result.speakers } : {}),
        } satisfies ServedBy & { speakers?: unknown }),
        realTimeFactor: result.realTimeFactor,
      });
    } finally {
      clearInterval(beat);
      await lastWrite;
      await cleanup();
    }
  },
  async onFinalFailure(payload, error, ctx: AppContext) {
    const row = await updateAudioSession(ctx.database.db, payload.audioSessionId, {
      status: 'failed',
      error: failureMessage(error),
    });
    // A file that is not usable audio cannot succeed on a retry: it is not kept. Other failures
    // (an engine missing, say) keep it so a retry can work; retention removes it in the end.
    if (row && fileIsUseless(error)) await discardUpload(ctx, row.storageKey);
  },
});
