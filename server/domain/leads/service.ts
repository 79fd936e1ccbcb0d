import { z } from 'zod';
import { emailField, NAME_MAX } from '../../../core/schemas';
import { storableText } from '../../../core/text';
import type { AppContext } from '../../context';
import { notFound } from '../../errors';
import { cleanEmail, cleanName } from '../feedback/sanitize';
import { findLead, sessionExists } from './data';
import { insertLead } from './mutations';

export const CONSENT_MESSAGE = 'Please agree to receive your results by email to unlock them.';

/** POST /api/leads body (docs/api.md). */
export const leadSchema = z.object({
  email: emailField(),
  name: storableText()
    .trim()
    .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters.`)
    .nullable()
    .optional(),
  consent: z.literal(true, CONSENT_MESSAGE),
  sessionId: z.uuid('sessionId must be the id of a coached session.'),
  sessionKind: z.enum(['roleplay', 'audio'], "sessionKind must be 'roleplay' or 'audio'."),
  source: z.enum(['builtin', 'hubspot'], "source must be 'builtin' or 'hubspot'.").default('builtin'),
});

/** Stores the lead against the session it came from; the same email on the same session is stored once. */
export async function captureLead(
  ctx: AppContext,
  input: z.infer<typeof leadSchema>,
): Promise<{ id: string; unlocked: true }> {
  const { sessionId, sessionKind, source, consent } = input;
  const email = cleanEmail(input.email);
  const name = input.name ? cleanName(input.name) || null : null;
  const db = ctx.database.db;
  if (!(await sessionExists(db, sessionKind, sessionId))) {
    throw notFound(sessionKind === 'audio' ? 'Audio session' : 'Session');
  }
  const existing = await findLead(db, sessionKind, sessionId, email);
  if (existing) return { id: existing.id, unlocked: true };
  const row = await insertLead(db, { sessionId, sessionKind, email, name, consent, source });
  return { id: row.id, unlocked: true };
}
