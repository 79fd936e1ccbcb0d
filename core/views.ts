import { z } from 'zod';
import { coachingDocumentSchema } from './coaching-document';
import { servedBySchema } from './engines';
import { PROCESSING_STEPS } from './processing';
import { audioSessionSchema, sessionSchema } from './schemas';
import { engineInfoSchema } from './voice-protocol';

/**
 * What the API answers with (docs/api.md), one schema each, imported by the server that builds
 * them and the client that reads them.
 */

/** POST /api/sessions/:id/coaching and /api/audio/:id/coaching. */
export const coachingViewSchema = z.object({
  /** Until `unlocked`, the gated sections carry only their heading and the locked line. */
  coaching: z.string(),
  /**
   * The same coaching as a structured document, gated the same way (a locked section has
   * `locked: true` and no score or advice); null for a legacy text not in the coaching format.
   */
  document: coachingDocumentSchema.nullable(),
  metrics: z.unknown(),
  engine: servedBySchema,
  note: z.string().optional(),
  unlocked: z.boolean(),
});
export type CoachingView = z.infer<typeof coachingViewSchema>;

/** GET /api/sessions/:id: a role-play session. */
export const sessionViewSchema = sessionSchema.extend({
  unlocked: z.boolean(),
  /** The engines that served the live call, as the call's `engines` event listed them. */
  engines: z.array(engineInfoSchema).nullable(),
});
export type SessionView = z.infer<typeof sessionViewSchema>;

export const AUDIO_STATUSES = ['uploaded', 'transcribing', 'transcribed', 'failed'] as const;
export const ATTRIBUTIONS = ['stereo', 'turns', 'single'] as const;

/** GET /api/audio/:id: an uploaded call recording and how far its transcription got. */
export const audioSessionViewSchema = audioSessionSchema.extend({
  status: z.enum(AUDIO_STATUSES),
  /** Percent of the whole processing done (every step weighted by its expected time). */
  progress: z.number(),
  /** The step under way (core/processing.ts); null while it waits its turn and once it is done. */
  step: z.enum(PROCESSING_STEPS).nullable(),
  /** Time left, estimated from the recording's length and the pace so far; null when not running. */
  estimatedSecondsLeft: z.number().nullable(),
  /**
   * When a recording waiting its turn starts, when its client's hourly minutes of audio are spent
   * (ISO time); null otherwise.
   */
  waitingUntil: z.string().nullable(),
  error: z.string().nullable(),
  durationMs: z.number().nullable(),
  attribution: z.enum(ATTRIBUTIONS).nullable(),
  attributionIsGuess: z.boolean(),
  speakersSwapped: z.boolean(),
  sttEngine: servedBySchema.nullable(),
  /** How the voices of a one-channel recording were told apart (null for two channels and older rows). */
  speakerEngine: servedBySchema.nullable(),
  coachingEngine: servedBySchema.nullable(),
  metrics: z.unknown(),
  unlocked: z.boolean(),
});
export type AudioSessionView = z.infer<typeof audioSessionViewSchema>;
