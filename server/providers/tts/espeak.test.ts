import { describe, expect, it } from 'vitest';
import { STAGES } from '../../../core/stages';
import { espeakArgs, EspeakTts } from './espeak';

async function synth(tts: EspeakTts, text: string, voice: string, signal?: AbortSignal) {
  const chunks: Int16Array[] = [];
  let rate = 0;
  for await (const c of tts.synthesize(text, { voice, signal })) {
    chunks.push(c.pcm);
    rate = c.sampleRate;
  }
  return { chunks, rate, samples: chunks.reduce((n, c) => n + c.length, 0) };
}

describe('espeak-ng voice', () => {
  it('streams a sentence as PCM chunks', async () => {
    const out = await synth(new EspeakTts(), 'Hello there, what can I do for you today?', 'General');
    expect(out.rate).toBe(22_050);
    expect(out.chunks.length).toBeGreaterThan(3);
    // About two seconds of speech, with real signal in it.
    expect(out.samples / out.rate).toBeGreaterThan(1);
    expect(out.chunks.some((c) => c.some((v) => Math.abs(v) > 1000))).toBe(true);
  });

  it('gives every persona its own voice', () => {
    const voices = new Set(STAGES.map((s) => espeakArgs(s).join(' ')));
    expect(voices.size).toBe(STAGES.length);
  });

  it('stops when aborted, and refuses option-like voice names', async () => {
    const controller = new AbortController();
    controller.abort();
    expect((await synth(new EspeakTts(), 'This is never spoken.', 'HVAC', controller.signal)).samples).toBe(
      0,
    );
    expect(() => espeakArgs('--help; rm')).toThrow(/Unknown voice/);
  });
});
