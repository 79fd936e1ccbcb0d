import { eq } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions } from '../../db/schema';
import type { TranscriptEntry } from '../../../core/transcript';
import type { SessionRow } from './data';

export async function insertSession(db: Db, stage: string): Promise<SessionRow> {
  const rows = await db.insert(sessions).values({ stage }).returning();
  return rows[0];
}

/**
 * Saves the call's final entries and ends the session. Earlier coaching described a
 * different transcript, so it is cleared.
 */
export async function saveSessionTranscript(
  db: Db,
  id: string,
  input: { transcript: TranscriptEntry[]; duration: string | null; endedAt: Date },
): Promise<SessionRow | null> {
  const rows = await db
    .update(sessions)
    .set({
      transcript: input.transcript,
      duration: input.duration,
      endedAt: input.endedAt,
      coaching: null,
      coachingEngine: null,
      metrics: null,
    })
    .where(eq(sessions.id, id))
    .returning();
  return rows[0] ?? null;
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
