import { z } from 'zod';
import { STAGES } from '../../core/stages';

/** The one audio format the socket accepts upstream: 16 kHz mono signed 16-bit little-endian PCM. */
export const UPSTREAM_SAMPLE_RATE = 16_000;
/** Largest binary frame accepted (1 s of audio); the browser sends about 20-100 ms per frame. */
export const MAX_FRAME_BYTES = UPSTREAM_SAMPLE_RATE * 2;
/** Audio may arrive ahead of real time by this much (network bursts) before it counts as a flood. */
export const FLOOD_ALLOWANCE_MS = 5000;
/** JSON control messages allowed per second. */
export const MAX_CONTROL_PER_SEC = 20;

export const startMessageSchema = z.object({
  type: z.literal('start'),
  sessionId: z.string().uuid().optional().or(z.literal('')),
  stage: z.enum(STAGES),
  sampleRate: z.number().int(),
  encoding: z.literal('pcm16').optional(),
});

export const clientMessageSchema = z.discriminatedUnion('type', [
  startMessageSchema,
  z.object({ type: z.literal('stop') }),
  z.object({ type: z.literal('ping') }),
]);

export type ClientMessage = z.infer<typeof clientMessageSchema>;

export type EndReason =
  'customer-ended-call' | 'max-duration' | 'connection-lost' | 'error' | 'homeowner-ended-call';

/** Events the server sends (JSON text frames); homeowner audio goes as binary frames. */
export type ServerEvent =
  | { type: 'ready'; callId: string; maxCallSec: number }
  | {
      type: 'engines';
      engines: {
        capability: string;
        engine: string;
        label: string;
        quality: 'basic' | 'enhanced';
        upgradeHint?: string;
      }[];
    }
  | {
      type: 'transcript';
      role: 'user' | 'assistant';
      transcriptType: 'partial' | 'final';
      transcript: string;
    }
  | { type: 'speech-start'; role: 'user' | 'assistant' }
  | { type: 'speech-end'; role: 'user' | 'assistant' }
  | { type: 'audio-format'; sampleRate: number }
  | { type: 'interrupt' }
  | {
      type: 'turn-metrics';
      endOfTurnWaitMs: number;
      sttMs: number;
      brainFirstTextMs: number;
      ttsFirstAudioMs: number;
      speechEndToAudioMs: number;
      audioMs: number;
    }
  | { type: 'error'; code: string; message: string }
  | { type: 'ended'; reason: EndReason }
  | { type: 'pong' };
