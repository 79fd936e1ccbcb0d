import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../../test-support/harness';
import { int16ToFloat32, readWav, resampleInt16 } from '../../audio/wav';
import { bundledSileroModel, QUIET_RMS, selectVad, VAD_WINDOW, type FrameVad } from '.';
import { SileroPool } from './silero';

const models = path.join(sharedDir, 'models');

/** 1 s of near-silence (a faint hiss under the quiet gate), the clip, then 1 s of it again. */
function call(): Int16Array {
  const { sampleRate, pcm } = readWav(
    fs.readFileSync(path.join(sharedDir, 'fixtures/audio/azure_misc/whatstheweatherlike.wav')),
  );
  const speech = resampleInt16(pcm, sampleRate, 16_000);
  const out = new Int16Array(32_000 + speech.length);
  for (let i = 0; i < out.length; i++) out[i] = Math.round((Math.random() - 0.5) * 2 * QUIET_RMS * 32_768);
  out.set(speech, 16_000);
  return out;
}

function decisions(vad: FrameVad, pcm: Int16Array): boolean[] {
  const out: boolean[] = [];
  for (let i = 0; i + VAD_WINDOW <= pcm.length; i += VAD_WINDOW)
    out.push(vad.isSpeech(int16ToFloat32(pcm.subarray(i, i + VAD_WINDOW))));
  return out;
}

describe('Silero voice detection', () => {
  it('hears the speech and not the hiss around it, the same again when a detector is reused', () => {
    const factory = selectVad(models);
    expect(factory.info.engine).toBe('silero');
    const audio = call();
    const first = factory.create();
    const a = decisions(first, audio);
    first.close();
    // The pool hands the same detector back, reset: a second call sees the same decisions.
    const second = factory.create();
    const b = decisions(second, audio);
    second.close();
    expect(b).toEqual(a);
    const windowsPerSec = 16_000 / VAD_WINDOW;
    const speechAt = a.map((s, i) => (s ? i / windowsPerSec : -1)).filter((t) => t >= 0);
    expect(speechAt.length).toBeGreaterThan(10);
    // The clip's words sit between 1.0 s and 3.0 s of this audio.
    expect(Math.min(...speechAt)).toBeGreaterThan(0.9);
    expect(Math.max(...speechAt)).toBeLessThan(3.2);
  });

  it('uses the model bundled with the npm package when MODELS_DIR has none', () => {
    const f = selectVad('/nonexistent');
    expect(f.info.engine).toBe('silero');
    expect(f.info.reason).toMatch(/bundled/);
    expect(decisions(f.create(), call()).some(Boolean)).toBe(true);
  });

  it('falls back to the energy detector without any model, or when asked', () => {
    expect(selectVad('/nonexistent', 'auto', { bundled: null }).info.engine).toBe('energy');
    expect(selectVad(models, 'energy').info.engine).toBe('energy');
  });

  it('warms spare detectors in the background toward the highest target asked, within its bound', async () => {
    const model = bundledSileroModel();
    expect(model).not.toBeNull();
    const pool = new SileroPool(model!, 5);
    pool.warm(2);
    // Asked again while warming (another call started): one run, the larger target.
    pool.warm(4);
    pool.warm(3);
    expect(pool.spares).toBe(0);
    await expect.poll(() => pool.spares, { timeout: 10_000, interval: 50 }).toBe(4);
    await new Promise((r) => setTimeout(r, 300));
    expect(pool.spares).toBe(4);
    // Never past the pool's bound.
    pool.warm(50);
    await expect.poll(() => pool.spares, { timeout: 10_000, interval: 50 }).toBe(5);
    await new Promise((r) => setTimeout(r, 300));
    expect(pool.spares).toBe(5);
    const taken = pool.take();
    expect(pool.spares).toBe(4);
    taken.close();
    expect(pool.spares).toBe(5);
  });
});
