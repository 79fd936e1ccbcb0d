import { z } from 'zod';
import { engineQualitySchema } from './engines';
import { STAGES } from './stages';
import { plainText, storableText } from './text';

/**
 * The /api/voice WebSocket contract, written once: the server validates with these schemas and
 * the browser engines type their messages from them (docs/voice.md).
 */

/** The one audio format the socket accepts upstream: 16 kHz mono signed 16-bit little-endian PCM. */
export const UPSTREAM_SAMPLE_RATE = 16_000;
/** Largest binary frame accepted (1 s of audio); the browser sends about 20-100 ms per frame. */
export const MAX_FRAME_BYTES = UPSTREAM_SAMPLE_RATE * 2;
/** Audio may arrive ahead of real time by this much (network bursts) before it counts as a flood. */
export const FLOOD_ALLOWANCE_MS = 5000;
/** JSON control messages allowed per second. */
export const MAX_CONTROL_PER_SEC = 20;
/** A typed (or browser-recognised) rep turn: 1-1,000 characters after trimming. */
export const MAX_USER_TEXT_CHARS = 1000;

/** How rep turns arrive: spoken audio frames, or finished text turns (`user-text`). */
export const CALL_INPUTS = ['audio', 'text'] as const;
/** How the homeowner answers: audio frames plus transcripts, or transcripts only. */
export const CALL_OUTPUTS = ['audio', 'text'] as const;
export type CallInput = (typeof CALL_INPUTS)[number];
export type CallOutput = (typeof CALL_OUTPUTS)[number];

export const startMessageSchema = z.object({
  type: z.literal('start'),
  sessionId: z.string().uuid().optional().or(z.literal('')),
  stage: z.enum(STAGES),
  input: z.enum(CALL_INPUTS).optional(),
  output: z.enum(CALL_OUTPUTS).optional(),
  /** Required when input is audio; accepted and ignored for text input. */
  sampleRate: z.number().int().optional(),
  encoding: z.literal('pcm16').optional(),
});
export type StartMessage = z.infer<typeof startMessageSchema>;

export const userTextMessageSchema = z.object({
  type: z.literal('user-text'),
  // Control and invisible characters (a bell, ESC, a right-to-left override) are dropped.
  text: storableText()
    .transform((s) => plainText(s).trim())
    .pipe(z.string().min(1).max(MAX_USER_TEXT_CHARS)),
});

export const clientMessageSchema = z.discriminatedUnion('type', [
  startMessageSchema,
  userTextMessageSchema,
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('ping') }),
]);
export type ClientMessage = z.infer<typeof clientMessageSchema>;

export const END_REASONS = [
  'customer-ended-call',
  'max-duration',
  'connection-lost',
  'error',
  'homeowner-ended-call',
] as const;
export type EndReason = (typeof END_REASONS)[number];

/** Which engine serves a capability, as reps (a plain quality hint) and operators see it. */
export const engineInfoSchema = z.object({
  capability: z.string(),
  engine: z.string(),
  label: z.string(),
  quality: engineQualitySchema,
  /** Operator-facing only: never rendered on rep screens. */
  upgradeHint: z.string().optional(),
});
export type EngineInfo = z.infer<typeof engineInfoSchema>;

const role = z.enum(['user', 'assistant']);

/** Events the server sends (JSON text frames); homeowner audio goes as binary frames. */
export const serverEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('ready'), callId: z.string(), maxCallSec: z.number() }),
  z.object({ type: z.literal('engines'), engines: z.array(engineInfoSchema) }),
  z.object({
    type: z.literal('transcript'),
    role,
    transcriptType: z.enum(['partial', 'final']),
    transcript: z.string(),
  }),
  z.object({ type: z.literal('speech-start'), role }),
  z.object({ type: z.literal('speech-end'), role }),
  z.object({ type: z.literal('audio-format'), sampleRate: z.number() }),
  z.object({ type: z.literal('interrupt') }),
  z.object({
    type: z.literal('turn-metrics'),
    endOfTurnWaitMs: z.number(),
    sttMs: z.number(),
    brainFirstTextMs: z.number(),
    ttsFirstAudioMs: z.number(),
    speechEndToAudioMs: z.number(),
    audioMs: z.number(),
  }),
  /** Codes include `bad-message`, `busy` (server-wide call cap), `server-restarting`. */
  z.object({ type: z.literal('error'), code: z.string(), message: z.string() }),
  z.object({ type: z.literal('ended'), reason: z.enum(END_REASONS) }),
  z.object({ type: z.literal('pong') }),
]);
export type ServerEvent = z.infer<typeof serverEventSchema>;
