/** Speech-to-text: 16 kHz mono signed 16-bit PCM in, timed segments out. */
export interface SttWord {
  word: string;
  startMs: number;
  endMs: number;
}

export interface SttSegment {
  startMs: number;
  endMs: number;
  text: string;
  words?: SttWord[];
}

export interface TranscribeOptions {
  signal?: AbortSignal;
  /** Fraction of audio done, 0..1. */
  onProgress?: (fraction: number) => void;
  /** Sample rate of the recording before it was resampled to 16 kHz, when known. */
  sourceSampleRate?: number;
}

export interface SpeechToText {
  readonly id: string;
  readonly label: string;
  /** Transcribes a whole clip (16 kHz mono Int16). */
  transcribe(pcm: Int16Array, opts?: TranscribeOptions): Promise<SttSegment[]>;
  /** Releases native resources. */
  close?(): Promise<void>;
}

/** The PCM rate of server/audio (16 kHz), under the name the engines know it by. */
export { PCM_SAMPLE_RATE as STT_SAMPLE_RATE } from '../../audio/wav';
