import { splitAtQuietPoints } from '../../audio/chunking';
import { encodeWav } from '../../audio/wav';
import { STT_SAMPLE_RATE, type SpeechToText, type SttSegment, type TranscribeOptions } from './types';

export interface OpenAiSttOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Longest piece sent in one request (the hosted API takes at most 25 MB). */
  chunkMs?: number;
  timeoutMs?: number;
}

interface VerboseJson {
  text?: string;
  segments?: { start: number; end: number; text: string }[];
  words?: { word: string; start: number; end: number }[];
}

/** Any OpenAI-compatible `/audio/transcriptions` (OpenAI, faster-whisper-server, LocalAI, ...). */
export class OpenAiStt implements SpeechToText {
  readonly id = 'openai';
  readonly label: string;
  constructor(private readonly opts: OpenAiSttOptions) {
    this.label = `Speech-to-text service (${opts.model})`;
  }

  async transcribe(pcm: Int16Array, opts: TranscribeOptions = {}): Promise<SttSegment[]> {
    const chunks = splitAtQuietPoints(pcm, {
      sampleRate: STT_SAMPLE_RATE,
      maxMs: this.opts.chunkMs ?? 600_000,
      searchMs: 10_000,
    });
    const out: SttSegment[] = [];
    for (const chunk of chunks) {
      opts.signal?.throwIfAborted();
      const offsetMs = Math.round((chunk.start * 1000) / STT_SAMPLE_RATE);
      const body = await this.request(pcm.subarray(chunk.start, chunk.end), opts.signal);
      out.push(
        ...toSegments(body, offsetMs, Math.round(((chunk.end - chunk.start) * 1000) / STT_SAMPLE_RATE)),
      );
      opts.onProgress?.(chunk.end / pcm.length);
    }
    return out;
  }

  private async request(pcm: Int16Array, signal?: AbortSignal): Promise<VerboseJson> {
    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(encodeWav(pcm, STT_SAMPLE_RATE))], { type: 'audio/wav' }),
      'audio.wav',
    );
    form.append('model', this.opts.model);
    form.append('response_format', 'verbose_json');
    form.append('timestamp_granularities[]', 'segment');
    form.append('timestamp_granularities[]', 'word');
    const timeout = AbortSignal.timeout(this.opts.timeoutMs ?? 300_000);
    const url = `${this.opts.baseUrl.replace(/\/+$/, '')}/audio/transcriptions`;
    let res: Response;
    try {
      res = await fetch(url, {
        method: 'POST',
        headers: this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {},
        body: form,
        signal: signal ? AbortSignal.any([signal, timeout]) : timeout,
      });
    } catch (err) {
      throw new Error(
        `The speech-to-text service at ${this.opts.baseUrl} did not answer: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
    if (!res.ok) {
      const text = (await res.text().catch(() => '')).slice(0, 300);
      throw new Error(`The speech-to-text service answered ${res.status}: ${text || res.statusText}`);
    }
    return (await res.json()) as VerboseJson;
  }
}

export function toSegments(body: VerboseJson, offsetMs: number, chunkMs: number): SttSegment[] {
  const words = (body.words ?? []).map((w) => ({
    word: w.word.trim(),
    startMs: Math.round(w.start * 1000) + offsetMs,
    endMs: Math.round(w.end * 1000) + offsetMs,
  }));
  if (body.segments?.length) {
    return body.segments
      .filter((s) => s.text.trim())
      .map((s) => {
        const startMs = Math.round(s.start * 1000) + offsetMs;
        const endMs = Math.round(s.end * 1000) + offsetMs;
        const inside = words.filter((w) => w.startMs >= startMs - 50 && w.startMs < endMs);
        return { startMs, endMs, text: s.text.trim(), ...(inside.length ? { words: inside } : {}) };
      });
  }
  const text = (body.text ?? '').trim();
  return text
    ? [{ startMs: offsetMs, endMs: offsetMs + chunkMs, text, ...(words.length ? { words } : {}) }]
    : [];
}
