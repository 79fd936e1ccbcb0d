import {
  canonicalDocument,
  coachingText,
  gateDocument,
  storedDocument,
} from '../../../core/coaching-document';
import type { CoachingDocument } from '../../../core/coaching-format';
import type { ConversationMetrics } from '../../../core/conversation-metrics';
import { conversationMetrics } from '../../understanding/metrics';
import { parseServedBy, type ServedBy } from '../../../core/engines';
import { finalEntries, type TranscriptEntry } from '../../../core/transcript';
import type { CoachingView } from '../../../core/views';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../errors';
import { jobStatus, takeQueuedJob } from '../../jobs/queue';
import type { Coach } from '../../providers/coach/types';
import type { CoachContext } from './context';
import { COACH_JOB_LEASE_MS, coachDedupeKey } from './keys';
import {
  hasWords,
  loadSubject,
  storeSubjectCoaching,
  type CoachingKind,
  type CoachingSubject,
} from './subjects';

export interface CoachTranscriptInput {
  stage: string;
  transcript: TranscriptEntry[];
  durationSec?: number;
  personaName?: string;
  oneVoice?: boolean;
  /** How the call reached the coach (role-play or recording, typed or spoken, recognition). */
  context?: CoachContext;
}

export interface CoachTranscriptResult {
  /** The coaching in its canonical form (what its text reads back as). */
  document: CoachingDocument;
  metrics: ConversationMetrics;
  /** Engine id that wrote it. */
  engine: string;
  /** Set when a fallback answered (e.g. the LLM failed and the rubric coach stepped in). */
  note?: string;
}

/**
 * Coaching for any transcript (role-play or recording). Metrics are always measured from the
 * final entries, so every engine's answer comes with the same numbers: here, or by the coach
 * when it says it measures them (the worker-thread pool, off the event loop).
 */
export async function coachTranscript(
  coach: Coach,
  input: CoachTranscriptInput,
  opts: { signal?: AbortSignal } = {},
): Promise<CoachTranscriptResult> {
  const transcript = finalEntries(input.transcript);
  const durationSec =
    input.durationSec !== undefined && Number.isFinite(input.durationSec) && input.durationSec > 0
      ? input.durationSec
      : undefined;
  const result = await coach.coach(
    {
      stage: input.stage,
      transcript,
      durationSec,
      personaName: input.personaName,
      ...input.context,
      ...(input.oneVoice ? { oneVoice: true } : {}),
    },
    opts,
  );
  return {
    document: canonicalDocument(result.document),
    // A coach that measured them (the worker-thread pool) saves the event loop the same work.
    metrics:
      coach.measuresMetrics && result.metrics
        ? (result.metrics as ConversationMetrics)
        : conversationMetrics(transcript, { durationSec }),
    engine: result.engine,
    ...(result.note ? { note: result.note } : {}),
  };
}

/**
 * The engine that wrote a coaching text, as stored and shown beside it. When a fallback answered
 * (the LLM failed and the rubric coach stepped in) it is named, as a basic engine.
 */
export function describeCoachEngine(ctx: AppContext, engineId: string): ServedBy {
  const info = ctx.providers.info('coach');
  // A plain name only: set-up hints (commands, settings) are for operators, on /api/status.
  if (info && info.engine === engineId) return { id: info.engine, label: info.label, quality: info.quality };
  const coach = ctx.providers.has('coach') ? ctx.providers.get('coach') : undefined;
  return { id: engineId, label: coach && coach.id === engineId ? coach.label : engineId, quality: 'basic' };
}

/** Coaching stored without its engine (rows from before engines were recorded). */
const UNKNOWN_ENGINE: ServedBy = { id: 'unknown', label: 'Unknown', quality: 'basic' };

/** The coaching answer (docs/api.md `Coaching`) for a coached subject, gated as its lead says. */
export function coachingView(subject: CoachingSubject): CoachingView {
  const { engine, note } = parseServedBy(subject.coachingEngine) ?? { engine: UNKNOWN_ENGINE };
  const doc = storedDocument(subject.coaching);
  return {
    coaching: coachingText(subject.coaching, subject.unlocked) ?? '',
    document: doc ? gateDocument(doc, subject.unlocked) : null,
    metrics: subject.metrics ?? null,
    engine,
    ...(note ? { note } : {}),
    unlocked: subject.unlocked,
  };
}

/**
 * Coaches the subject's transcript and stores the result against its version. Returns the
 * subject with what is stored afterwards: this coaching, or one another writer stored first.
 */
export async function coachSubject(
  ctx: AppContext,
  subject: CoachingSubject,
  opts: { signal?: AbortSignal } = {},
): Promise<CoachingSubject> {
  const result = await coachTranscript(
    ctx.providers.get('coach'),
    {
      stage: subject.stage,
      transcript: subject.transcript,
      durationSec: subject.durationSec,
      personaName: subject.personaName,
      oneVoice: subject.oneVoice,
      context: subject.context,
    },
    opts,
  );
  const engine = describeCoachEngine(ctx, result.engine);
  const coachingEngine = JSON.stringify({ ...engine, ...(result.note ? { note: result.note } : {}) });
  const stored = await storeSubjectCoaching(ctx.database.db, subject, {
    coaching: result.document,
    coachingEngine,
    metrics: result.metrics,
  });
  if (stored) return { ...subject, coaching: result.document, coachingEngine, metrics: result.metrics };
  // Coached meanwhile (the job and a request raced), or the transcript changed: what is stored
  // wins; with nothing stored (a new transcript waits for its own coaching) this answer stands.
  const now = await loadSubject(ctx.database.db, subject.kind, subject.id);
  return now?.coaching
    ? now
    : { ...subject, coaching: result.document, coachingEngine, metrics: result.metrics };
}

/** How long a request for coaching waits for a call that is ending to save its transcript. */
export const CALL_SAVE_WAIT_MS = 5000;
/** How long it waits for a coaching job that another process is running. */
export const RUNNING_JOB_WAIT_MS = 30_000;
const POLL_MS = 150;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForSubject(
  ctx: AppContext,
  kind: CoachingKind,
  id: string,
  until: (s: CoachingSubject) => boolean,
  ms: number,
): Promise<CoachingSubject | null> {
  const deadline = Date.now() + ms;
  while (Date.now() < deadline && !ctx.shutdown.signal.aborted) {
    await sleep(POLL_MS);
    const s = await loadSubject(ctx.database.db, kind, id);
    if (!s) return null;
    if (until(s)) return s;
  }
  return null;
}

function noTranscript(kind: CoachingKind): HttpError {
  return new HttpError(
    400,
    'no_transcript',
    kind === 'roleplay'
      ? 'This session has no saved conversation yet. Hold a role-play call, then ask for coaching.'
      : 'This recording has no transcript yet. Wait for the transcription to finish, then ask for coaching.',
  );
}

/**
 * The subject's coaching, coached now if need be: what is stored; else the queued coaching job,
 * taken out of the queue and run here; else (a worker is running it) what that job stores; else
 * coached here. However the answer is reached, one coaching is stored per transcript version.
 */
export async function ensureCoaching(
  ctx: AppContext,
  kind: CoachingKind,
  id: string,
  opts: { signal?: AbortSignal } = {},
): Promise<CoachingSubject> {
  const db = ctx.database.db;
  let subject = await loadSubject(db, kind, id);
  if (!subject) throw notFound(kind === 'roleplay' ? 'Session' : 'Recording');
  if (subject.coaching) return subject;
  if (!hasWords(subject) && subject.callLive) {
    // The call is ending: its socket saves what was said just before the page asks.
    subject = (await waitForSubject(ctx, kind, id, (s) => s.complete, CALL_SAVE_WAIT_MS)) ?? subject;
    if (subject.coaching) return subject;
  }
  if (!hasWords(subject) || (kind === 'audio' && !subject.complete)) throw noTranscript(kind);

  const key = coachDedupeKey(kind, id, subject.version);
  const taken = await takeQueuedJob(db, key, {
    holder: `request:${process.pid}`,
    leaseMs: COACH_JOB_LEASE_MS,
  });
  if (!taken) {
    const job = await jobStatus(db, key);
    if (job?.status === 'running' && job.lockedUntil && job.lockedUntil.getTime() > Date.now()) {
      const coached = await waitForSubject(
        ctx,
        kind,
        id,
        (s) => s.coaching !== null || s.version !== subject!.version,
        RUNNING_JOB_WAIT_MS,
      );
      if (coached?.coaching) return coached;
    }
  }
  try {
    const coached = await coachSubject(ctx, subject, opts);
    await taken?.finish();
    return coached;
  } catch (err) {
    await taken?.release(err instanceof Error ? err : new Error(String(err))).catch(() => undefined);
    throw err;
  }
}
