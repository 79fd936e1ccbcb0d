import { eq, getTableColumns, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { sessions } from '../../db/schema';
import type { TranscriptEntry } from '../../../core/transcript';
import { isSessionId, unlockedExpr, type SessionRecord, type SessionRow } from './data';

/**
 * Creating a session is the busiest write (every role-play starts with one), so the statement
 * is built once per database and, on PostgreSQL, parsed once per connection (a named statement):
 * building the insert's SQL was about a sixth of the request's CPU (bench:api profile).
 */
function prepareInsertSession(db: Db) {
  return db
    .insert(sessions)
    .values({ stage: sql.placeholder('stage') })
    .returning()
    .prepare('insert_session');
}

const insertStatements = new WeakMap<Db, ReturnType<typeof prepareInsertSession>>();

export async function insertSession(db: Db, stage: string): Promise<SessionRow> {
  let statement = insertStatements.get(db);
  if (!statement) {
    statement = prepareInsertSession(db);
    insertStatements.set(db, statement);
  }
  const rows = await statement.execute({ stage });
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
  const rows = await db
    .update(sessions)
    .set({
      transcript: input.transcript,
      duration: input.duration,
      endedAt: input.endedAt,
      coaching: null,
      coachingEngine: null,
      metrics: null,
      ...(input.engines !== undefined ? { engines: input.engines } : {}),
    })
    .where(eq(sessions.id, id))
    .returning({ ...getTableColumns(sessions), unlocked: unlockedExpr });
  const row = rows[0];
  return row ? { ...row, unlocked: Boolean(row.unlocked) } : null;
}

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
