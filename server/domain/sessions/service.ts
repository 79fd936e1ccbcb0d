import { coachingForGate } from '../../../core/coaching-format';
import { parseServedBy, type ServedBy } from '../../../core/engines';
import type { CoachingView, SessionView } from '../../../core/views';
import { personaFor } from '../../../core/stages';
import { finalEntries, type TranscriptEntry } from '../../../core/transcript';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../errors';
import { coachTranscript, describeCoachEngine } from '../coaching/service';
import { rolePlayContext } from '../coaching/context';
import { findSession, isSessionId, toSessionView } from './data';
import { insertSession, saveSessionCoaching, saveSessionTranscript } from './mutations';

const sessionNotFound = () => notFound('Session');
/** A coaching text stored without its engine (rows from before engines were recorded). */
const UNKNOWN_ENGINE: ServedBy = { id: 'unknown', label: 'Unknown', quality: 'basic' };

export async function createSession(ctx: AppContext, stage: string): Promise<SessionView> {
  const row = await insertSession(ctx.database.db, stage);
  return toSessionView(row);
}

export async function getSession(ctx: AppContext, id: string): Promise<SessionView> {
  const row = await findSession(ctx.database.db, id);
  if (!row) throw sessionNotFound();
  return toSessionView(row);
}

/** Stores the call's final entries (partials are dropped) and marks the session ended. */
export async function saveTranscript(
  ctx: AppContext,
  id: string,
  input: { transcript: TranscriptEntry[]; duration?: string },
): Promise<SessionView> {
  const row = await saveSessionTranscript(ctx.database.db, id, {
    transcript: finalEntries(input.transcript).map((e) => ({ ...e, transcriptType: 'final' as const })),
    duration: input.duration === undefined ? null : String(Number(input.duration)),
    endedAt: new Date(),
  });
  if (!row) throw sessionNotFound();
  return toSessionView(row);
}

/** Whether an id names a role-play session (a live call may only save against one). */
export async function sessionExists(ctx: AppContext, id: string): Promise<boolean> {
  return isSessionId(id) && (await findSession(ctx.database.db, id)) !== null;
}

/**
 * What a live call heard, saved by the server when the call ends (stop, cap, dropped socket or
 * shutdown). The page saves its own copy afterwards; coaching already written is never cleared.
 */
export async function saveCallTranscript(
  ctx: AppContext,
  id: string,
  call: { transcript: TranscriptEntry[]; durationSec: number; engines: unknown },
): Promise<void> {
  const row = await findSession(ctx.database.db, id);
  if (!row || row.coaching) return;
  await saveSessionTranscript(ctx.database.db, id, {
    transcript: call.transcript,
    duration: String(call.durationSec),
    endedAt: new Date(),
    engines: call.engines,
  });
}

/**
 * Coaching for a saved role-play. The first call runs the coach; later calls (the page
 * retries) return what was stored, until a new transcript is saved.
 */
export async function coachSession(ctx: AppContext, id: string): Promise<CoachingView> {
  const session = await findSession(ctx.database.db, id);
  if (!session) throw sessionNotFound();
  if (session.coaching) {
    const { engine, note } = parseServedBy(session.coachingEngine) ?? { engine: UNKNOWN_ENGINE };
    return {
      coaching: coachingForGate(session.coaching, session.unlocked) ?? '',
      metrics: session.metrics ?? null,
      engine,
      ...(note ? { note } : {}),
      unlocked: session.unlocked,
    };
  }
  const transcript = finalEntries(session.transcript ?? []);
  if (!transcript.some((e) => e.transcript.trim() !== '')) {
    throw new HttpError(
      400,
      'no_transcript',
      'This session has no saved conversation yet. Hold a role-play call, then ask for coaching.',
    );
  }
  const durationSec = session.duration ? Number(session.duration) : undefined;
  const result = await coachTranscript(ctx.providers.get('coach'), {
    stage: session.stage,
    transcript,
    durationSec: Number.isFinite(durationSec) ? durationSec : undefined,
    personaName: personaFor(session.stage)?.name,
    context: rolePlayContext(session.engines),
  });
  const engine = describeCoachEngine(ctx, result.engine);
  await saveSessionCoaching(ctx.database.db, id, {
    coaching: result.coaching,
    coachingEngine: JSON.stringify({ ...engine, ...(result.note ? { note: result.note } : {}) }),
    metrics: result.metrics,
  });
  return {
    coaching: coachingForGate(result.coaching, session.unlocked) ?? '',
    metrics: result.metrics,
    engine,
    ...(result.note ? { note: result.note } : {}),
    unlocked: session.unlocked,
  };
}
