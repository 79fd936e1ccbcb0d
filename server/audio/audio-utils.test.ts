import { describe, expect, it } from 'vitest';
import { splitAtQuietPoints } from './chunking';
import { concatPcm, decodeWav, encodeWav, readWav, wavHeader } from './wav';
import { editDistance, normaliseWords, wordErrorRate } from './wer';

describe('wav', () => {
  it('round-trips mono PCM', () => {
    const pcm = Int16Array.from([0, 1, -1, 32767, -32768, 1234]);
    const back = decodeWav(encodeWav(pcm, 16000));
    expect(back.sampleRate).toBe(16000);
    expect(back.channels).toBe(1);
    expect([...back.samples]).toEqual([...pcm]);
  });
  it('refuses non-WAV bytes', () => {
    expect(() => decodeWav(Buffer.from('hello world, not audio'))).toThrow(/Not a WAV/);
  });
});

describe('splitAtQuietPoints', () => {
  it('cuts in the silent gap near the limit and covers every sample once', () => {
    const rate = 1000;
    const pcm = new Int16Array(25_000).fill(5000);
    pcm.fill(0, 8_000, 8_400); // a pause just before the 10 s limit
    const chunks = splitAtQuietPoints(pcm, { sampleRate: rate, maxMs: 10_000, searchMs: 4000 });
    expect(chunks[0].end).toBeGreaterThanOrEqual(8_000);
    expect(chunks[0].end).toBeLessThanOrEqual(8_400);
    for (let i = 1; i < chunks.length; i++) expect(chunks[i].start).toBe(chunks[i - 1].end);
    expect(chunks.at(-1)!.end).toBe(pcm.length);
    for (const c of chunks) expect(c.end - c.start).toBeLessThanOrEqual(10_000);
  });
  it('returns one chunk for short audio', () => {
    expect(splitAtQuietPoints(new Int16Array(100), { sampleRate: 1000, maxMs: 1000 })).toEqual([
      { start: 0, end: 100 },
    ]);
  });
});

describe('word error rate', () => {
  it('normalises case, punctuation and digits', () => {
    expect(normaliseWords('Go forward, 10 meters!')).toEqual(['go', 'forward', 'ten', 'meters']);
  });
  it('counts substitutions, deletions and insertions', () => {
    expect(editDistance(['a', 'b', 'c'], ['a', 'x', 'c', 'd'])).toBe(2);
    expect(wordErrorRate('the cat sat', 'the cat sat')).toBe(0);
    expect(wordErrorRate('the cat sat', 'cat sat on')).toBeCloseTo(2 / 3);
  });
});

describe('PCM helpers', () => {
  it('readWav mixes channels down to mono', () => {
    const stereo = new Int16Array([100, 300, -200, 0]);
    const wav = Buffer.concat([
      wavHeader(stereo.byteLength, 16_000, 2),
      Buffer.from(stereo.buffer, stereo.byteOffset, stereo.byteLength),
    ]);
    expect(readWav(wav)).toEqual({ sampleRate: 16_000, pcm: new Int16Array([200, -100]) });
  });

  it('concatPcm joins chunks, and cuts or pads to a given length', () => {
    const parts = [new Int16Array([1, 2]), new Int16Array([3, 4, 5])];
    expect([...concatPcm(parts)]).toEqual([1, 2, 3, 4, 5]);
    expect([...concatPcm(parts, 3)]).toEqual([1, 2, 3]);
    expect([...concatPcm(parts, 6)]).toEqual([1, 2, 3, 4, 5, 0]);
  });
});
