import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROCESSING_STEPS } from '../../../core/processing';
import { wavHeader } from '../../audio/wav';
import {
  STT_SAMPLE_RATE,
  type SpeechToText,
  type SttSegment,
  type TranscribeOptions,
} from '../../providers/stt/types';
import { api, startTestServer, type TestServer } from '../../test-support/harness';

/**
 * A recogniser that takes `msPerChunk` for each 30 s of audio and says so only when a chunk is
 * done, as the embedded engine does: the page must still see the work move in between.
 */
class ChunkedStt implements SpeechToText {
  readonly id = 'chunked-test';
  readonly label = 'Chunked test engine';
  constructor(private readonly msPerChunk: number) {}
  async transcribe(pcm: Int16Array, opts: TranscribeOptions = {}): Promise<SttSegment[]> {
    const chunk = 30 * STT_SAMPLE_RATE;
    const segments: SttSegment[] = [];
    for (let at = 0; at < pcm.length; at += chunk) {
      await new Promise((r) => setTimeout(r, this.msPerChunk));
      opts.signal?.throwIfAborted();
      const startMs = Math.round((at / STT_SAMPLE_RATE) * 1000);
      segments.push({ startMs, endMs: startMs + 2000, text: 'thanks for having me over today' });
      opts.onProgress?.(Math.min(1, (at + chunk) / pcm.length));
    }
    return segments;
  }
}

/** Five minutes of a tone that comes and goes (speech-like on and off), one channel. */
function fiveMinutes(file: string): string {
  const samples = 300 * STT_SAMPLE_RATE;
  const body = Buffer.alloc(samples * 2);
  for (let i = 0; i < samples; i++) {
    const on = Math.floor(i / (STT_SAMPLE_RATE * 3)) % 2 === 0;
    const v = on ? Math.round(8000 * Math.sin((2 * Math.PI * 220 * i) / STT_SAMPLE_RATE)) : 0;
    body.writeInt16LE(v, i * 2);
  }
  fs.writeFileSync(file, Buffer.concat([wavHeader(body.length, STT_SAMPLE_RATE), body]));
  return file;
}

describe('progress of a 5-minute upload', () => {
  let t: TestServer;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'progress-int-'));
  beforeAll(async () => {
    t = await startTestServer();
    const info = t.server.ctx.providers.info('stt')!;
    t.server.ctx.providers.replace('stt', new ChunkedStt(5000), { ...info, engine: 'chunked-test' });
  });
  afterAll(async () => {
    await t?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it(
    'names its steps, moves at least every few seconds, and says how long is left',
    { timeout: 180_000 },
    async () => {
      const form = new FormData();
      form.append('stage', 'General');
      form.append(
        'audio',
        new Blob([new Uint8Array(fs.readFileSync(fiveMinutes(path.join(tmp, 'call.wav'))))], {
          type: 'audio/wav',
        }),
        'call.wav',
      );
      const up = await fetch(`${t.url}/api/audio/upload`, { method: 'POST', body: form });
      expect(up.status).toBe(201);
      const { id } = (await up.json()) as { id: string };

      const seen: { at: number; progress: number; step: string | null; left: number | null }[] = [];
      const started = Date.now();
      for (;;) {
        const { body } = await api(t.url, 'GET', `/api/audio/${id}`);
        seen.push({
          at: Date.now() - started,
          progress: body.progress,
          step: body.step,
          left: body.estimatedSecondsLeft,
        });
        if (body.status === 'transcribed' || body.status === 'failed') break;
        if (Date.now() - started > 150_000) throw new Error('the transcription did not finish');
        await new Promise((r) => setTimeout(r, 400));
      }
      expect(seen.at(-1)!.progress).toBe(100);
      const running = seen.filter((s) => s.step === 'transcribing');
      // Ten chunks at 5 s each: the recogniser's own reports come every 5 s.
      expect(running.length).toBeGreaterThan(20);
      // The share done moves far more often than that, and never goes back.
      let lastChange = running[0].at;
      let longest = 0;
      for (let i = 1; i < running.length; i++) {
        expect(running[i].progress).toBeGreaterThanOrEqual(running[i - 1].progress);
        if (running[i].progress !== running[i - 1].progress) {
          longest = Math.max(longest, running[i].at - lastChange);
          lastChange = running[i].at;
        }
      }
      expect(longest).toBeLessThan(4000);
      // The steps come in their order, and the time left is said and comes down.
      const steps = [...new Set(seen.map((s) => s.step).filter((s): s is string => s !== null))];
      expect(steps).toEqual(PROCESSING_STEPS.filter((s) => steps.includes(s)));
      expect(steps).toContain('transcribing');
      const lefts = running.map((s) => s.left).filter((n): n is number => n !== null);
      expect(lefts.length).toBeGreaterThan(10);
      expect(lefts.at(-1)!).toBeLessThan(lefts[0]);
    },
  );
});
