import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readWav, resampleInt16, rms } from '../audio/wav';
import { contourOf, frameF0, PitchTracker } from './pitch';

/** A voice-like buzz at 16 kHz: harmonics of an F0 that glides from `fromHz` to `toHz`. */
function voice(fromHz: number, toHz: number, ms: number, rate = 16_000): Int16Array {
  const n = Math.round((ms / 1000) * rate);
  const out = new Int16Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const hz = fromHz + ((toHz - fromHz) * i) / n;
    phase += (2 * Math.PI * hz) / rate;
    let s = 0;
    for (let h = 1; h <= 8; h++) s += Math.sin(h * phase) / h;
    out[i] = Math.round(s * 6000);
  }
  return out;
}

function at8k(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length >> 1);
  for (let i = 0; i < out.length; i++) out[i] = (pcm[2 * i] + pcm[2 * i + 1]) / 65536;
  return out;
}

function track(pcm: Int16Array) {
  const t = new PitchTracker();
  for (let i = 0; i + 512 <= pcm.length; i += 512) t.push(pcm.subarray(i, i + 512));
  return t.contour();
}

describe('pitch', () => {
  it('finds the fundamental of a steady voice, not an octave below', () => {
    for (const hz of [90, 140, 220, 330]) {
      const f = frameF0(at8k(voice(hz, hz, 200)), 0);
      expect(f).not.toBeNull();
      expect(Math.abs(f!.hz - hz) / hz).toBeLessThan(0.03);
    }
  });

  it('calls noise and silence unvoiced', () => {
    let seed = 7;
    const noise = new Float32Array(2000).map(
      () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31 - 0.5,
    );
    expect(frameF0(noise, 0)).toBeNull();
    expect(frameF0(new Float32Array(2000), 0)).toBeNull();
  });

  it('reads a fall at the end of a statement and a rise at the end of a question', () => {
    const statement = new Int16Array([...voice(180, 180, 500), ...voice(180, 120, 300)]);
    expect(track(statement).contour).toBe('falling');
    const question = new Int16Array([...voice(160, 160, 500), ...voice(160, 240, 300)]);
    expect(track(question).contour).toBe('rising');
    expect(track(voice(150, 152, 800)).contour).toBe('level');
  });

  it('judges only the last 300 ms of voice', () => {
    // A big rise early in the utterance does not make a falling end rise.
    const pcm = new Int16Array([...voice(110, 220, 400), ...voice(220, 150, 300)]);
    expect(track(pcm).contour).toBe('falling');
  });

  it('gives no reading without enough voiced audio', () => {
    expect(track(voice(150, 120, 40)).contour).toBe('unknown');
    expect(contourOf(new Float32Array(4000)).contour).toBe('unknown');
  });
});

describe('a recorded voice', () => {
  const clip = (rel: string) => {
    const file = path.resolve(
      path.dirname(new URL(import.meta.url).pathname),
      '../../../shared/fixtures/audio',
      rel,
    );
    const { sampleRate, pcm } = readWav(fs.readFileSync(file));
    return resampleInt16(pcm, sampleRate, 16_000);
  };

  /** The contour at each of 16 placements of the 32 ms windows, 2 ms apart. */
  const placements = (rel: string) => {
    const pcm = clip(rel);
    const out: string[] = [];
    for (let offset = 0; offset < 512; offset += 32) {
      const t = new PitchTracker();
      for (let i = offset; i + 512 <= pcm.length; i += 512) {
        const w = pcm.subarray(i, i + 512);
        if (rms(w) > 0.01) t.push(w);
      }
      out.push(t.contour().contour);
    }
    return out;
  };

  it('reads the same contour wherever the windows happen to fall', () => {
    // A single reading of this clip read rising, level or falling depending on the placement.
    expect(new Set(placements('pocketsphinx_misc/goforward.wav'))).toEqual(new Set(['rising']));
    // This list ends on a fall; a single reading missed it at 6 of 16 placements.
    const cards = placements('cards_pocketsphinx/cards_002.wav');
    expect(cards.filter((c) => c === 'falling').length).toBeGreaterThanOrEqual(12);
  });
});
