import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../test-support/harness';
import type { SpeechToText, SttSegment } from '../providers/stt/types';
import { AudioTooLongError, ffmpegPath } from '../audio/decode';
import { transcribeFile } from './pipeline';
import { encodeWav } from '../audio/wav';

const fixtures = path.join(sharedDir, 'fixtures/audio');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-test-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** An engine that records what it was given and says one word per call at the clip's middle. */
class RecordingEngine implements SpeechToText {
  readonly id = 'recording';
  readonly label = 'recording';
  samples = 0;
  calls = 0;
  async transcribe(pcm: Int16Array): Promise<SttSegment[]> {
    this.samples += pcm.length;
    this.calls++;
    const mid = Math.round((pcm.length / 16_000) * 500);
    return [
      {
        startMs: mid,
        endMs: mid + 300,
        text: 'hello',
        words: [{ word: 'hello', startMs: mid, endMs: mid + 300 }],
      },
    ];
  }
}

function ffmpeg(args: string[]): void {
  execFileSync(ffmpegPath(), ['-hide_banner', '-loglevel', 'error', '-y', ...args]);
}

describe('recording length and silence', { timeout: 120_000 }, () => {
  it('refuses a recording longer than the limit from its header, before any recognition', async () => {
    const file = path.join(tmp, 'long-silence.ogg');
    ffmpeg([
      ...['-f', 'lavfi', '-i', 'anullsrc=r=16000:cl=mono', '-t', '180'],
      ...['-c:a', 'libopus', '-b:a', '8k', '-compression_level', '0', file],
    ]);
    const engine = new RecordingEngine();
    const err = await transcribeFile(file, engine, { maxDurationMs: 2 * 60_000 }).catch((e) => e);
    expect(err).toBeInstanceOf(AudioTooLongError);
    expect(err.message).toMatch(/3 minutes long.*up to 2 minutes/);
    expect(engine.calls).toBe(0);
  });

  it('gives a long silent recording no recognition at all, and speech in it only its own stretch', async () => {
    const silent = path.join(tmp, 'silence.wav');
    fs.writeFileSync(silent, encodeWav(new Int16Array(16_000 * 300), 16_000));
    const engine = new RecordingEngine();
    const result = await transcribeFile(silent, engine, { maxDurationMs: 120 * 60_000 });
    expect(engine.samples).toBe(0);
    expect(result.transcript).toEqual([]);
    expect(result.durationMs).toBe(300_000);

    // Two minutes of silence, 11 s of speech, two minutes of silence.
    const jfk = path.join(fixtures, 'jfk/jfk.wav');
    const withSpeech = path.join(tmp, 'speech-in-silence.wav');
    ffmpeg(['-i', jfk, '-af', 'adelay=120000,apad=pad_dur=120', '-ar', '16000', '-ac', '1', withSpeech]);
    const engine2 = new RecordingEngine();
    const r2 = await transcribeFile(withSpeech, engine2, { maxDurationMs: 120 * 60_000 });
    expect(engine2.samples / 16_000).toBeGreaterThan(10);
    expect(engine2.samples / 16_000).toBeLessThan(20);
    // The engine's word is placed back in the original timeline, inside the speech.
    expect(r2.transcript.length).toBeGreaterThan(0);
    for (const e of r2.transcript) {
      expect(e.timestamp).toBeGreaterThan(119_000);
      expect(e.timestamp).toBeLessThan(132_000);
    }
  });
});
