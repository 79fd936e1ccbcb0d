import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { audioSessions, leads, sessions } from '../../db/schema';

export type SessionKind = 'roleplay' | 'audio';
export type LeadRow = typeof leads.$inferSelect;

export async function sessionExists(db: Db, kind: SessionKind, id: string): Promise<boolean> {
  const table = kind === 'audio' ? audioSessions : sessions;
  const rows = await db.select({ id: table.id }).from(table).where(eq(table.id, id)).limit(1);
  return rows.length > 0;
}

/** True once any lead was captured for this session: the gate stays open across reloads. */
export async function isSessionUnlocked(db: Db, kind: SessionKind, sessionId: string): Promise<boolean> {
  const rows = await db
    .select({ id: leads.id })
    .from(leads)
    .where(and(eq(leads.sessionId, sessionId), eq(leads.sessionKind, kind)))
    .limit(1);
  return rows.length > 0;
}

export async function findLead(
  db: Db,
  kind: SessionKind,
  sessionId: string,
  email: string,
): Promise<LeadRow | null> {
  const rows = await db
    .select()
    .from(leads)
    .where(
      and(
        eq(leads.sessionId, sessionId),
        eq(leads.sessionKind, kind),
        sql`lower(${leads.email}) = lower(${email})`,
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}
