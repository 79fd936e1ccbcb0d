import { eq, getTableColumns } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions } from '../../db/schema';
import type { TranscriptEntry } from '../../../core/transcript';
import { isSessionId, unlockedExpr, type SessionRecord, type SessionRow } from './data';

export async function insertSession(db: Db, stage: string): Promise<SessionRow> {
  const rows = await db.insert(sessions).values({ stage }).returning();
  return rows[0];
}

/**
 * Saves the call's final entries and ends the session, in one statement. Earlier coaching
 * described a different transcript, so it is cleared.
 */
export async function saveSessionTranscript(
  db: Db,
  id: string,
  input: {
    transcript: TranscriptEntry[];
    duration: string | null;
    endedAt: Date;
    /** The engines that served the live call (kept when a later save does not know them). */
    engines?: unknown;
  },
): Promise<SessionRecord | null> {
  if (!isSessionId(id)) return null;
  const rows = await db
    .update(sessions)
    .set({
      transcript: input.transcript,
      duration: input.duration,
      endedAt: input.endedAt,
      coaching: null,
      coachingEngine: null,
      metrics: null,
      ...(input.engines !== undefined ? { engines: input.engines } : {}),
    })
    .where(eq(sessions.id, id))
    .returning({ ...getTableColumns(sessions), unlocked: unlockedExpr });
  const row = rows[0];
  return row ? { ...row, unlocked: Boolean(row.unlocked) } : null;
}

export async function saveSessionCoaching(
  db: Db,
  id: string,
  input: { coaching: string; coachingEngine: string; metrics: unknown },
): Promise<SessionRow | null> {
  const rows = await db
    .update(sessions)
    .set({ coaching: input.coaching, coachingEngine: input.coachingEngine, metrics: input.metrics ?? null })
    .where(eq(sessions.id, id))
    .returning();
  return rows[0] ?? null;
}
