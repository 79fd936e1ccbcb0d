import { randomUUID } from 'node:crypto';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { enqueue } from '../../jobs/queue';
import { coachFollowUp } from '../coaching/job';
import { updateAudioSession, type AudioSessionPatch } from './mutations';

/**
 * Writes a new version of the recording's transcript (the patch) and, when `coach` is set,
 * queues its coaching in the same transaction: the rep can close the page and find the coaching
 * later.
 */
export async function saveAudioVersion(
  ctx: AppContext,
  id: string,
  patch: AudioSessionPatch,
  coach: boolean,
) {
  const version = randomUUID();
  const updated = await ctx.database.db.transaction(async (tx) => {
    const db = tx as unknown as Db;
    const row = await updateAudioSession(db, id, {
      ...patch,
      transcriptVersion: version,
      ...(coach ? { step: 'coaching' } : {}),
    });
    if (row && coach) {
      const job = coachFollowUp('audio', id, version);
      await enqueue(db, job.kind, job.payload, { dedupeKey: job.dedupeKey });
    }
    return row;
  });
  if (coach) ctx.wakeWorker();
  return updated;
}
