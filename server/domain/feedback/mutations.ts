import { and, eq, ne } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { feedback } from '../../db/schema';
import { enqueue, type JobKind } from '../../jobs/queue';
import type { FeedbackRow } from './data';

/**
 * Stores a submission and its email job in one transaction: either both exist or neither,
 * so an accepted submission always has a job that will deliver it.
 */
export async function createFeedbackWithJob(
  db: Db,
  values: { sessionId: string | null; name: string; email: string },
  job: { kind: JobKind<{ feedbackId: string }, any>; dedupeKeyOf: (id: string) => string },
  /** Runs first in the same transaction; throws to refuse the submission (nothing is stored). */
  admit?: (tx: Db) => Promise<void>,
): Promise<FeedbackRow> {
  return db.transaction(async (tx) => {
    if (admit) await admit(tx as unknown as Db);
    const [row] = await tx.insert(feedback).values(values).returning();
    await enqueue(
      tx as unknown as Db,
      job.kind,
      { feedbackId: row.id },
      { dedupeKey: job.dedupeKeyOf(row.id) },
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
