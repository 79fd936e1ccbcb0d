import { z } from 'zod';
import { STAGES } from './stages';
import { transcriptEntrySchema } from './transcript';
import { storableText } from './text';
import { MAX_CALL_SEC, MAX_CALL_TRANSCRIPT_CHARS, MAX_CALL_TRANSCRIPT_ENTRIES } from './constants';

/** Entities and insert shapes (spec §3). Timestamps travel as ISO strings. */
export const stageSchema = z.enum(STAGES);

export const sessionSchema = z.object({
  id: z.string(),
  stage: z.string(),
  startedAt: z.string(),
  endedAt: z.string().nullable(),
  duration: z.string().nullable(),
  transcript: z.array(transcriptEntrySchema),
  coaching: z.string().nullable(),
});
export type Session = z.infer<typeof sessionSchema>;

export const insertSessionSchema = z.object({ stage: stageSchema }).strict();
export type InsertSession = z.infer<typeof insertSessionSchema>;

export const saveTranscriptSchema = z.object({
  transcript: z
    .array(transcriptEntrySchema)
    .max(
      MAX_CALL_TRANSCRIPT_ENTRIES,
      `A call of at most ${MAX_CALL_SEC / 60} minutes has at most ${MAX_CALL_TRANSCRIPT_ENTRIES} entries.`,
    )
    .refine(
      (entries) => entries.reduce((n, e) => n + e.transcript.length, 0) <= MAX_CALL_TRANSCRIPT_CHARS,
      `A call of at most ${MAX_CALL_SEC / 60} minutes produces at most ${MAX_CALL_TRANSCRIPT_CHARS.toLocaleString('en-US')} characters of transcript.`,
    ),
  duration: z
    .string()
    .regex(/^\d{1,6}$/, 'duration must be a string of whole seconds')
    .refine((d) => Number(d) <= MAX_CALL_SEC, `duration is at most ${MAX_CALL_SEC} seconds (a call's limit)`)
    .optional(),
});
export type SaveTranscript = z.infer<typeof saveTranscriptSchema>;

export const audioSessionSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  stage: z.string(),
  uploadedAt: z.string(),
  transcript: z.array(transcriptEntrySchema),
  coaching: z.string().nullable(),
});
export type AudioSession = z.infer<typeof audioSessionSchema>;

export const insertAudioSessionSchema = z.object({
  fileName: z.string().min(1).max(255),
  stage: stageSchema,
});

export const EMAIL_MESSAGE = 'Please enter a valid email address.';
export const NAME_MAX = 100;
export const EMAIL_MAX = 254;

/** An email address as every form takes it: trimmed, at most 254 characters, valid. */
export function emailField() {
  return storableText()
    .trim()
    .min(1, 'Email is required.')
    .max(EMAIL_MAX, EMAIL_MESSAGE)
    .pipe(z.email(EMAIL_MESSAGE));
}

export const feedbackFormSchema = z.object({
  name: storableText()
    .trim()
    .min(1, 'Name is required.')
    .max(NAME_MAX, `Name must be at most ${NAME_MAX} characters.`),
  email: emailField(),
});

/**
 * POST /api/feedback: the summary of one coached role-play, sent to one address. `resend`
 * asks for it again to an address it was already sent to (limited: MAX_SUMMARIES_PER_ADDRESS).
 */
export const insertFeedbackSchema = feedbackFormSchema.extend({
  sessionId: z
    .string({ error: 'sessionId is required: a summary is sent for a coached practice call.' })
    .uuid('sessionId must be a session id.'),
  resend: z.boolean().optional(),
});
export type InsertFeedback = z.infer<typeof insertFeedbackSchema>;

export const feedbackSchema = z.object({
  id: z.string(),
  sessionId: z.string().nullable(),
  name: z.string(),
  email: z.string(),
  submittedAt: z.string(),
});
export type Feedback = z.infer<typeof feedbackSchema>;

export const insertUserSchema = z
  .object({ username: z.string().min(1), password: z.string().min(1) })
  .strict();
export type InsertUser = z.infer<typeof insertUserSchema>;

/** The JSON error body of every failed API call. */
export const apiErrorSchema = z.object({ error: z.object({ code: z.string(), message: z.string() }) });
export type ApiError = z.infer<typeof apiErrorSchema>;
