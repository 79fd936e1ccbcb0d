import { leadRequestSchema } from '../../../core/leads';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../errors';
import { cleanEmail, cleanName } from '../feedback/sanitize';
import { findLead, sessionExists } from './data';
import { insertLead } from './mutations';

/** POST /api/leads body (docs/api.md); the one definition lives in core/ with the form. */
export const leadSchema = leadRequestSchema;

/** Stores the lead against the session it came from; the same email on the same session is stored once. */
export async function captureLead(ctx: AppContext, body: unknown): Promise<{ id: string; unlocked: true }> {
  const parsed = leadSchema.safeParse(body ?? {});
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid lead', 'invalid_request');
  const { sessionId, sessionKind, source, marketingOptIn } = parsed.data;
  const email = cleanEmail(parsed.data.email);
  const name = parsed.data.name ? cleanName(parsed.data.name) || null : null;
  const db = ctx.database.db;
  if (!(await sessionExists(db, sessionKind, sessionId))) {
    throw notFound(sessionKind === 'audio' ? 'Audio session' : 'Session');
  }
  const existing = await findLead(db, sessionKind, sessionId, email);
  if (existing) return { id: existing.id, unlocked: true };
  const row = await insertLead(db, { sessionId, sessionKind, email, name, marketingOptIn, source });
  return { id: row.id, unlocked: true };
}
