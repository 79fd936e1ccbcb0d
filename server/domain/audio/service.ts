import { coachingText, gateDocument, storedDocument } from '../../../core/coaching-document';
import { parseServedBy, parseSpeakerEngine } from '../../../core/engines';
import { PROCESSING_STEPS, type ProcessingStep } from '../../../core/processing';
import { CONTROL_OR_INVISIBLE } from '../../../core/text';
import type { AudioSessionView, CoachingView } from '../../../core/views';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../errors';
import { activeJobsOf, enqueue, lockOwner, requeueJob } from '../../jobs/queue';
import type { Db } from '../../db/client';
import { applySwap } from '../../transcription/attribution';
import { COACHING_EXPECTED_MS } from '../../transcription/progress';
import type { ReportInput } from '../../pdf/report';
import { coachingView, ensureCoaching } from '../coaching/service';
import { findAudioSession, type AudioSessionRecord, type AudioSessionRow } from './data';
import { insertAudioSession, updateAudioSession } from './mutations';
import { publicError, TRANSCRIBE_AUDIO_JOB, transcribeAudioJob, transcribeDedupeKey } from './transcription';
import { saveAudioVersion } from './versions';

export { discardUpload, newStorageKey, storeUpload } from './files';

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
    coaching: coachingText(row.coaching, unlocked),
    status: row.status as AudioSessionView['status'],
    progress: row.status === 'transcribed' ? 100 : row.progress,
    ...processingState(row),
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

/** The step under way and the time left, as the page shows them. */
function processingState(
  row: AudioSessionRow,
): Pick<AudioSessionView, 'step' | 'estimatedSecondsLeft' | 'waitingUntil'> {
  const waitingUntil =
    row.status === 'uploaded' && row.waitsUntil && row.waitsUntil.getTime() > Date.now()
      ? row.waitsUntil.toISOString()
      : null;
  return { ...stepState(row), waitingUntil };
}

function stepState(row: AudioSessionRow): Pick<AudioSessionView, 'step' | 'estimatedSecondsLeft'> {
  const step = (PROCESSING_STEPS as readonly string[]).includes(row.step ?? '')
    ? (row.step as ProcessingStep)
    : null;
  if (row.status === 'transcribed') {
    // Coaching follows the transcript; it is done when the coaching is stored.
    const coaching = step === 'coaching' && !row.coaching;
    return {
      step: coaching ? 'coaching' : null,
      estimatedSecondsLeft: coaching ? Math.ceil(COACHING_EXPECTED_MS / 1000) : null,
    };
  }
  if (row.status !== 'transcribing' || !step) return { step: null, estimatedSecondsLeft: null };
  const left =
    row.expectedMs !== null
      ? Math.max(0, Math.round((row.expectedMs * (100 - row.progress)) / 100_000))
      : null;
  return { step, estimatedSecondsLeft: left };
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

/** Keeps the user's file name as plain text: no control or invisible characters, at most 255 characters. */
export function cleanFileName(name: string | undefined): string {
  const cleaned = (name ?? '')
    .normalize('NFC')
    .replace(CONTROL_OR_INVISIBLE, '')
    .replace(/^.*[\\/]/, '')
    .trim();
  // Cut by code point, so the cut never leaves half of a surrogate pair.
  return Array.from(cleaned).slice(0, 255).join('').trim() || 'recording';
}

const QUEUE_FULL_RETRY_SEC = 60;

function queueFull(max: number): HttpError {
  return new HttpError(
    429,
    'too_many_recordings',
    `You already have ${max} recording${max === 1 ? '' : 's'} waiting to be transcribed. Upload the next one when ${max === 1 ? 'it is' : 'one of them is'} done.`,
    { 'retry-after': String(QUEUE_FULL_RETRY_SEC) },
  );
}

/**
 * Whether the client may queue one more recording (MAX_QUEUED_RECORDINGS): checked before an
 * upload is read, and again, under a lock, when its transcription is queued.
 */
export async function checkRecordingRoom(ctx: AppContext, ownerKey: string): Promise<void> {
  const max = ctx.config.MAX_QUEUED_RECORDINGS;
  if (max > 0 && (await activeJobsOf(ctx.database.db, TRANSCRIBE_AUDIO_JOB, ownerKey)) >= max) {
    throw queueFull(max);
  }
}

/**
 * Creates the recording's row and queues its transcription (one job per upload), owned by the
 * client that sent it. The client's room in the queue is counted again under a lock per client,
 * so two uploads at once cannot both take the last place.
 */
export async function createAudioSession(
  ctx: AppContext,
  input: { fileName: string; stage: string; storageKey: string; mimeType: string | null; sizeBytes: number },
  ownerKey: string | null = null,
): Promise<AudioSessionView> {
  const max = ctx.config.MAX_QUEUED_RECORDINGS;
  const row = await ctx.database.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    if (ownerKey && max > 0) {
      await lockOwner(db, ownerKey);
      if ((await activeJobsOf(db, TRANSCRIBE_AUDIO_JOB, ownerKey)) >= max) throw queueFull(max);
    }
    const inserted = await insertAudioSession(db, {
      fileName: input.fileName,
      stage: input.stage,
      storageKey: input.storageKey,
      mimeType: input.mimeType,
      sizeBytes: input.sizeBytes,
      status: 'uploaded',
    });
    await enqueue(
      db,
      transcribeAudioJob,
      { audioSessionId: inserted.id },
      { dedupeKey: transcribeDedupeKey(inserted.id), ownerKey },
    );
    return inserted;
  });
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
  const requeued = await requeueJob(db, transcribeDedupeKey(id));
  if (!requeued)
    await enqueue(db, transcribeAudioJob, { audioSessionId: id }, { dedupeKey: transcribeDedupeKey(id) });
  ctx.wakeWorker();
  return toAudioSessionView({ ...(updated ?? row), unlocked: row.unlocked });
}

/**
 * Persists which way round the speakers are. Coaching written for the other attribution no
 * longer describes the rep: it is cleared, and the transcript as it now reads is coached again.
 */
export async function swapSpeakers(ctx: AppContext, id: string, swapped: boolean): Promise<AudioSessionView> {
  const row = await load(ctx, id);
  if (row.speakersSwapped === swapped) return toAudioSessionView(row);
  const coachAgain = row.status === 'transcribed' && (row.transcript ?? []).length > 0;
  const updated = await saveAudioVersion(
    ctx,
    id,
    { speakersSwapped: swapped, coaching: null, coachingEngine: null, metrics: null },
    coachAgain,
  );
  return toAudioSessionView({ ...(updated ?? row), unlocked: row.unlocked });
}

/**
 * Coaching for a transcribed recording: what its coaching job stored, or coached now when the
 * page asks first.
 */
export async function coachAudioSession(ctx: AppContext, id: string): Promise<CoachingView> {
  return coachingView(await ensureCoaching(ctx, 'audio', id));
}

/**
 * What the PDF report shows, rendered on demand from the stored coaching document, gated for
 * this visitor like every other answer.
 */
export async function reportInput(ctx: AppContext, id: string): Promise<ReportInput> {
  const row = await load(ctx, id);
  const view = toAudioSessionView(row);
  const doc = storedDocument(row.coaching);
  return {
    fileName: view.fileName,
    stage: view.stage,
    uploadedAt: view.uploadedAt,
    durationMs: view.durationMs,
    transcript: view.transcript,
    coaching: doc ? gateDocument(doc, row.unlocked) : view.coaching,
    metrics: view.metrics,
    sttEngine: view.sttEngine,
    coachingEngine: view.coachingEngine,
    attributionIsGuess: view.attributionIsGuess,
  };
}
