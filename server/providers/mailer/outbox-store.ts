import { eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { outbox } from '../../db/schema';

/**
 * The outbox mailer's own table: it writes here directly, as the storage provider writes its
 * files, so the provider depends on nothing in domain/ (docs/ARCHITECTURE.md, "Directions").
 */

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
