import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { perDatabase } from '../../db/prepared';
import { sessions } from '../../db/schema';
import type { TranscriptEntry } from '../../../core/transcript';
import { isSessionId, unlockedExpr, type SessionRecord, type SessionRow } from './data';

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

/**
 * Saves the call's final entries and ends the session, in one statement. Earlier coaching
 * described a different transcript, so it is cleared.
 */
export async function saveSessionTranscript(
  db: Db,
  id: string,
  input: {
    transcript: TranscriptEntry[];
    duration: string | null;
    endedAt: Date;
    /** The engines that served the live call (kept when a later save does not know them). */
    engines?: unknown;
  },
): Promise<SessionRecord | null> {
  if (!isSessionId(id)) return null;
  const withEngines = input.engines !== undefined;
  const statement = (withEngines ? saveWithEngines : saveTranscript)(db);
  const rows = await statement.execute({
    id,
    transcript: input.transcript,
    duration: input.duration,
    endedAt: input.endedAt,
    ...(withEngines ? { engines: input.engines } : {}),
  });
  const row = rows[0];
  return row ? { ...row, unlocked: Boolean(row.unlocked) } : null;
}

/**
 * A value supplied when a prepared update runs. Drizzle's update types take only values, though
 * at run time it encodes a placeholder with the column's own mapping (JSON for jsonb, ISO text
 * for timestamps), as its inserts do; the session tests read the saved transcript back.
 */
const value = <T>(name: string) => sql.placeholder(name) as unknown as T;

/**
 * The save at the end of every call, built once per database (with and without the engines) and
 * parsed once per PostgreSQL connection, like session creation.
 */
function prepareSaveTranscript(db: Db, withEngines: boolean) {
  return db
    .update(sessions)
    .set({
      transcript: value<TranscriptEntry[]>('transcript'),
      duration: value<string | null>('duration'),
      endedAt: value<Date>('endedAt'),
      coaching: null,
      coachingEngine: null,
      metrics: null,
      ...(withEngines ? { engines: value<unknown>('engines') } : {}),
    })
    .where(eq(sessions.id, sql.placeholder('id')))
    .returning({ ...getTableColumns(sessions), unlocked: unlockedExpr })
    .prepare(withEngines ? 'save_session_transcript_engines' : 'save_session_transcript');
}

const saveTranscript = perDatabase((db) => prepareSaveTranscript(db, false));
const saveWithEngines = perDatabase((db) => prepareSaveTranscript(db, true));

export async function saveSessionCoaching(
  db: Db,
  id: string,
  input: { coaching: string; coachingEngine: string; metrics: unknown },
): Promise<SessionRow | null> {
  const rows = await db
    .update(sessions)
    .set({ coaching: input.coaching, coachingEngine: input.coachingEngine, metrics: input.metrics ?? null })
    .where(eq(sessions.id, id))
    .returning();
  return rows[0] ?? null;
}
