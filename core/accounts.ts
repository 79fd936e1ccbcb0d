import { z } from 'zod';
import { emailField } from './schemas';
import { SECTION_KEYS } from './coaching-format';

/**
 * Optional sign-in by an emailed link, and a signed-in rep's progress: the shapes that cross
 * between server and client (docs/api.md, "Accounts and progress").
 */

/** Minutes a sign-in link works for. */
export const SIGN_IN_LINK_MINUTES = 15;

/** A sign-in link's token: 32 random bytes, base64url (43 characters). */
export const SIGN_IN_TOKEN_PATTERN = /^[A-Za-z0-9_-]{43}$/;

export const signInRequestSchema = z.object({ email: emailField() }).strict();
export type SignInRequest = z.infer<typeof signInRequestSchema>;

export const LINK_INVALID_MESSAGE = 'This sign-in link has expired or was already used. Ask for a new one.';

export const signInVerifySchema = z
  .object({ token: z.string().regex(SIGN_IN_TOKEN_PATTERN, LINK_INVALID_MESSAGE) })
  .strict();
export type SignInVerify = z.infer<typeof signInVerifySchema>;

/** Who is signed in on this browser; `account` is null when nobody is. */
export const accountViewSchema = z.object({
  account: z.object({ email: z.string() }).nullable(),
});
export type AccountView = z.infer<typeof accountViewSchema>;

/** Practice this browser made before signing in that the account can take in. */
export const claimableSchema = z.object({ roleplays: z.number().int(), recordings: z.number().int() });
export type Claimable = z.infer<typeof claimableSchema>;

/** One role-play or recording in a rep's progress. */
export const progressItemSchema = z.object({
  kind: z.enum(['roleplay', 'audio']),
  id: z.string(),
  stage: z.string(),
  /** When it was practised (role-play) or uploaded (recording), ISO. */
  at: z.string(),
  /** A recording's file name; null for a role-play. */
  fileName: z.string().nullable(),
  /** Whether its coaching is stored yet. */
  coached: z.boolean(),
  /** Section scores 0-10; null when not scored or still locked behind the email form. */
  scores: z.partialRecord(z.enum(SECTION_KEYS), z.number().int().min(0).max(10).nullable()),
  /** Mean of the six scores when all are known, one decimal. */
  overall: z.number().nullable(),
  /** Rep share of the words spoken, 0-100. */
  talkRatio: z.number().nullable(),
  questions: z.number().int().nullable(),
  /** Longest run of rep words without the homeowner speaking. */
  longestMonologueWords: z.number().int().nullable(),
});
export type ProgressItem = z.infer<typeof progressItemSchema>;

export const progressViewSchema = z.object({
  email: z.string(),
  /** Newest first. */
  items: z.array(progressItemSchema),
  /** Lowest average section score over the scored calls; null before any is scored. */
  weakest: z
    .object({ key: z.enum(SECTION_KEYS), title: z.string(), average: z.number(), calls: z.number().int() })
    .nullable(),
  /** True when more calls exist than the list holds (the newest are shown). */
  truncated: z.boolean(),
});
export type ProgressView = z.infer<typeof progressViewSchema>;

/** Most calls the progress page lists and charts. */
export const PROGRESS_MAX_ITEMS = 500;
