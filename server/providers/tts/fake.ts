import type { TextToSpeech, TtsAudio, VoiceStyle } from './types';

export const FAKE_TTS_SAMPLE_RATE = 16_000;
/** Speech length per character at the default rate of 175 words per minute. */
const MS_PER_CHAR = 60;
/** Chunks of 100 ms, so a test sees a sentence arrive in pieces as from a real engine. */
const CHUNK = FAKE_TTS_SAMPLE_RATE / 10;

/**
 * A voice for tests about the call (reply timing, barge-in, captions), not about speech: a quiet
 * tone whose length follows the text and the voice's rate, streamed in 100 ms chunks. It records
 * every sentence and voice it is given, and stops between chunks when the signal aborts.
 */
export class FakeTts implements TextToSpeech {
  readonly id = 'fake-tts';
  readonly label = 'Tone voice (tests)';
  readonly spoken: { text: string; voice: VoiceStyle }[] = [];
  closed = false;

  async *synthesize(
    text: string,
    opts: { voice: VoiceStyle; signal?: AbortSignal },
  ): AsyncIterable<TtsAudio> {
    const clean = text.trim();
    if (!clean || opts.signal?.aborted || this.closed) return;
    this.spoken.push({ text: clean, voice: opts.voice });
    const ms = (clean.length * MS_PER_CHAR * 175) / Math.max(1, opts.voice.rate);
    const total = Math.max(CHUNK, Math.round((ms / 1000) * FAKE_TTS_SAMPLE_RATE));
    // A 220 Hz tone, pitched up or down with the voice, well below full scale.
    const hz = 220 * (0.5 + opts.voice.pitch / 99);
    for (let at = 0; at < total; at += CHUNK) {
      await Promise.resolve();
      if (opts.signal?.aborted || this.closed) return;
      const pcm = new Int16Array(Math.min(CHUNK, total - at));
      for (let i = 0; i < pcm.length; i++)
        pcm[i] = Math.round(4000 * Math.sin((2 * Math.PI * hz * (at + i)) / FAKE_TTS_SAMPLE_RATE));
      yield { sampleRate: FAKE_TTS_SAMPLE_RATE, pcm };
    }
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
