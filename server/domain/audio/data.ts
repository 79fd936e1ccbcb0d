import { isUuid } from '../../../core/ids';
import { and, desc, eq, isNotNull, lt, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { perDatabase } from '../../db/prepared';
import { audioSessions, leads } from '../../db/schema';

export type AudioSessionRow = typeof audioSessions.$inferSelect;

export interface AudioSessionRecord extends AudioSessionRow {
  unlocked: boolean;
}

/** Ids come from the URL; anything that is not a UUID cannot name a recording. */
export function isAudioSessionId(id: string): boolean {
  return isUuid(id);
}

const unlockedExpr = sql<boolean>`exists (select 1 from ${leads} where ${and(
  eq(leads.sessionId, audioSessions.id),
  eq(leads.sessionKind, 'audio'),
)})`;

/**
 * The status poll reads this row every 2 s per open page, so the query is built once per
 * database and, on PostgreSQL, parsed and planned once per connection (a named statement).
 */
const findStatement = perDatabase((db) =>
  db
    .select({ session: audioSessions, unlocked: unlockedExpr })
    .from(audioSessions)
    .where(eq(audioSessions.id, sql.placeholder('id')))
    .limit(1)
    .prepare('find_audio_session'),
);

export async function findAudioSession(db: Db, id: string): Promise<AudioSessionRecord | null> {
  if (!isAudioSessionId(id)) return null;
  const rows = await findStatement(db).execute({ id });
  const row = rows[0];
  return row ? { ...row.session, unlocked: Boolean(row.unlocked) } : null;
}

/** Recordings uploaded before the cutoff (oldest first), for retention. */
export async function findRecordingsUploadedBefore(
  db: Db,
  cutoff: Date,
  limit: number,
): Promise<{ id: string; storageKey: string }[]> {
  return db
    .select({ id: audioSessions.id, storageKey: audioSessions.storageKey })
    .from(audioSessions)
    .where(lt(audioSessions.uploadedAt, cutoff))
    .orderBy(audioSessions.uploadedAt)
    .limit(limit);
}

/**
 * The recogniser's real-time factors on the last recordings it transcribed (most recent first),
 * for the first estimate of how long the next one takes.
 */
export async function recentRealTimeFactors(db: Db, engineId: string, limit: number): Promise<number[]> {
  const rows = await db
    .select({ rtf: audioSessions.realTimeFactor })
    .from(audioSessions)
    .where(
      and(
        eq(audioSessions.status, 'transcribed'),
        isNotNull(audioSessions.realTimeFactor),
        // Rows before engines were stored as JSON hold the bare id.
        sql`(case when ${audioSessions.sttEngine} like '{%' then ${audioSessions.sttEngine}::jsonb ->> 'id' else ${audioSessions.sttEngine} end) = ${engineId}`,
      ),
    )
    .orderBy(desc(audioSessions.uploadedAt))
    .limit(limit);
  return rows.map((r) => Number(r.rtf)).filter((n) => Number.isFinite(n) && n > 0);
}
