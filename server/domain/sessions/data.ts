import { isUuid } from '../../../core/ids';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { leads, sessions } from '../../db/schema';
import { z } from 'zod';
import { coachingText } from '../../../core/coaching-document';
import type { SessionView } from '../../../core/views';
import { engineInfoSchema } from '../../../core/voice-protocol';
import { capTranscript } from '../../../core/transcript';

export type SessionRow = typeof sessions.$inferSelect;

/** A session as stored, plus whether the rep unlocked the gated coaching for it. */
export interface SessionRecord extends SessionRow {
  unlocked: boolean;
}

/** Ids come straight from the URL; anything that is not a UUID cannot name a session. */
export function isSessionId(id: string): boolean {
  return isUuid(id);
}

/** Whether a lead unlocked the gated coaching of this role-play (a column expression). */
export const unlockedExpr = sql<boolean>`exists (select 1 from ${leads} where ${and(
  eq(leads.sessionId, sessions.id),
  eq(leads.sessionKind, 'roleplay'),
)})`;

export async function findSession(db: Db, id: string): Promise<SessionRecord | null> {
  if (!isSessionId(id)) return null;
  const rows = await db
    .select({
      session: sessions,
      unlocked: unlockedExpr,
    })
    .from(sessions)
    .where(eq(sessions.id, id))
    .limit(1);
  const row = rows[0];
  if (!row) return null;
  // Read back at most what one call can produce, however the row was stored.
  const transcript = capTranscript(row.session.transcript ?? []);
  return { ...row.session, transcript, unlocked: Boolean(row.unlocked) };
}

/** Until the session is unlocked, the gated coaching sections leave only as heading and locked line. */
export function toSessionView(row: SessionRow & { unlocked?: boolean }): SessionView {
  const unlocked = row.unlocked ?? false;
  return {
    id: row.id,
    stage: row.stage,
    startedAt: row.startedAt.toISOString(),
    endedAt: row.endedAt ? row.endedAt.toISOString() : null,
    duration: row.duration ?? null,
    transcript: capTranscript(row.transcript ?? []),
    coaching: coachingText(row.coaching, unlocked),
    unlocked,
    engines: storedEngines(row.engines),
  };
}

/** Built once: a zod schema built per call cost more than parsing with it (every session read). */
const storedEnginesSchema = z.array(engineInfoSchema);

/** The engines saved with a call, as its `engines` event listed them; anything else reads as none. */
function storedEngines(stored: unknown): SessionView['engines'] {
  if (stored === null || stored === undefined) return null;
  const parsed = storedEnginesSchema.safeParse(stored);
  return parsed.success ? parsed.data : null;
}
