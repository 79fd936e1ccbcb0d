import { describe, expect, it } from 'vitest';
import { GATE_PAD_MS, SpanMap, speechSpans } from './speech-gate';

const RATE = 16_000;

/** Noise-like "speech" (a 200 Hz tone with jitter) at a level, for a number of seconds. */
function tone(seconds: number, amplitude: number): Int16Array {
  const out = new Int16Array(Math.round(seconds * RATE));
  for (let i = 0; i < out.length; i++)
    out[i] = Math.round(amplitude * Math.sin((2 * Math.PI * 200 * i) / RATE));
  return out;
}

function join(...parts: Int16Array[]): Int16Array {
  const out = new Int16Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

describe('voice detection ahead of recognition', () => {
  it('finds nothing in digital silence or steady background hiss', () => {
    expect(speechSpans(new Int16Array(RATE * 60), RATE)).toEqual([]);
    let seed = 1;
    const hiss = Int16Array.from({ length: RATE * 30 }, () => {
      seed = (seed * 1103515245 + 12345) >>> 0;
      return ((seed >>> 16) % 600) - 300;
    });
    expect(speechSpans(hiss, RATE)).toEqual([]);
  });

  it('keeps quiet speech in a long silence, with margins, and maps times back', () => {
    // 40 s silence, 3 s of a signal 40 dB down, 40 s silence.
    const pcm = join(new Int16Array(RATE * 40), tone(3, 300), new Int16Array(RATE * 40));
    const spans = speechSpans(pcm, RATE);
    expect(spans).toHaveLength(1);
    const pad = (GATE_PAD_MS * RATE) / 1000;
    expect(spans[0].start).toBeLessThanOrEqual(RATE * 40 - pad + RATE * 0.03);
    expect(spans[0].end).toBeGreaterThanOrEqual(RATE * 43 + pad - RATE * 0.03);
    expect(spans[0].end - spans[0].start).toBeLessThan(RATE * 5);
    const map = new SpanMap(spans, RATE);
    expect(map.join(pcm)).toHaveLength(map.length);
    // The joined audio's 1.0 s is 1.0 s into the span.
    expect(map.toOriginalMs(1000)).toBe(Math.round((spans[0].start * 1000) / RATE) + 1000);
  });

  it('keeps short pauses inside speech and joins separate stretches end to end', () => {
    const pcm = join(
      tone(2, 8000),
      new Int16Array(RATE * 1), // a pause inside a turn: kept
      tone(2, 8000),
      new Int16Array(RATE * 20), // a long gap: cut
      tone(1, 8000),
    );
    const spans = speechSpans(pcm, RATE);
    expect(spans).toHaveLength(2);
    expect(spans[0].start).toBe(0);
    expect(spans[0].end).toBeGreaterThan(RATE * 5);
    expect(spans[1].end).toBe(pcm.length);
    const map = new SpanMap(spans, RATE);
    const secondStartMs = Math.round((spans[1].start * 1000) / RATE);
    const joinedSecond = ((spans[0].end - spans[0].start) * 1000) / RATE;
    expect(map.toOriginalMs(joinedSecond + 250)).toBe(secondStartMs + 250);
  });
});
