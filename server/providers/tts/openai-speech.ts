import type { TextToSpeech, TtsAudio, VoiceStyle } from './types';

const VOICES = ['nova', 'onyx', 'echo', 'shimmer', 'fable'];
/** OpenAI's `pcm` format: 24 kHz, 16-bit, mono, little-endian. */
const PCM_RATE = 24_000;

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
    if (!text.trim()) return;
    const voice = VOICES[Math.abs(Math.trunc(opts.voice.speaker)) % VOICES.length];
    const res = await fetch(`${this.opts.baseUrl.replace(/\/$/, '')}/audio/speech`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
      },
      body: JSON.stringify({ model: this.opts.model, voice, input: text, response_format: 'pcm' }),
      signal: opts.signal,
    });
    if (!res.ok || !res.body) throw new Error(`speech API answered ${res.status}`);
    let carry: Uint8Array | null = null;
    for await (const chunk of res.body as unknown as AsyncIterable<Uint8Array>) {
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
  }
}
