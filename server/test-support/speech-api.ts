import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface SpeechRequest {
  auth?: string;
  body: { model?: string; voice?: string; input?: string; response_format?: string; speed?: number };
}

/**
 * A local OpenAI-compatible speech server for tests: `POST /v1/audio/speech` answers 24 kHz
 * 16-bit PCM spoken by espeak-ng (a woman's or a man's voice by the stock voice name, at the
 * requested speed), streamed in pieces like a real service. It records what it was asked.
 * A model named `broken` gets a 500; a missing bearer token when `apiKey` is set gets a 401.
 */
export async function startSpeechApi(opts: { apiKey?: string } = {}) {
  const seen: SpeechRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/audio/speech') {
        res.writeHead(404).end('not found');
        return;
      }
      let body: SpeechRequest['body'];
      try {
        body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as SpeechRequest['body'];
      } catch {
        res.writeHead(400).end('bad json');
        return;
      }
      seen.push({ auth: req.headers.authorization, body });
      if (opts.apiKey && req.headers.authorization !== `Bearer ${opts.apiKey}`) {
        res.writeHead(401).end('no key');
        return;
      }
      if (body.model === 'broken') {
        res.writeHead(500).end('model exploded');
        return;
      }
      if (body.response_format !== 'pcm' || !body.input) {
        res.writeHead(400).end('pcm and input required');
        return;
      }
      const female = ['nova', 'shimmer', 'alloy', 'coral', 'sage'].includes(body.voice ?? '');
      const wpm = Math.round(175 * (body.speed ?? 1));
      const espeak = spawn(
        'espeak-ng',
        ['-v', female ? 'en-us+f3' : 'en-us+m3', '-s', String(wpm), '--stdout'],
        {
          stdio: ['pipe', 'pipe', 'ignore'],
        },
      );
      espeak.stdin.end(body.input);
      const wav: Buffer[] = [];
      espeak.stdout.on('data', (c: Buffer) => wav.push(c));
      espeak.on('close', () => {
        const pcm = resampleTo24k(Buffer.concat(wav));
        res.writeHead(200, { 'content-type': 'audio/pcm' });
        // Odd-sized pieces, as a network delivers them: the client must carry the split sample.
        for (let at = 0; at < pcm.length; at += 4801) res.write(pcm.subarray(at, at + 4801));
        res.end();
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** espeak-ng's WAV (22.05 kHz) to raw 24 kHz little-endian PCM, by linear interpolation. */
function resampleTo24k(wav: Buffer): Buffer {
  const rate = wav.length >= 44 ? wav.readUInt32LE(24) : 22_050;
  const count = Math.max(0, Math.floor((wav.length - 44) / 2));
  const at = (i: number) => wav.readInt16LE(44 + Math.min(i, count - 1) * 2);
  const outCount = Math.floor((count * 24_000) / rate);
  const out = Buffer.alloc(outCount * 2);
  for (let j = 0; j < outCount; j++) {
    const x = (j * rate) / 24_000;
    const i = Math.floor(x);
    const f = x - i;
    out.writeInt16LE(Math.round(at(i) * (1 - f) + at(i + 1) * f), j * 2);
  }
  return out;
}
