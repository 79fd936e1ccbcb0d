import { randomUUID } from 'node:crypto';
import type { CoachingView, SessionView } from '../../../core/views';
import { capTranscript, finalEntries, type TranscriptEntry } from '../../../core/transcript';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../errors';
import { coachFollowUp } from '../coaching/job';
import { coachingView, ensureCoaching } from '../coaching/service';
import { findSession, isSessionId, toSessionView } from './data';
import { insertSession, markCallStarted, saveSessionTranscript } from './mutations';

const sessionNotFound = () => notFound('Session');

export async function createSession(ctx: AppContext, stage: string): Promise<SessionView> {
  const row = await insertSession(ctx.database.db, stage);
  return toSessionView(row);
}

export async function getSession(ctx: AppContext, id: string): Promise<SessionView> {
  const row = await findSession(ctx.database.db, id);
  if (!row) throw sessionNotFound();
  return toSessionView(row);
}

/** Saves a transcript as a new version and queues its coaching, in one statement. */
async function saveVersion(
  ctx: AppContext,
  id: string,
  input: { transcript: TranscriptEntry[]; duration: string | null; engines?: unknown },
) {
  const version = randomUUID();
  const row = await saveSessionTranscript(ctx.database.db, id, {
    ...input,
    endedAt: new Date(),
    version,
    then: finalEntries(input.transcript).some((e) => e.transcript.trim())
      ? coachFollowUp('roleplay', id, version)
      : undefined,
  });
  if (row) ctx.wakeWorker();
  return row;
}

/**
 * The page's save (PUT /api/sessions/:id/transcript), for calls whose speech ran outside this
 * server (Vapi, the scripted replay): stores the call's final entries (partials are dropped),
 * marks the session ended and queues its coaching. A call this server carried was saved by the
 * server when it ended, from what it heard and said; a page's copy does not replace it.
 */
export async function saveTranscript(
  ctx: AppContext,
  id: string,
  input: { transcript: TranscriptEntry[]; duration?: string },
): Promise<SessionView> {
  const existing = await findSession(ctx.database.db, id);
  if (!existing) throw sessionNotFound();
  if (existing.engines !== null && existing.endedAt !== null) {
    throw new HttpError(
      409,
      'saved_by_server',
      'This call was saved by the server when it ended; its transcript cannot be replaced.',
    );
  }
  const row = await saveVersion(ctx, id, {
    transcript: finalEntries(input.transcript).map((e) => ({ ...e, transcriptType: 'final' as const })),
    duration: input.duration === undefined ? null : String(Number(input.duration)),
  });
  if (!row) throw sessionNotFound();
  return toSessionView(row);
}

/**
 * A live call starts against a role-play session (it may only save against one): the session is
 * marked as in a call, so a request for its coaching waits for the call's save. False when the
 * id names no session.
 */
export async function beginCall(ctx: AppContext, id: string): Promise<boolean> {
  return isSessionId(id) && (await markCallStarted(ctx.database.db, id));
}

/**
 * What a live call heard and said, saved by the server when the call ends (stop, cap, dropped
 * socket or shutdown), with the engines that served it; its coaching is queued in the same
 * statement, so the coaching exists whether or not the page stays open.
 */
export async function saveCallTranscript(
  ctx: AppContext,
  id: string,
  call: { transcript: TranscriptEntry[]; durationSec: number; engines: unknown },
): Promise<void> {
  await saveVersion(ctx, id, {
    // The call stops recording at the cap; this holds whatever the caller passes to it too.
    transcript: capTranscript(finalEntries(call.transcript)),
    duration: String(call.durationSec),
    engines: call.engines,
  });
}

/**
 * Coaching for a saved role-play: what its coaching job stored, or coached now when the page
 * asks first (POST /api/sessions/:id/coaching).
 */
export async function coachSession(ctx: AppContext, id: string): Promise<CoachingView> {
  return coachingView(await ensureCoaching(ctx, 'roleplay', id));
}
