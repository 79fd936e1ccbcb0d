import { describe, expect, it } from 'vitest';
import { FakeSpeakerEmbedder } from '../providers/speaker/fake';
import type { SpeakerEmbedder } from '../providers/speaker/types';
import {
  MAX_SPAN_MS,
  MIN_SPAN_MS,
  SpeakerEmbeddingTracker,
  SpeechSpanCutter,
  type SpeechSpan,
} from './speaker-spans';

const RATE = 16_000;

/** A recording described as pieces: a voice (harmonics at `hz`) or quiet room noise, in ms. */
function recording(pieces: { ms: number; hz?: number; level?: number }[]): Int16Array {
  const total = pieces.reduce((s, p) => s + (p.ms * RATE) / 1000, 0);
  const out = new Int16Array(total);
  let seed = 7;
  let at = 0;
  for (const p of pieces) {
    const n = (p.ms * RATE) / 1000;
    for (let i = 0; i < n; i++, at++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      const noise = (seed / 2147483648 - 0.5) * 2 * (p.level ?? 10);
      let v = 0;
      if (p.hz) for (let h = 1; h <= 5; h++) v += Math.sin((2 * Math.PI * p.hz * h * at) / RATE) / h;
      out[at] = Math.round(v * 3000 + noise);
    }
  }
  return out;
}

/** Feeds the audio in blocks of an odd size (frames straddle blocks), as decoding does. */
function cut(pcm: Int16Array, block = 7777): SpeechSpan[] {
  const cutter = new SpeechSpanCutter();
  const spans: SpeechSpan[] = [];
  for (let i = 0; i < pcm.length; i += block) spans.push(...cutter.push(pcm.subarray(i, i + block)));
  return [...spans, ...cutter.finish()];
}

const rmsDb = (x: Float32Array) => 10 * Math.log10(x.reduce((s, v) => s + v * v, 0) / x.length);

describe('speech cut into spans for voice prints', () => {
  it('cuts long unbroken speech at 3 s of voiced audio, with its place in the recording', () => {
    const spans = cut(recording([{ ms: 1000 }, { ms: 7000, hz: 120 }, { ms: 1000 }]));
    expect(spans.map((s) => [s.startMs, s.endMs, s.voicedMs])).toEqual([
      [1000, 4000, MAX_SPAN_MS],
      [4000, 7000, MAX_SPAN_MS],
      [7000, 8000, 1000],
    ]);
    for (const s of spans) expect(s.samples.length).toBe((s.voicedMs * RATE) / 1000);
  });

  it('ends a span at the first short pause once it holds 2 s, and drops a remainder under 1 s', () => {
    const spans = cut(
      recording([{ ms: 500 }, { ms: 2200, hz: 150 }, { ms: 100 }, { ms: 300, hz: 150 }, { ms: 1500 }]),
    );
    expect(spans.map((s) => [s.startMs, s.endMs, s.voicedMs])).toEqual([[500, 2700, 2200]]);
  });

  it('leaves pauses out: a short one is skipped inside the span, a long one ends it', () => {
    const spans = cut(
      recording([
        { ms: 1000 },
        { ms: 600, hz: 200 },
        { ms: 200 },
        { ms: 600, hz: 200 },
        { ms: 1000 },
        { ms: 600, hz: 110 },
        { ms: 1000 },
      ]),
    );
    // The two halves of the first stretch are one span of 1.2 s of voice spanning 1.4 s; the
    // last stretch, alone after a long pause, is too short to say anything about the voice.
    expect(spans.map((s) => [s.startMs, s.endMs, s.voicedMs])).toEqual([[1000, 2400, 1200]]);
    // Only speech went in: every 20 ms of the span is loud.
    const samples = spans[0].samples;
    for (let i = 0; i < samples.length; i += 320) {
      expect(rmsDb(samples.subarray(i, i + 320))).toBeGreaterThan(-30);
    }
  });

  it('finds nothing in digital silence or steady hiss, and finds speech over the hiss', () => {
    expect(cut(new Int16Array(RATE * 10))).toEqual([]);
    expect(cut(recording([{ ms: 10_000, level: 300 }]))).toEqual([]);
    const overHiss = cut(
      recording([
        { ms: 2000, level: 300 },
        { ms: 1500, hz: 130, level: 300 },
        { ms: 2000, level: 300 },
      ]),
    );
    expect(overHiss.map((s) => [s.startMs, s.endMs])).toEqual([[2000, 3500]]);
  });

  it('keeps the last span when the recording ends mid-speech, if it is long enough', () => {
    expect(cut(recording([{ ms: 500 }, { ms: 1200, hz: 140 }])).map((s) => s.voicedMs)).toEqual([1200]);
    expect(cut(recording([{ ms: 500 }, { ms: MIN_SPAN_MS - 200, hz: 140 }]))).toEqual([]);
  });
});

describe('voice prints while the recording streams', () => {
  it('embeds each span, never more than a few at once, and returns them in time order', async () => {
    let running = 0;
    let most = 0;
    const seen: number[] = [];
    const slow: SpeakerEmbedder = {
      id: 'slow',
      label: 'slow',
      async embed(samples) {
        running++;
        most = Math.max(most, running);
        seen.push(samples.length);
        await new Promise((r) => setTimeout(r, 5 + (seen.length % 3) * 5));
        running--;
        return Float32Array.of(samples.length, 1);
      },
    };
    const tracker = new SpeakerEmbeddingTracker(slow, { maxInFlight: 2 });
    const pcm = recording([{ ms: 500 }, { ms: 20_000, hz: 120 }, { ms: 500 }]);
    for (let i = 0; i < pcm.length; i += RATE) await tracker.push(pcm.subarray(i, i + RATE));
    const spans = await tracker.finish();
    expect(most).toBeLessThanOrEqual(2);
    expect(spans.length).toBe(7);
    expect(seen.slice(0, 6).every((n) => n === (MAX_SPAN_MS * RATE) / 1000)).toBe(true);
    expect(spans.map((s) => s.startMs)).toEqual([...spans.map((s) => s.startMs)].sort((a, b) => a - b));
    expect(spans[0]).toMatchObject({ startMs: 500, endMs: 3500, voicedMs: 3000 });
    expect(tracker.failure).toBeNull();
  });

  it('stops at a model failure, keeps nothing and says why', async () => {
    const fake = new FakeSpeakerEmbedder({ failAfter: 1 });
    const tracker = new SpeakerEmbeddingTracker(fake);
    const pcm = recording([{ ms: 500 }, { ms: 12_000, hz: 120 }, { ms: 500 }]);
    for (let i = 0; i < pcm.length; i += RATE) await tracker.push(pcm.subarray(i, i + RATE));
    expect(await tracker.finish()).toEqual([]);
    expect(tracker.failure).toMatch(/speaker worker stopped/);
    // Nothing more was sent once it had failed.
    expect(fake.calls.length).toBeLessThan(4);
  });
});
