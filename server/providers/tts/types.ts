import type { FliteVoice } from './unit-voices';

/** Text-to-speech: a sentence in, 16-bit mono PCM chunks out (streamed). */
export interface TtsAudio {
  sampleRate: number;
  pcm: Int16Array;
}

/**
 * How a persona sounds, as data the caller passes in (the homeowner's personas supply it; the
 * speech engines know nothing of personas).
 */
export interface VoiceStyle {
  /** espeak-ng voice name, e.g. `en-us+m3`. */
  espeakVoice: string;
  /** Speaking rate in words per minute; neural voices scale their speed from it (rate / 170). */
  rate: number;
  /** espeak-ng pitch, 0-99. */
  pitch: number;
  /** Which speaker of a multi-speaker model or service to use. */
  speaker: number;
  /** The Flite voice (speaker, pitch, rate) of this persona; Flite picks by gender without it. */
  flite?: FliteVoice;
}

/** A plain voice for callers without a persona. */
export const DEFAULT_VOICE: VoiceStyle = { espeakVoice: 'en-us', rate: 175, pitch: 50, speaker: 0 };

export interface TextToSpeech {
  readonly id: string;
  readonly label: string;
  /** Synthesises one sentence in a voice; yields PCM chunks as they are ready. */
  synthesize(text: string, opts: { voice: VoiceStyle; signal?: AbortSignal }): AsyncIterable<TtsAudio>;
  close?(): Promise<void>;
}
