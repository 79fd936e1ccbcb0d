/** Text-to-speech: a sentence in, 16-bit mono PCM chunks out (streamed). */
export interface TtsAudio {
  sampleRate: number;
  pcm: Int16Array;
}

export interface TextToSpeech {
  readonly id: string;
  readonly label: string;
  /** Synthesises one sentence for a persona voice; yields PCM chunks as they are ready. */
  synthesize(text: string, opts: { voice: string; signal?: AbortSignal }): AsyncIterable<TtsAudio>;
  close?(): Promise<void>;
}
