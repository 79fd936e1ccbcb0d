import type { EngineInfo } from '../types';

/** Speaker models take 16 kHz mono audio. */
export const SPEAKER_SAMPLE_RATE = 16_000;

/**
 * Turns a stretch of one person's speech into a voice print: a fixed-length vector that points
 * the same way for the same voice, whatever was said (compared by cosine).
 */
export interface SpeakerEmbedder {
  readonly id: string;
  readonly label: string;
  /** Samples in -1..1 at 16 kHz. Null when the stretch is too short for the model. */
  embed(samples: Float32Array, opts?: { signal?: AbortSignal }): Promise<Float32Array | null>;
  close?(): Promise<void>;
}

/**
 * How the two voices of a one-channel recording are told apart: by a speaker-embedding model when
 * one is installed and loads, else by the voice features alone (pitch, loudness, spectral shape;
 * server/audio/voice-features.ts), which need no model.
 */
export interface SpeakerEngine {
  /** Null when the voice features alone tell the voices apart. */
  readonly embedder: SpeakerEmbedder | null;
  readonly info: EngineInfo;
  close?(): Promise<void>;
}

/** The engine name recordings report when no embedding model took part. */
export const VOICE_FEATURES = { id: 'voice-features', label: 'Voice features' } as const;
