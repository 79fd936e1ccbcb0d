import type { TextToSpeech, TtsAudio, VoiceStyle } from './types';

/**
 * The service's stock voices by how they sound, so a persona written as a woman is not read by
 * a man's voice. Compatible servers (local Kokoro or Piper front ends) accept the same names.
 */
const FEMALE_VOICES = ['nova', 'shimmer', 'alloy'];
const MALE_VOICES = ['onyx', 'echo', 'fable'];
/** OpenAI's `pcm` format: 24 kHz, 16-bit, mono, little-endian. */
const PCM_RATE = 24_000;
/** The words-per-minute rate a speed of 1.0 stands for (VoiceStyle.rate). */
const NORMAL_RATE = 170;

/**
 * The stock voice for a persona: its gender from the espeak-ng variant (`+f3` a woman, `+m7` a
 * man), then the variant's number and the speaker number, so personas of one gender differ.
 */
export function speechApiVoice(voice: VoiceStyle): string {
  const variant = /\+([fm])(\d*)$/i.exec(voice.espeakVoice);
  const pool = variant?.[1].toLowerCase() === 'f' ? FEMALE_VOICES : MALE_VOICES;
  const index = Math.abs(Math.trunc(voice.speaker)) + Number(variant?.[2] || 0);
  return pool[index % pool.length];
}

/** The API's `speed` (0.25-4) for a words-per-minute rate. */
export function speechApiSpeed(rate: number): number {
  const speed = Number.isFinite(rate) && rate > 0 ? rate / NORMAL_RATE : 1;
  return Math.round(Math.min(4, Math.max(0.25, speed)) * 100) / 100;
}

/** Any OpenAI-compatible /audio/speech endpoint, streamed as raw PCM. */
export class OpenAiSpeechTts implements TextToSpeech {
  readonly id = 'openai-speech';
  readonly label: string;

  constructor(private readonly opts: { baseUrl: string; apiKey?: string; model: string }) {
    this.label = `Speech API (${opts.model})`;
  }

  async *synthesize(
    text: string,
    opts: { voice: VoiceStyle; signal?: AbortSignal },
  ): AsyncIterable<TtsAudio> {
    const input = text.replace(/\s+/g, ' ').trim();
    if (!input || opts.signal?.aborted) return;
    let res: Response;
    try {
      res = await fetch(`${this.opts.baseUrl.replace(/\/$/, '')}/audio/speech`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
        },
        body: JSON.stringify({
          model: this.opts.model,
          voice: speechApiVoice(opts.voice),
          input,
          response_format: 'pcm',
          speed: speechApiSpeed(opts.voice.rate),
        }),
        signal: opts.signal,
      });
    } catch (err) {
      // A reply cut off by the rep speaking is not a failure of the service.
      if (opts.signal?.aborted) return;
      throw err;
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new Error(`speech API answered ${res.status}`);
    }
    let carry: Uint8Array | null = null;
    try {
      for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
        if (opts.signal?.aborted) return;
        let bytes = chunk;
        if (carry) {
          bytes = new Uint8Array(carry.length + chunk.length);
          bytes.set(carry);
          bytes.set(chunk, carry.length);
          carry = null;
        }
        const even = bytes.length - (bytes.length % 2);
        if (even < bytes.length) carry = bytes.slice(even);
        if (even === 0) continue;
        const pcm = new Int16Array(even / 2);
        const view = new DataView(bytes.buffer, bytes.byteOffset, even);
        for (let i = 0; i < pcm.length; i++) pcm[i] = view.getInt16(i * 2, true);
        yield { sampleRate: PCM_RATE, pcm };
      }
    } catch (err) {
      if (opts.signal?.aborted) return;
      throw err;
    }
  }
}
