import { and, eq, ne, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { feedback, outbox } from '../../db/schema';
import { enqueueJob } from '../../jobs/queue';
import type { FeedbackRow } from './data';

/**
 * Stores a submission and its email job in one transaction: either both exist or neither,
 * so an accepted submission always has a job that will deliver it.
 */
export async function createFeedbackWithJob(
  db: Db,
  values: { sessionId: string | null; name: string; email: string },
  job: { kind: string; dedupeKeyOf: (id: string) => string; maxAttempts: number },
): Promise<FeedbackRow> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(feedback).values(values).returning();
    await enqueueJob(
      tx as unknown as Db,
      job.kind,
      { feedbackId: row.id },
      {
        dedupeKey: job.dedupeKeyOf(row.id),
        maxAttempts: job.maxAttempts,
      },
    );
    return row;
  });
}

/** Records the send result; only the first result counts, so a late duplicate cannot overwrite it. */
export async function markFeedbackSent(db: Db, id: string, messageId: string): Promise<boolean> {
  const rows = await db
    .update(feedback)
    .set({ emailStatus: 'sent', emailSentAt: new Date(), emailMessageId: messageId })
    .where(and(eq(feedback.id, id), ne(feedback.emailStatus, 'sent')))
    .returning({ id: feedback.id });
  return rows.length > 0;
}

export async function markFeedbackFailed(db: Db, id: string): Promise<void> {
  await db
    .update(feedback)
    .set({ emailStatus: 'failed' })
    .where(and(eq(feedback.id, id), ne(feedback.emailStatus, 'sent')));
}

export async function markFeedbackQueued(db: Db, id: string): Promise<void> {
  await db
    .update(feedback)
    .set({ emailStatus: 'queued' })
    .where(and(eq(feedback.id, id), ne(feedback.emailStatus, 'sent')));
}

export interface OutboxInsert {
  feedbackId: string | null;
  toAddress: string;
  fromAddress: string;
  subject: string;
  text: string;
  html: string;
}

/**
 * Stores an email in the outbox. For a submission's email this is idempotent: a retry after
 * a crash finds the earlier row instead of writing a second one.
 */
export async function insertOutboxMessage(db: Db, message: OutboxInsert): Promise<{ id: string }> {
  if (!message.feedbackId) {
    const [row] = await db.insert(outbox).values(message).returning({ id: outbox.id });
    return row;
  }
  const feedbackId = message.feedbackId;
  return db.transaction(async (tx) => {
    // Serialises concurrent writers for the same submission (the lease makes them rare).
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${'outbox:' + feedbackId}))`);
    const existing = await tx
      .select({ id: outbox.id })
      .from(outbox)
      .where(eq(outbox.feedbackId, feedbackId))
      .limit(1);
    if (existing[0]) return existing[0];
    const [row] = await tx.insert(outbox).values(message).returning({ id: outbox.id });
    return row;
  });
}
