import { and, eq, isNull, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { perDatabase } from '../../db/prepared';
import { rawRows, tableRow } from '../../db/rows';
import { leads, sessions } from '../../db/schema';
import { enqueueSql, type JobKind } from '../../jobs/queue';
import type { CoachingDocument } from '../../../core/coaching-format';
import type { TranscriptEntry } from '../../../core/transcript';
import { isSessionId, type SessionRecord, type SessionRow } from './data';

/**
 * Creating a session is the busiest write (every role-play starts with one), so the statement
 * is built once per database and, on PostgreSQL, parsed once per connection (a named statement):
 * building the insert's SQL was about a sixth of the request's CPU (bench:api profile).
 */
const insertStatement = perDatabase((db) =>
  db
    .insert(sessions)
    .values({ stage: sql.placeholder('stage') })
    .returning()
    .prepare('insert_session'),
);

export async function insertSession(db: Db, stage: string): Promise<SessionRow> {
  const rows = await insertStatement(db).execute({ stage });
  return rows[0];
}

/** A job to store with a write, in the same statement (see `enqueueSql`). */
export interface FollowUpJob<P> {
  kind: JobKind<P, any>;
  payload: P;
  dedupeKey: string;
}

/**
 * Saves the call's final entries and ends the session, in one statement. Earlier coaching
 * described a different transcript, so it is cleared; the transcript gets the new `version`, and
 * `then` (the coaching job for that version) is queued by the same statement when the session
 * exists, so a saved transcript always has its job and a job always has its transcript.
 */
export async function saveSessionTranscript<P>(
  db: Db,
  id: string,
  input: {
    transcript: TranscriptEntry[];
    duration: string | null;
    endedAt: Date;
    version: string;
    /** The engines that served the live call (kept when a later save does not know them). */
    engines?: unknown;
    then?: FollowUpJob<P>;
  },
): Promise<SessionRecord | null> {
  if (!isSessionId(id)) return null;
  const engines =
    input.engines === undefined ? sql`` : sql`, engines = ${JSON.stringify(input.engines)}::jsonb`;
  const followUp = input.then
    ? sql`, queued as (${enqueueSql(
        input.then.kind,
        input.then.payload,
        { dedupeKey: input.then.dedupeKey },
        sql`exists (select 1 from saved)`,
      )})`
    : sql``;
  const result = await db.execute(sql`
    with saved as (
      update ${sessions}
      set transcript = ${JSON.stringify(input.transcript)}::jsonb, duration = ${input.duration},
        ended_at = ${input.endedAt.toISOString()}::timestamptz, coaching = null,
        coaching_engine = null, metrics = null, transcript_version = ${input.version}${engines}
      where id = ${id}
      returning *
    )${followUp}
    select saved.*, exists (
      select 1 from ${leads} where ${leads.sessionId} = saved.id and ${leads.sessionKind} = 'roleplay'
    ) as unlocked_by_lead
    from saved`);
  const raw = rawRows(result)[0];
  return raw ? { ...tableRow(sessions, raw), unlocked: Boolean(raw.unlocked_by_lead) } : null;
}

/**
 * Stores the coaching written for one version of the transcript: only when that version is still
 * the session's and nothing is stored yet, so the first coaching of a transcript is the one kept
 * however many writers raced. Returns whether it was stored.
 */
export async function storeSessionCoaching(
  db: Db,
  id: string,
  version: string | null,
  input: { coaching: CoachingDocument; coachingEngine: string; metrics: unknown },
): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ coaching: input.coaching, coachingEngine: input.coachingEngine, metrics: input.metrics ?? null })
    .where(
      and(
        eq(sessions.id, id),
        isNull(sessions.coaching),
        version === null ? isNull(sessions.transcriptVersion) : eq(sessions.transcriptVersion, version),
      ),
    )
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Records that a live call started on the session; false when there is no such session. */
export async function markCallStarted(db: Db, id: string): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ callStartedAt: new Date() })
    .where(eq(sessions.id, id))
    .returning({ id: sessions.id });
  return rows.length > 0;
}
