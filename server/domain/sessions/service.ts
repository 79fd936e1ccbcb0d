import { coachingForGate } from '../../../core/coaching-format';
import { personaFor } from '../../../core/stages';
import { finalEntries, type TranscriptEntry } from '../../../core/transcript';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../errors';
import type { EngineInfo } from '../../providers/types';
import { coachTranscript } from '../coaching/service';
import { findSession, isSessionId, toSessionView, type SessionView } from './data';
import { insertSession, saveSessionCoaching, saveSessionTranscript } from './mutations';

/**
 * Which engine wrote a coaching text, as shown beside it (docs/api.md `Coaching.engine`): a plain
 * name only. Set-up hints (commands, variables) are for operators and stay on `/api/status`.
 */
export interface CoachingEngineView {
  id: string;
  label: string;
  quality: EngineInfo['quality'];
}

export interface CoachingView {
  /** Until `unlocked`, the gated sections carry only their heading and the locked line. */
  coaching: string;
  metrics: unknown;
  engine: CoachingEngineView;
  note?: string;
  unlocked: boolean;
}

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

/** The stored engine description; older rows may hold a bare engine id. */
function parseStoredEngine(stored: string | null): { engine: CoachingEngineView; note?: string } {
  if (stored) {
    try {
      const parsed = JSON.parse(stored) as Partial<CoachingEngineView> & { note?: string };
      if (parsed && typeof parsed.id === 'string') {
        // Only the plain name leaves: rows written before hints moved to /api/status may hold one.
        const engine: CoachingEngineView = {
          id: parsed.id,
          label: typeof parsed.label === 'string' ? parsed.label : parsed.id,
          quality: parsed.quality === 'enhanced' ? 'enhanced' : 'basic',
        };
        return { engine, note: typeof parsed.note === 'string' ? parsed.note : undefined };
      }
    } catch {
      // a bare id
    }
  }
  return { engine: { id: stored ?? 'unknown', label: stored ?? 'Unknown', quality: 'basic' } };
}

function describeEngine(ctx: AppContext, engineId: string): CoachingEngineView {
  const info = ctx.providers.info('coach');
  if (info && info.engine === engineId) {
    return { id: info.engine, label: info.label, quality: info.quality };
  }
  // A fallback engine answered (e.g. the LLM failed and the rubric coach stepped in).
  const coach = ctx.providers.has('coach') ? ctx.providers.get('coach') : undefined;
  return {
    id: engineId,
    label: coach && coach.id === engineId ? coach.label : engineId,
    quality: 'basic',
  };
}

/**
 * Coaching for a saved role-play. The first call runs the coach; later calls (the page
 * retries) return what was stored, until a new transcript is saved.
 */
export async function coachSession(ctx: AppContext, id: string): Promise<CoachingView> {
  const session = await findSession(ctx.database.db, id);
  if (!session) throw sessionNotFound();
  if (session.coaching) {
    const { engine, note } = parseStoredEngine(session.coachingEngine);
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
  });
  const engine = describeEngine(ctx, result.engine);
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
