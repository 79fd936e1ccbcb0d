import path from 'node:path';
import fs from 'node:fs';
import os from 'node:os';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../test-support/harness';
import { decodeToMono } from './decode';
import { fillMissingBand, levelGainDb, normaliseLevel, upperBandRatioDb } from './level';
import { convertAudio } from './test-audio';

const fixtures = path.join(sharedDir, 'fixtures/audio');
const read = path.join(fixtures, 'librivox_pocketsphinx/sense_and_sensibility_01_austen_64kb-0870.wav');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'level-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const peak = (pcm: Int16Array) => pcm.reduce((m, v) => Math.max(m, Math.abs(v)), 0);

describe('speech level', () => {
  it('raises quiet speech by about what it lost, and leaves normal speech alone', async () => {
    const normal = await decodeToMono(read);
    expect(levelGainDb(normal)).toBe(0);
    expect(normaliseLevel(normal)).toBe(normal);
    const quiet = await decodeToMono(
      convertAudio(read, path.join(tmp, 'quiet.wav'), ['-af', 'volume=-40dB']),
    );
    const gain = levelGainDb(quiet);
    expect(gain).toBeGreaterThan(30);
    expect(gain).toBeLessThanOrEqual(40);
    const raised = normaliseLevel(quiet);
    expect(peak(raised)).toBeGreaterThan(peak(quiet) * 20);
    expect(raised.filter((v) => v === 32767 || v === -32768).length).toBeLessThan(raised.length * 0.001);
  });

  it('leaves digital silence at zero', () => {
    const silence = new Int16Array(16_000);
    expect(normaliseLevel(silence)).toBe(silence);
    expect(fillMissingBand(silence)).toBe(silence);
  });

  it('fills the empty upper band of telephone audio only', async () => {
    const wide = await decodeToMono(read);
    expect(upperBandRatioDb(wide)).toBeGreaterThan(-30);
    expect(fillMissingBand(wide)).toBe(wide);
    const phone = await decodeToMono(
      convertAudio(read, path.join(tmp, 'phone.wav'), ['-ar', '8000', '-c:a', 'pcm_mulaw']),
    );
    expect(upperBandRatioDb(phone)).toBeLessThan(-30);
    const filled = fillMissingBand(phone, 8000);
    expect(filled).not.toBe(phone);
    // The upper band now carries faint noise, well under the speech.
    expect(upperBandRatioDb(filled)).toBeGreaterThan(upperBandRatioDb(phone) + 5);
    expect(upperBandRatioDb(filled)).toBeLessThan(-15);
  });
});
