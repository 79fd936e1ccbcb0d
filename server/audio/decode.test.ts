import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { sharedDir } from '../test-support/harness';
import {
  AudioDecodeError,
  AudioTooLongError,
  decodePcm,
  decodeToMono,
  ffmpegInfo,
  parseProbe,
  PLAYLIST_MESSAGE,
  probeAudio,
} from './decode';
import { playlistPointingAt } from './test-audio';

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

  it('never follows a playlist saved as .mp3 to a local file', async () => {
    const fake = path.join(tmp, 'fake.mp3');
    fs.writeFileSync(fake, playlistPointingAt(path.join(fixtures, 'jfk/jfk.wav')));
    const err = await decodeToMono(fake).catch((e) => e);
    expect(err).toBeInstanceOf(AudioDecodeError);
    expect(err.message).toBe(PLAYLIST_MESSAGE);
    await expect(probeAudio(fake)).rejects.toBeInstanceOf(AudioDecodeError);
    // A WAV header in front does not help either: the wav demuxer is forced and finds no audio.
    const wrapped = path.join(tmp, 'wrapped.wav');
    fs.writeFileSync(
      wrapped,
      Buffer.concat([
        Buffer.from('RIFF\0\0\0\0WAVE'),
        playlistPointingAt(path.join(fixtures, 'jfk/jfk.wav')),
      ]),
    );
    await expect(decodeToMono(wrapped)).rejects.toBeInstanceOf(AudioDecodeError);
  });

  it('decodes every fixture through the forced demuxer', async () => {
    for (const rel of [
      'jfk/jfk.mp3',
      'faster_whisper/jfk.flac',
      'azure_misc/whatstheweatherlike-mulaw.wav',
    ]) {
      const pcm = await decodeToMono(path.join(fixtures, rel));
      expect(pcm.length, rel).toBeGreaterThan(16_000);
    }
  });

  it('stops decoding past the longest allowed length', async () => {
    const blocks: number[] = [];
    const err = await (async () => {
      for await (const b of decodePcm(path.join(fixtures, 'jfk/jfk.wav'), {
        maxSeconds: 3,
        blockSamples: 8000,
      }))
        blocks.push(b.channels[0].length);
    })().catch((e) => e);
    expect(err).toBeInstanceOf(AudioTooLongError);
    expect(err.message).toMatch(/minutes/);
    expect(blocks.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(3 * 16_000);
  });

  it('prefers a maintained system ffmpeg over the bundled 2018 build', () => {
    const info = ffmpegInfo();
    if (fs.existsSync('/usr/bin/ffmpeg') && !process.env.FFMPEG_PATH) expect(info.path).toBe('ffmpeg');
    expect(info.version).not.toBe('unknown');
  });

  it('finds ffmpeg for the server without holding up the event loop', async () => {
    vi.resetModules(); // a fresh copy of the module, with nothing found yet
    const fresh = await import('./decode');
    let turns = 0;
    let done = false;
    const spin = () => {
      turns++;
      if (!done) setImmediate(spin);
    };
    setImmediate(spin);
    const found = await fresh.findFfmpeg();
    done = true;
    // Other work ran while the candidates were probed (a blocking probe lets none through).
    expect(turns).toBeGreaterThan(0);
    expect(found).toEqual(ffmpegInfo());
  });
});
