import { z } from 'zod';
import { EMAIL_MAX, EMAIL_MESSAGE, NAME_MAX } from '../../../core/schemas';
import type { AppContext } from '../../context';
import { badRequest, notFound } from '../../errors';
import { cleanEmail, cleanName } from '../feedback/sanitize';
import { findLead, sessionExists } from './data';
import { insertLead } from './mutations';

export const CONSENT_MESSAGE = 'Please agree to receive your results by email to unlock them.';

/** POST /api/leads body (docs/api.md). */
export const leadSchema = z.object({
  email: z
    .string()
    .trim()
    .min(1, 'Email is required.')
    .max(EMAIL_MAX, EMAIL_MESSAGE)
    .pipe(z.email(EMAIL_MESSAGE)),
  name: z.string().trim().max(NAME_MAX, `Name must be at most ${NAME_MAX} characters.`).nullable().optional(),
  consent: z.literal(true, CONSENT_MESSAGE),
  sessionId: z.uuid('sessionId must be the id of a coached session.'),
  sessionKind: z.enum(['roleplay', 'audio'], "sessionKind must be 'roleplay' or 'audio'."),
  source: z.enum(['builtin', 'hubspot'], "source must be 'builtin' or 'hubspot'.").default('builtin'),
});

/** Stores the lead against the session it came from; the same email on the same session is stored once. */
export async function captureLead(ctx: AppContext, body: unknown): Promise<{ id: string; unlocked: true }> {
  const parsed = leadSchema.safeParse(body ?? {});
  if (!parsed.success) throw badRequest(parsed.error.issues[0]?.message ?? 'Invalid lead', 'invalid_request');
  const { sessionId, sessionKind, source, consent } = parsed.data;
  const email = cleanEmail(parsed.data.email);
  const name = parsed.data.name ? cleanName(parsed.data.name) || null : null;
  const db = ctx.database.db;
  if (!(await sessionExists(db, sessionKind, sessionId))) {
    throw notFound(sessionKind === 'audio' ? 'Audio session' : 'Session');
  }
  const existing = await findLead(db, sessionKind, sessionId, email);
  if (existing) return { id: existing.id, unlocked: true };
  const row = await insertLead(db, { sessionId, sessionKind, email, name, consent, source });
  return { id: row.id, unlocked: true };
}
