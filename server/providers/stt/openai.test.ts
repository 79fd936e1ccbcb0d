import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { decodeWav } from '../../audio/wav';
import { OpenAiStt } from './openai';

/** A local stand-in for an OpenAI-compatible server: it reads the multipart WAV it is sent. */
let server: http.Server;
let base = '';
const seen: { auth?: string; fields: Record<string, string[]>; samples: number }[] = [];

function parseMultipart(body: Buffer, boundary: string) {
  const fields: Record<string, string[]> = {};
  let samples = 0;
  const parts = body.toString('latin1').split(`--${boundary}`);
  for (const part of parts) {
    const name = /name="([^"]+)"/.exec(part)?.[1];
    if (!name) continue;
    const value = part.slice(part.indexOf('\r\n\r\n') + 4, part.lastIndexOf('\r\n'));
    if (name === 'file') samples = decodeWav(Buffer.from(value, 'latin1')).samples.length;
    else (fields[name] ??= []).push(value);
  }
  return { fields, samples };
}

beforeAll(async () => {
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.url !== '/v1/audio/transcriptions') {
        res.writeHead(404).end('nope');
        return;
      }
      const boundary = /boundary=(.+)$/.exec(req.headers['content-type'] ?? '')![1];
      const { fields, samples } = parseMultipart(Buffer.concat(chunks), boundary);
      seen.push({ auth: req.headers.authorization, fields, samples });
      if (fields.model?.[0] === 'broken') {
        res.writeHead(500).end('model exploded');
        return;
      }
      const durSec = samples / 16000;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify({
          text: 'hello there. how are you',
          segments: [
            { start: 0, end: durSec / 2, text: ' hello there.' },
            { start: durSec / 2, end: durSec, text: ' how are you' },
          ],
          words: [
            { word: 'hello', start: 0, end: 0.2 },
            { word: 'there', start: 0.2, end: 0.4 },
            { word: 'how', start: durSec / 2, end: durSec / 2 + 0.1 },
          ],
        }),
      );
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

describe('OpenAI-compatible speech-to-text', () => {
  it('sends WAV with verbose_json and maps segments and words with chunk offsets', async () => {
    const stt = new OpenAiStt({ baseUrl: base, apiKey: 'k1', model: 'whisper-1', chunkMs: 2000 });
    const pcm = new Int16Array(16000 * 3); // 3 s -> two requests at a 2 s limit
    const segs = await stt.transcribe(pcm);
    const mine = seen.slice(-2);
    expect(mine).toHaveLength(2);
    expect(mine[0].auth).toBe('Bearer k1');
    expect(mine[0].fields.response_format).toEqual(['verbose_json']);
    expect(mine[0].samples + mine[1].samples).toBe(pcm.length);
    expect(segs.map((s) => s.text)).toEqual(['hello there.', 'how are you', 'hello there.', 'how are you']);
    const secondStart = Math.round((mine[0].samples / 16000) * 1000);
    expect(segs[2].startMs).toBe(secondStart);
    expect(segs[0].words?.map((w) => w.word)).toEqual(['hello', 'there']);
  });

  it('reports a failing service clearly', async () => {
    const stt = new OpenAiStt({ baseUrl: base, model: 'broken' });
    await expect(stt.transcribe(new Int16Array(1600))).rejects.toThrow(/answered 500: model exploded/);
  });
});
