import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../test-support/harness';
import { AudioDecodeError, decodePcm, decodeToMono, parseProbe, probeAudio } from './decode';

const fixtures = path.join(sharedDir, 'fixtures/audio');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'decode-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe('ffmpeg decoding', () => {
  it('reads channels, rate and duration from the header', async () => {
    const p = await probeAudio(path.join(fixtures, 'faster_whisper/jfk.flac'));
    expect(p).toMatchObject({ channels: 2, sampleRate: 44100, codec: 'flac' });
    expect(p.durationMs).toBeGreaterThan(10_900);
    expect(
      parseProbe('  Stream #0:0: Audio: pcm_mulaw ([7][0][0][0] / 0x0007), 8000 Hz, mono, s16, 64 kb/s')
        .channels,
    ).toBe(1);
  });

  it('resamples 22.05 kHz to 16 kHz mono in blocks', async () => {
    const file = path.join(fixtures, 'ljspeech_lhotse/LJ002-0020.wav');
    const pcm = await decodeToMono(file);
    expect(Math.abs(pcm.length / 16000 - 1.54)).toBeLessThan(0.03);
    const blocks: number[] = [];
    for await (const b of decodePcm(file, { blockSamples: 4000 })) blocks.push(b.channels[0].length);
    expect(blocks.slice(0, -1).every((n) => n === 4000)).toBe(true);
    expect(blocks.reduce((a, b) => a + b, 0)).toBe(pcm.length);
  });

  it('keeps stereo channels apart when asked', async () => {
    let left = 0;
    let right = 0;
    let n = 0;
    for await (const b of decodePcm(path.join(fixtures, 'faster_whisper/stereo_diarization.wav'), {
      channels: 'split',
    })) {
      expect(b.channels).toHaveLength(2);
      for (let i = 0; i < b.channels[0].length; i++) {
        left += Math.abs(b.channels[0][i]);
        right += Math.abs(b.channels[1][i]);
        if (b.channels[0][i] !== b.channels[1][i]) n++;
      }
    }
    expect(left).toBeGreaterThan(0);
    expect(right).toBeGreaterThan(0);
    expect(n).toBeGreaterThan(1000); // two different signals
  });

  it('turns a file that is not audio into a permanent, readable error', async () => {
    const junk = path.join(tmp, 'junk.mp3');
    fs.writeFileSync(junk, Buffer.concat([Buffer.from('ID3'), Buffer.alloc(5000, 0x41)]));
    const err = await decodeToMono(junk).catch((e) => e);
    expect(err).toBeInstanceOf(AudioDecodeError);
    expect(err.message).toMatch(/could not be read as audio/);
    expect(err.message).not.toContain(tmp);
    await expect(probeAudio(junk)).rejects.toBeInstanceOf(AudioDecodeError);
  });
});
