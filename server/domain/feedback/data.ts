import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { feedback, jobs, outbox, sessions } from '../../db/schema';
import { capTranscript } from '../../../core/transcript';

export type FeedbackRow = typeof feedback.$inferSelect;
export type OutboxRow = typeof outbox.$inferSelect;

export async function getFeedback(db: Db, id: string): Promise<FeedbackRow | null> {
  const rows = await db.select().from(feedback).where(eq(feedback.id, id)).limit(1);
  return rows[0] ?? null;
}

/** Whether a role-play session exists, and whether it has coaching (null: no such session). */
export async function roleplaySessionCoached(db: Db, id: string): Promise<boolean | null> {
  const rows = await db
    .select({ coached: sql<boolean>`${sessions.coaching} is not null` })
    .from(sessions)
    .where(eq(sessions.id, id))
    .limit(1);
  return rows.length ? Boolean(rows[0].coached) : null;
}

/**
 * An address as the limits count it: lower case, without a `+tag` (ann+1@x and Ann@x are one
 * mailbox). The same rule as recipientKeyExpr, in SQL.
 */
export function recipientKey(email: string): string {
  return email.replace(/\+[^@]*@/, '@').toLowerCase();
}
const recipientKeyExpr = sql`lower(regexp_replace(${feedback.email}, '[+][^@]*@', '@'))`;

/**
 * Summaries already asked for to an address: of this session (ever), and of any session in
 * the last day (with when the oldest of those was submitted, for Retry-After).
 */
export async function summariesTo(
  db: Db,
  key: string,
  sessionId: string,
): Promise<{ forSession: number; lastDay: number; oldestInDay: Date | null }> {
  const [row] = await db
    .select({
      forSession: sql<number>`count(*) filter (where ${feedback.sessionId} = ${sessionId})::int`,
      lastDay: sql<number>`count(*) filter (where ${feedback.submittedAt} > now() - interval '1 day')::int`,
      oldestInDay: sql<
        string | null
      >`min(${feedback.submittedAt}) filter (where ${feedback.submittedAt} > now() - interval '1 day')`,
    })
    .from(feedback)
    .where(sql`${recipientKeyExpr} = ${key}`);
  return {
    forSession: Number(row?.forSession ?? 0),
    lastDay: Number(row?.lastDay ?? 0),
    oldestInDay: row?.oldestInDay ? new Date(row.oldestInDay) : null,
  };
}

/** Holds submissions to one address in turn until the transaction ends (the checks, then the insert). */
export async function lockRecipient(db: Db, key: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`feedback:${key}`}))`);
}

/** What the summary email needs from a role-play session. */
export async function getSessionForSummary(db: Db, id: string) {
  const rows = await db
    .select({
      id: sessions.id,
      stage: sessions.stage,
      startedAt: sessions.startedAt,
      duration: sessions.duration,
      transcript: sessions.transcript,
      coaching: sessions.coaching,
      metrics: sessions.metrics,
      engines: sessions.engines,
    })
    .from(sessions)
    .where(eq(sessions.id, id))
    .limit(1);
  const row = rows[0];
  return row ? { ...row, transcript: capTranscript(row.transcript ?? []) } : null;
}
export type SummarySession = NonNullable<Awaited<ReturnType<typeof getSessionForSummary>>>;

/**
 * Submissions whose email is not sent and has no live job (the job failed for good, or was
 * never created): these are queued again at boot so a stored submission is never dropped.
 */
export async function feedbackAwaitingDelivery(
  db: Db,
  dedupeKeyOf: (id: string) => string,
  limit = 500,
): Promise<{ id: string; jobStatus: string | null }[]> {
  const rows = await db
    .select({ id: feedback.id })
    .from(feedback)
    .where(ne(feedback.emailStatus, 'sent'))
    .orderBy(feedback.submittedAt)
    .limit(limit);
  if (!rows.length) return [];
  const keys = rows.map((r) => dedupeKeyOf(r.id));
  const jobRows = await db
    .select({ key: jobs.dedupeKey, status: jobs.status })
    .from(jobs)
    .where(inArray(jobs.dedupeKey, keys));
  const statusByKey = new Map(jobRows.map((j) => [j.key, j.status]));
  return rows
    .map((r) => ({ id: r.id, jobStatus: statusByKey.get(dedupeKeyOf(r.id)) ?? null }))
    .filter((r) => r.jobStatus === null || r.jobStatus === 'failed' || r.jobStatus === 'done');
}

export async function listOutbox(db: Db, limit = 200): Promise<OutboxRow[]> {
  return db.select().from(outbox).orderBy(desc(outbox.createdAt)).limit(limit);
}

export async function getOutboxMessage(db: Db, id: string): Promise<OutboxRow | null> {
  const rows = await db.select().from(outbox).where(eq(outbox.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function countOutboxForFeedback(db: Db, feedbackId: string): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(outbox)
    .where(and(eq(outbox.feedbackId, feedbackId)));
  return Number(rows[0]?.n ?? 0);
}
