import type { EngineInfo } from '../types';

/** Silero and the energy detector both look at 32 ms windows of 16 kHz audio. */
export const VAD_WINDOW = 512;
export const VAD_SAMPLE_RATE = 16_000;
export const VAD_WINDOW_MS = (VAD_WINDOW / VAD_SAMPLE_RATE) * 1000;

/** Decides, one 512-sample window at a time, whether the rep is speaking. */
export interface FrameVad {
  readonly id: string;
  isSpeech(window: Float32Array): boolean;
  reset(): void;
  close(): void;
}

/** Voice activity detection for live calls: one detector per call. */
export interface VadFactory {
  create(): FrameVad;
  info: EngineInfo;
  /** Prepares detectors for this many calls ahead of time (a no-op for the energy detector). */
  warm?(calls: number): void;
}
