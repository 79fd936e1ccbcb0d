import { z } from 'zod';
import { emailField, NAME_MAX } from './schemas';
import { storableText } from './text';

/**
 * The unlock form (spec §2 gate): an email alone unlocks the full coaching. A name is optional,
 * and "Send me coaching tips" is a separate, unticked, optional choice stored with the lead.
 */
export const leadFormSchema = z.object({
  email: emailField(),
  name: storableText()
    .trim()
    .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters.`)
    .nullable()
    .optional(),
  marketingOptIn: z.boolean('marketingOptIn must be true or false.').optional().default(false),
});
export type LeadFormInput = z.input<typeof leadFormSchema>;

export const LEAD_SESSION_KINDS = ['roleplay', 'audio'] as const;
export type LeadSessionKind = (typeof LEAD_SESSION_KINDS)[number];

/** POST /api/leads body: the form plus which session it unlocks and where it was filled in. */
export const leadRequestSchema = leadFormSchema.extend({
  sessionId: z.uuid('sessionId must be the id of a coached session.'),
  sessionKind: z.enum(LEAD_SESSION_KINDS, "sessionKind must be 'roleplay' or 'audio'."),
  source: z.enum(['builtin', 'hubspot'], "source must be 'builtin' or 'hubspot'.").default('builtin'),
});
export type LeadRequest = z.input<typeof leadRequestSchema>;

export const MARKETING_OPT_IN_LABEL = 'Send me coaching tips by email (optional).';
