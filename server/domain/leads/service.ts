import type { z } from 'zod';
import { leadRequestSchema } from '../../../core/leads';
import type { AppContext } from '../../context';
import { notFound } from '../../errors';
import { cleanEmail, cleanName } from '../feedback/sanitize';
import { findLead, sessionExists } from './data';
import { insertLead } from './mutations';

/** POST /api/leads body (docs/api.md); the one definition lives in core/ with the form. */
export const leadSchema = leadRequestSchema;

/**
 * Stores the lead against the session it came from; the same email on the same session is stored
 * once. The answer is the same whether or not the email had already unlocked the session, so
 * submitting someone's address reveals nothing about them.
 */
export async function captureLead(
  ctx: AppContext,
  input: z.infer<typeof leadSchema>,
): Promise<{ unlocked: true }> {
  const { sessionId, sessionKind, source, marketingOptIn } = input;
  const email = cleanEmail(input.email);
  const name = input.name ? cleanName(input.name) || null : null;
  const db = ctx.database.db;
  if (!(await sessionExists(db, sessionKind, sessionId))) {
    throw notFound(sessionKind === 'audio' ? 'Audio session' : 'Session');
  }
  const existing = await findLead(db, sessionKind, sessionId, email);
  if (!existing) await insertLead(db, { sessionId, sessionKind, email, name, marketingOptIn, source });
  return { unlocked: true };
}
