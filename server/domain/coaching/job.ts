import { z } from 'zod';
import { UUID_PATTERN } from '../../../core/ids';
import type { AppContext } from '../../context';
import { defineJob, type JobRun } from '../../jobs/queue';
import { COACH_JOB, COACH_JOB_LEASE_MS, coachDedupeKey } from './keys';
import { coachSubject } from './service';
import { COACHING_KINDS, hasWords, loadSubject, type CoachingKind } from './subjects';

const payloadSchema = z.object({
  kind: z.enum(COACHING_KINDS),
  id: z.string().regex(UUID_PATTERN, 'not a session id'),
  /** The transcript version it was queued for. */
  version: z.string().max(64).nullable(),
});
export type CoachJobPayload = z.infer<typeof payloadSchema>;

/**
 * The `coach` step of a call's life: queued with every transcript the server keeps (a call's
 * save when it ends, a page's save for a call that ran elsewhere, a recording's transcription or
 * speaker swap), it coaches that version and stores the document. A transcript changed since,
 * or coached already (by a request that could not wait), is left as it is.
 */
export const coachJob = defineJob({
  name: COACH_JOB,
  schema: payloadSchema,
  leaseMs: COACH_JOB_LEASE_MS,
  maxAttempts: 5,
  async handle(payload, { deps: ctx, signal }: JobRun<AppContext>) {
    const subject = await loadSubject(ctx.database.db, payload.kind, payload.id);
    if (!subject || subject.coaching || subject.version !== payload.version || !hasWords(subject)) return;
    await coachSubject(ctx, subject, { signal });
  },
});

/** The coaching job for this transcript version, to store with the write that saves it. */
export function coachFollowUp(kind: CoachingKind, id: string, version: string | null) {
  return {
    kind: coachJob,
    payload: { kind, id, version } satisfies CoachJobPayload,
    dedupeKey: coachDedupeKey(kind, id, version),
  };
}
