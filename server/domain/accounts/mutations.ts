import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { accounts, accountSessions, audioSessions, sessions, signInLinks } from '../../db/schema';

/** Stores a sign-in link by its token's hash; also sweeps links that expired a day ago. */
export async function insertSignInLink(
  db: Db,
  values: { tokenHash: string; email: string; expiresAt: Date },
): Promise<void> {
  await db.delete(signInLinks).where(sql`${signInLinks.expiresAt} < now() - interval '1 day'`);
  await db.insert(signInLinks).values(values);
}

/**
 * Accepts a link once: the one statement that marks it used answers its address only while it
 * is unused and unexpired, so two racing sign-ins with one link cannot both pass.
 */
export async function consumeSignInLink(db: Db, tokenHash: string): Promise<string | null> {
  const rows = await db
    .update(signInLinks)
    .set({ usedAt: sql`now()` })
    .where(
      and(
        eq(signInLinks.tokenHash, tokenHash),
        isNull(signInLinks.usedAt),
        gt(signInLinks.expiresAt, sql`now()`),
      ),
    )
    .returning({ email: signInLinks.email });
  return rows[0]?.email ?? null;
}

/** The account of an address, made on its first sign-in. */
export async function upsertAccount(db: Db, email: string): Promise<{ id: string; email: string }> {
  const [row] = await db
    .insert(accounts)
    .values({ email })
    .onConflictDoUpdate({ target: accounts.email, set: { email } })
    .returning({ id: accounts.id, email: accounts.email });
  return row;
}

export async function insertAccountSession(
  db: Db,
  values: { idHash: string; accountId: string; expiresAt: Date },
): Promise<void> {
  await db.delete(accountSessions).where(sql`${accountSessions.expiresAt} < now()`);
  await db.insert(accountSessions).values(values);
}

export async function deleteAccountSession(db: Db, idHash: string): Promise<void> {
  await db.delete(accountSessions).where(eq(accountSessions.idHash, idHash));
}

/** Ends every sign-in of the account, on every device; answers how many there were. */
export async function deleteAccountSessions(db: Db, accountId: string): Promise<number> {
  const rows = await db
    .delete(accountSessions)
    .where(eq(accountSessions.accountId, accountId))
    .returning({ idHash: accountSessions.idHash });
  return rows.length;
}

/**
 * Marks a new role-play or recording with the device that made it and, when the browser is
 * signed in, its account (one statement: the account is read from the sign-in by its hash).
 */
export async function markPractice(
  db: Db,
  kind: 'roleplay' | 'audio',
  id: string,
  deviceKey: string,
  signInHash: string | null,
): Promise<void> {
  const accountId = signInHash
    ? sql`(select ${accountSessions.accountId} from ${accountSessions} where ${and(
        eq(accountSessions.idHash, signInHash),
        gt(accountSessions.expiresAt, sql`now()`),
      )})`
    : sql`null`;
  if (kind === 'roleplay') {
    await db.update(sessions).set({ deviceKey, accountId }).where(eq(sessions.id, id));
  } else {
    await db.update(audioSessions).set({ deviceKey, accountId }).where(eq(audioSessions.id, id));
  }
}

/**
 * Gives the account what this device made before signing in: only rows the device's own key
 * marked, and only those no account holds yet.
 */
export async function claimDevicePractice(
  db: Db,
  accountId: string,
  deviceKey: string,
): Promise<{ roleplays: number; recordings: number }> {
  const r = await db
    .update(sessions)
    .set({ accountId })
    .where(and(eq(sessions.deviceKey, deviceKey), isNull(sessions.accountId)))
    .returning({ id: sessions.id });
  const a = await db
    .update(audioSessions)
    .set({ accountId })
    .where(and(eq(audioSessions.deviceKey, deviceKey), isNull(audioSessions.accountId)))
    .returning({ id: audioSessions.id });
  return { roleplays: r.length, recordings: a.length };
}
