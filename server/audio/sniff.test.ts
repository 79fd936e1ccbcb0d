import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../test-support/harness';
import { mpegFrameLength, sniffAudio, sniffAudioFile } from './sniff';
import { bundledFfmpegPath, convertAudio, playlistPointingAt } from './test-audio';

const fixtures = path.join(sharedDir, 'fixtures/audio');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sniff-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const jfk = path.join(fixtures, 'jfk/jfk.wav');

describe('container sniffing', () => {
  it('recognises the fixtures and every container the upload page accepts', async () => {
    expect(await sniffAudioFile(jfk)).toEqual({ ok: true, container: 'wav' });
    expect(await sniffAudioFile(path.join(fixtures, 'jfk/jfk.mp3'))).toEqual({ ok: true, container: 'mp3' });
    expect(await sniffAudioFile(path.join(fixtures, 'faster_whisper/jfk.flac'))).toEqual({
      ok: true,
      container: 'flac',
    });
    const made: [string, string[], string][] = [
      ['a.m4a', ['-c:a', 'aac'], 'mov'],
      ['a.mp4', ['-c:a', 'aac'], 'mov'],
      ['a.webm', ['-c:a', 'libopus'], 'matroska'],
      ['a.ogg', ['-c:a', 'libopus'], 'ogg'],
      ['a.aac', ['-c:a', 'aac', '-f', 'adts'], 'aac'],
      ['a.mp3', ['-c:a', 'libmp3lame', '-write_id3v2', '0'], 'mp3'],
      ['a.aiff', [], 'aiff'],
    ];
    for (const [name, args, container] of made) {
      const out = convertAudio(jfk, path.join(tmp, name), ['-t', '2', ...args]);
      expect(await sniffAudioFile(out), name).toEqual({ ok: true, container });
    }
  });

  it('recognises what phones and call recorders write, whatever they are named', async () => {
    const bundled = { ffmpeg: bundledFfmpegPath() };
    const made: [string, string[], string, { ffmpeg?: string }][] = [
      ['a.amr', ['-ar', '8000', '-ac', '1', '-c:a', 'libopencore_amrnb', '-b:a', '12.2k'], 'amr', bundled],
      ['wb.amr', ['-ar', '16000', '-ac', '1', '-c:a', 'libvo_amrwbenc', '-b:a', '23.85k'], 'amr', bundled],
      ['a.3gp', ['-ar', '8000', '-ac', '1', '-c:a', 'libopencore_amrnb', '-f', '3gp'], 'mov', bundled],
      ['a.opus', ['-c:a', 'libopus', '-b:a', '24k'], 'ogg', {}],
      ['a.flac', ['-c:a', 'flac'], 'flac', {}],
      ['a.caf', ['-c:a', 'alac', '-f', 'caf'], 'caf', {}],
      ['a.aac', ['-c:a', 'aac', '-f', 'adts'], 'aac', {}],
    ];
    for (const [name, args, container, opts] of made) {
      const out = convertAudio(jfk, path.join(tmp, name), ['-t', '2', ...args], opts);
      expect(await sniffAudioFile(out), name).toEqual({ ok: true, container });
    }
  });

  it('refuses playlists and other files that point elsewhere', () => {
    const m3u = playlistPointingAt('/srv/recordings/speech.wav');
    expect(m3u.length).toBeLessThan(130);
    for (const text of [
      m3u.toString(),
      '\uFEFF  #EXTM3U\nhttp://example.com/a.ts\n',
      "ffconcat version 1.0\nfile '/etc/passwd'\n",
      '[playlist]\nFile1=/tmp/a.wav\n',
      'v=0\no=- 0 0 IN IP4 127.0.0.1\nm=audio 5004 RTP/AVP 0\n',
      '<?xml version="1.0"?><MPD></MPD>',
      '/home/someone/call.wav\n',
      'concat:/a.wav|/b.wav',
    ]) {
      expect(sniffAudio(Buffer.from(text)), text).toEqual({ ok: false, reason: 'playlist' });
    }
    // An ID3 tag in front does not turn a playlist into audio.
    const tag = Buffer.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]);
    expect(sniffAudio(Buffer.concat([tag, m3u]))).toEqual({ ok: false, reason: 'playlist' });
  });

  it('refuses bytes that are no known audio container', () => {
    expect(sniffAudio(Buffer.alloc(5000, 1))).toEqual({ ok: false, reason: 'unknown' });
    expect(sniffAudio(Buffer.from('hello'))).toEqual({ ok: false, reason: 'unknown' });
    expect(sniffAudio(Buffer.alloc(0))).toEqual({ ok: false, reason: 'unknown' });
    let state = 7;
    const random = Buffer.alloc(64 * 1024, 0).map(() => (state = (state * 1103515245 + 12345) >>> 0) >>> 24);
    random[0] = 0x00;
    expect(sniffAudio(random)).toEqual({ ok: false, reason: 'unknown' });
  });

  it('measures MPEG frames (128 kbit/s 44.1 kHz layer III is 417 bytes)', () => {
    expect(mpegFrameLength(Uint8Array.from([0xff, 0xfb, 0x90, 0x00]), 0)).toBe(417);
    expect(mpegFrameLength(Uint8Array.from([0xff, 0xfb, 0xf0, 0x00]), 0)).toBe(0); // bad bitrate
  });
});
