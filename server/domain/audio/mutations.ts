import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { audioSessions } from '../../db/schema';
import type { CoachingDocument } from '../../../core/coaching-format';
import type { AudioSessionRow } from './data';

export type NewAudioSession = typeof audioSessions.$inferInsert;
export type AudioSessionPatch = Partial<Omit<NewAudioSession, 'id' | 'uploadedAt'>>;

export async function insertAudioSession(db: Db, values: NewAudioSession): Promise<AudioSessionRow> {
  const rows = await db.insert(audioSessions).values(values).returning();
  return rows[0];
}

export async function updateAudioSession(
  db: Db,
  id: string,
  patch: AudioSessionPatch,
): Promise<AudioSessionRow | null> {
  const rows = await db.update(audioSessions).set(patch).where(eq(audioSessions.id, id)).returning();
  return rows[0] ?? null;
}

/**
 * The processing's progress as it goes: the step under way, the percentage (which only moves
 * forward: a run resumed after a crash redoes early audio without the bar going back; a user's
 * retry resets it explicitly) and the expected length of the whole processing.
 */
export async function setAudioProgress(
  db: Db,
  id: string,
  progress: { step: string; percent: number; expectedMs: number },
): Promise<void> {
  const value = Math.max(0, Math.min(99, Math.round(progress.percent)));
  await db
    .update(audioSessions)
    .set({
      progress: sql`greatest(${audioSessions.progress}, ${value})`,
      step: progress.step,
      expectedMs: Math.max(0, Math.round(progress.expectedMs)),
    })
    .where(and(eq(audioSessions.id, id), eq(audioSessions.status, 'transcribing')));
}

/** Deletes recordings' rows (their files are removed by the caller first). */
export async function deleteAudioSessions(db: Db, ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await db.delete(audioSessions).where(inArray(audioSessions.id, ids));
}

/**
 * Stores the coaching written for one version of the transcript, only when that version is still
 * the recording's and nothing is stored yet (the first coaching of a transcript is the one kept);
 * the recording's processing is then done. Returns whether it was stored.
 */
export async function storeAudioCoaching(
  db: Db,
  id: string,
  version: string | null,
  input: { coaching: CoachingDocument; coachingEngine: string; metrics: unknown },
): Promise<boolean> {
  const rows = await db
    .update(audioSessions)
    .set({
      coaching: input.coaching,
      coachingEngine: input.coachingEngine,
      metrics: input.metrics ?? null,
      step: null,
    })
    .where(
      and(
        eq(audioSessions.id, id),
        isNull(audioSessions.coaching),
        version === null
          ? isNull(audioSessions.transcriptVersion)
          : eq(audioSessions.transcriptVersion, version),
      ),
    )
    .returning({ id: audioSessions.id });
  return rows.length > 0;
}
