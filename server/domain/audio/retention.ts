import type { AppContext } from '../../context';
import { z } from 'zod';
import { defineJob, enqueue, forgetJobOwners, type JobRun } from '../../jobs/queue';
import { findRecordingsUploadedBefore } from './data';
import { deleteAudioSessions } from './mutations';

/**
 * Retention (RETENTION_DAYS, default 90): a call recording holds a customer's voice and words,
 * so once it is older than that it is deleted whole: the stored file, then its row (transcript,
 * coaching, metrics). Role-play sessions are practice with the built-in homeowner and hold no
 * third party's data; they are not purged. A daily job does the work, once per day however many
 * processes run it (one job per date).
 */
export const PURGE_RECORDINGS_JOB = 'purge-old-recordings';

const BATCH = 200;
const DAY_MS = 24 * 3600_000;

const dedupeKeyFor = (at: Date) => `${PURGE_RECORDINGS_JOB}:${at.toISOString().slice(0, 10)}`;

/** Deletes recordings uploaded before now - RETENTION_DAYS; returns how many. */
export async function purgeOldRecordings(
  ctx: AppContext,
  now = new Date(),
  signal?: AbortSignal,
): Promise<{ removed: number }> {
  const days = ctx.config.RETENTION_DAYS;
  if (days <= 0) return { removed: 0 };
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  const db = ctx.database.db;
  const storage = ctx.providers.get('storage');
  let removed = 0;
  for (;;) {
    signal?.throwIfAborted();
    const rows = await findRecordingsUploadedBefore(db, cutoff, BATCH);
    if (rows.length === 0) break;
    // The file goes first: a crash in between leaves a row whose file is gone, removed next run.
    for (const row of rows) await storage.remove(row.storageKey);
    await deleteAudioSessions(
      db,
      rows.map((r) => r.id),
    );
    removed += rows.length;
    if (rows.length < BATCH) break;
  }
  return { removed };
}

/** Queues today's purge (a no-op when it is already queued or done) so a restart never skips a day. */
export async function scheduleRetention(ctx: AppContext, at = new Date()): Promise<void> {
  if (ctx.config.RETENTION_DAYS <= 0) return;
  await enqueue(ctx.database.db, purgeRecordingsJob, {}, { dedupeKey: dedupeKeyFor(at), runAt: at });
}

/** The daily purge; it takes no payload and queues the next day's run when it finishes. */
export const purgeRecordingsJob = defineJob({
  name: PURGE_RECORDINGS_JOB,
  schema: z.object({}),
  maxAttempts: 3,
  async handle(_payload, { deps: ctx, signal }: JobRun<AppContext>) {
    const { removed } = await purgeOldRecordings(ctx, new Date(), signal);
    if (removed > 0) {
      ctx.log.info(
        { removed, retentionDays: ctx.config.RETENTION_DAYS },
        'removed recordings past retention',
      );
    }
    // Whose a job was is needed only while the hour's fair shares are counted.
    await forgetJobOwners(ctx.database.db, new Date(Date.now() - DAY_MS));
    // The next run, a day later.
    await scheduleRetention(ctx, new Date(Date.now() + DAY_MS));
  },
});
