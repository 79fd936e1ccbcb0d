import type { CoachingKind } from './subjects';

export const COACH_JOB = 'coach';

/** One coaching job per transcript version: a transcript saved again gets a job of its own. */
export function coachDedupeKey(kind: CoachingKind, id: string, version: string | null): string {
  return `${COACH_JOB}:${kind}:${id}:${version ?? 'unversioned'}`;
}

/** Coaching a long transcript on a busy machine takes seconds; a lease of a minute covers it. */
export const COACH_JOB_LEASE_MS = 60_000;
