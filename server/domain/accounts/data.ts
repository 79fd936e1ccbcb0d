import { and, count, desc, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, accountSessions, audioSessions, leads, sessions } from '../../db/schema';

export interface SignedIn {
  accountId: string;
  email: string;
}

/** The account a browser's cookie (by its hash) is signed in to, while that sign-in lasts. */
export async function findSignedIn(db: Db, idHash: string): Promise<SignedIn | null> {
  const rows = await db
    .select({ accountId: accounts.id, email: accounts.email })
    .from(accountSessions)
    .innerJoin(accounts, eq(accounts.id, accountSessions.accountId))
    .where(and(eq(accountSessions.idHash, idHash), gt(accountSessions.expiresAt, sql`now()`)))
    .limit(1);
  return rows[0] ?? null;
}

/** Role-plays and recordings a device made that no account holds yet. */
export async function countClaimable(
  db: Db,
  deviceKey: string,
): Promise<{ roleplays: number; recordings: number }> {
  const [r] = await db
    .select({ n: count() })
    .from(sessions)
    .where(and(eq(sessions.deviceKey, deviceKey), isNull(sessions.accountId)));
  const [a] = await db
    .select({ n: count() })
    .from(audioSessions)
    .where(and(eq(audioSessions.deviceKey, deviceKey), isNull(audioSessions.accountId)));
  return { roleplays: Number(r?.n ?? 0), recordings: Number(a?.n ?? 0) };
}

export interface OwnedPractice {
  kind: 'roleplay' | 'audio';
  id: string;
  stage: string;
  at: Date;
  fileName: string | null;
  coaching: unknown;
  metrics: unknown;
  unlocked: boolean;
}

/** An account's role-plays and recordings, newest first, at most `limit` of each kind. */
export async function listOwnedPractice(db: Db, accountId: string, limit: number): Promise<OwnedPractice[]> {
  const roleplays = await db
    .select({
      id: sessions.id,
      stage: sessions.stage,
      at: sessions.startedAt,
      coaching: sessions.coaching,
      metrics: sessions.metrics,
      unlocked: sql<boolean>`exists (select 1 from ${leads} where ${and(
        eq(leads.sessionId, sessions.id),
        eq(leads.sessionKind, 'roleplay'),
      )})`,
    })
    .from(sessions)
    .where(eq(sessions.accountId, accountId))
    .orderBy(desc(sessions.startedAt))
    .limit(limit);
  const recordings = await db
    .select({
      id: audioSessions.id,
      stage: audioSessions.stage,
      at: audioSessions.uploadedAt,
      fileName: audioSessions.fileName,
      coaching: audioSessions.coaching,
      metrics: audioSessions.metrics,
      unlocked: sql<boolean>`exists (select 1 from ${leads} where ${and(
        eq(leads.sessionId, audioSessions.id),
        eq(leads.sessionKind, 'audio'),
      )})`,
    })
    .from(audioSessions)
    .where(eq(audioSessions.accountId, accountId))
    .orderBy(desc(audioSessions.uploadedAt))
    .limit(limit);
  return [
    ...roleplays.map((r) => ({
      ...r,
      kind: 'roleplay' as const,
      fileName: null,
      unlocked: Boolean(r.unlocked),
    })),
    ...recordings.map((r) => ({ ...r, kind: 'audio' as const, unlocked: Boolean(r.unlocked) })),
  ].sort((a, b) => b.at.getTime() - a.at.getTime());
}
