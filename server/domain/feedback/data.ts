import { and, desc, eq, inArray, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { feedback, jobs, outbox, sessions } from '../../db/schema';

export type FeedbackRow = typeof feedback.$inferSelect;
export type OutboxRow = typeof outbox.$inferSelect;

export async function getFeedback(db: Db, id: string): Promise<FeedbackRow | null> {
  const rows = await db.select().from(feedback).where(eq(feedback.id, id)).limit(1);
  return rows[0] ?? null;
}

export async function roleplaySessionExists(db: Db, id: string): Promise<boolean> {
  const rows = await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, id)).limit(1);
  return rows.length > 0;
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
  return rows[0] ?? null;
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
