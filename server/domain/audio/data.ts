import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { audioSessions, leads } from '../../db/schema';

export type AudioSessionRow = typeof audioSessions.$inferSelect;

export interface AudioSessionRecord extends AudioSessionRow {
  unlocked: boolean;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from the URL; anything that is not a UUID cannot name a recording. */
export function isAudioSessionId(id: string): boolean {
  return UUID.test(id);
}

const unlockedExpr = sql<boolean>`exists (select 1 from ${leads} where ${and(
  eq(leads.sessionId, audioSessions.id),
  eq(leads.sessionKind, 'audio'),
)})`;

export async function findAudioSession(db: Db, id: string): Promise<AudioSessionRecord | null> {
  if (!isAudioSessionId(id)) return null;
  const rows = await db
    .select({ session: audioSessions, unlocked: unlockedExpr })
    .from(audioSessions)
    .where(eq(audioSessions.id, id))
    .limit(1);
  const row = rows[0];
  return row ? { ...row.session, unlocked: Boolean(row.unlocked) } : null;
}
