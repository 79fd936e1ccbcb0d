import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import type { ServedBy } from '../../../core/engines';
import { UUID_PATTERN } from '../../../core/ids';
import type { TranscriptEntry } from '../../../core/transcript';
import type { AppContext } from '../../context';
import {
  DeferJobError,
  defineJob,
  ownerCostsSince,
  PermanentJobError,
  setJobCost,
  type JobRun,
} from '../../jobs/queue';
import type { Attribution } from '../../transcription/attribution';
import { AudioDecodeError, probeAudio } from '../../audio/decode';
import { transcribeFile } from '../../transcription/pipeline';
import { ProcessingProgress } from '../../transcription/progress';
import { makeTempDir } from '../../temp';
import { findAudioSession, recentRealTimeFactors, type AudioSessionRecord } from './data';
import { discardUpload } from './files';
import { setAudioProgress, updateAudioSession } from './mutations';
import { saveAudioVersion } from './versions';

export const TRANSCRIBE_AUDIO_JOB = 'transcribe-audio';
export const transcribeDedupeKey = (id: string) => `${TRANSCRIBE_AUDIO_JOB}:${id}`;

export const NO_SPEECH_MESSAGE =
  'No speech was found in this recording. Please upload a recording of the call.';

export const MISSING_FILE_MESSAGE = 'The uploaded file is missing from storage. Please upload it again.';

/**
 * What the rep sees when transcription fails for a reason on the server's side (an engine that is
 * not installed, a speech service that is down). The cause, which may name commands, settings or
 * paths, is for the operator: it is in the error log, the job's `lastError` and `/api/status`.
 */
export const TRANSCRIPTION_UNAVAILABLE_MESSAGE =
  'This recording could not be transcribed right now because of a problem on the server. Please try again later.';

/**
 * A failure that says the stored file can never be transcribed: it is not readable audio.
 * (A recording without speech is real audio the user may want to play back; retention removes it.)
 */
export function fileIsUseless(err: Error): boolean {
  return err instanceof AudioDecodeError;
}

/** What the user sees when transcription gives up: a message about their file, or a plain one. */
export function failureMessage(err: Error): string {
  if (err instanceof AudioDecodeError) return err.message;
  if (err.message === NO_SPEECH_MESSAGE || err.message === MISSING_FILE_MESSAGE) return err.message;
  return TRANSCRIPTION_UNAVAILABLE_MESSAGE;
}

/** A stored failure as the rep sees it (rows written before causes were kept from reps held one). */
export function publicError(stored: string | null): string | null {
  return stored?.startsWith('Transcription failed:') ? TRANSCRIPTION_UNAVAILABLE_MESSAGE : stored;
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

/** What the transcription step heard: kept with the job, so a failed save does not transcribe again. */
interface Heard {
  transcript: TranscriptEntry[];
  durationMs: number;
  channels: number;
  attribution: Attribution;
  /** The engines, as stored beside the transcript (JSON). */
  sttEngine: string;
  realTimeFactor: number;
}

/**
 * The recogniser's real-time factor on the last recordings it transcribed here (the median), for
 * the first estimate of how long this one takes; 0.5 when it has none yet.
 */
async function expectedRealTimeFactor(ctx: AppContext, engineId: string): Promise<number> {
  const seen = await recentRealTimeFactors(ctx.database.db, engineId, 15).catch(() => []);
  if (!seen.length) return 0.5;
  const sorted = [...seen].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

const HOUR_MS = 3600_000;

/**
 * The client's hourly minutes of audio (AUDIO_MINUTES_PER_HOUR): this recording's length is
 * counted against what the client had transcribed in the last hour. Past the budget it waits,
 * back in the queue, until enough of the hour's recordings age out (a first recording always
 * starts, however long). Recordings without an owner (retries of older rows) are not counted.
 */
async function spendAudioBudget(
  ctx: AppContext,
  row: AudioSessionRecord,
  job: JobRun<AppContext>,
  file: string,
): Promise<void> {
  const budgetMs = ctx.config.AUDIO_MINUTES_PER_HOUR * 60_000;
  const owner = job.job.ownerKey;
  if (budgetMs <= 0 || !owner) return;
  const probe = await probeAudio(file);
  const cost = probe.durationMs ?? (row.sizeBytes / 16_000) * 1000;
  const db = ctx.database.db;
  const now = Date.now();
  const spent = await ownerCostsSince(db, TRANSCRIBE_AUDIO_JOB, owner, new Date(now - HOUR_MS), job.job.id);
  let used = spent.reduce((n, s) => n + s.cost, 0);
  if (used > 0 && used + cost > budgetMs) {
    // When enough of the hour's recordings age out for this one to fit.
    let until = now;
    for (const s of spent) {
      used -= s.cost;
      until = s.at.getTime() + HOUR_MS;
      if (used + cost <= budgetMs) break;
    }
    const at = new Date(until);
    await updateAudioSession(db, row.id, { status: 'uploaded', step: null, waitsUntil: at });
    throw new DeferJobError(at, 'the client has used its hourly minutes of audio');
  }
  await setJobCost(db, job.job.id, cost);
}

/** How often the progress is written while a recording is transcribed. */
const PROGRESS_WRITE_MS = 1000;

/**
 * The `transcribe` step: decoding, finding speech, transcribing and telling voices apart, with
 * each step's progress and the time left written to the recording as it goes.
 */
async function transcribeRecording(
  ctx: AppContext,
  row: AudioSessionRecord,
  job: JobRun<AppContext>,
): Promise<Heard> {
  const db = ctx.database.db;
  let stt;
  try {
    stt = ctx.providers.get('stt');
  } catch (err) {
    throw new PermanentJobError(err instanceof Error ? err.message : String(err));
  }
  const engineInfo = ctx.providers.info('stt');
  // How one-channel recordings are split into two voices (a speaker model, or voice features).
  const speakers = ctx.providers.has('speakers') ? ctx.providers.get('speakers').embedder : null;
  const rtf = await expectedRealTimeFactor(ctx, stt.id);
  const { file, cleanup } = await localCopy(ctx, row.storageKey);
  try {
    await spendAudioBudget(ctx, row, job, file);
  } catch (err) {
    await cleanup();
    throw err;
  }
  await updateAudioSession(db, row.id, {
    status: 'transcribing',
    error: null,
    step: 'decoding',
    processingStartedAt: new Date(),
    waitsUntil: null,
  });
  let progress: ProcessingProgress | null = null;
  let written = '';
  let writing = Promise.resolve();
  const write = () => {
    if (!progress) return;
    const snap = progress.snapshot();
    const key = `${snap.step}:${snap.percent}`;
    if (key === written) return;
    written = key;
    writing = writing.then(() => setAudioProgress(db, row.id, snap).catch(() => undefined));
  };
  const ticker = setInterval(() => {
    write();
    void job.heartbeat().catch(() => undefined);
  }, PROGRESS_WRITE_MS);
  try {
    const result = await transcribeFile(file, stt, {
      signal: job.signal,
      maxDurationMs: ctx.config.MAX_AUDIO_MINUTES * 60_000,
      speakers,
      onProbe: (probe) => {
        const durationMs = probe.durationMs ?? (row.sizeBytes / 16_000) * 1000;
        progress = new ProcessingProgress({ durationMs, sttRealTimeFactor: rtf });
      },
      onStep: (step, done, inflight) => progress?.report(step, done, inflight),
    });
    if (!result.transcript.length) throw new PermanentJobError(NO_SPEECH_MESSAGE);
    if (result.speakers?.fallback) {
      // For operators: a speaker model is installed, yet this recording was split without it.
      ctx.log.info(
        { recording: row.id, speakers: result.speakers.id, reason: result.speakers.fallback },
        'speaker embeddings were not used for this recording; its voices were told apart by voice features',
      );
    }
    return {
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
    };
  } finally {
    clearInterval(ticker);
    await writing;
    await cleanup();
  }
}

/**
 * Durable transcription, as named steps: `transcribe` (decode, find speech, transcribe, tell
 * voices apart; its result is kept with the job) then `save` (the transcript and its coaching
 * job, in one transaction). A run that resumes after a crash between the two only saves.
 */
export const transcribeAudioJob = defineJob({
  name: TRANSCRIBE_AUDIO_JOB,
  // Long work: its own worker slots, so coaching and email never wait behind a long recording.
  lane: 'recordings',
  schema: z.object({ audioSessionId: z.string().regex(UUID_PATTERN, 'not a recording id') }),
  leaseMs: 30_000,
  maxAttempts: 3,
  async handle(payload, job: JobRun<AppContext>) {
    const ctx = job.deps;
    const row = await findAudioSession(ctx.database.db, payload.audioSessionId);
    if (!row || row.status === 'transcribed') return;
    const heard = await job.step('transcribe', () => transcribeRecording(ctx, row, job));
    await job.step('save', async () => {
      await saveAudioVersion(
        ctx,
        row.id,
        {
          status: 'transcribed',
          progress: 100,
          error: null,
          transcript: heard.transcript,
          durationMs: heard.durationMs,
          channels: heard.channels,
          attribution: heard.attribution,
          sttEngine: heard.sttEngine,
          realTimeFactor: heard.realTimeFactor,
        },
        true,
      );
    });
  },
  async onFinalFailure(payload, error, ctx: AppContext) {
    const row = await updateAudioSession(ctx.database.db, payload.audioSessionId, {
      status: 'failed',
      error: failureMessage(error),
      step: null,
    });
    // A file that is not usable audio cannot succeed on a retry: it is not kept. Other failures
    // (an engine missing, say) keep it so a retry can work; retention removes it in the end.
    if (row && fileIsUseless(error)) await discardUpload(ctx, row.storageKey);
  },
});
