/**
 * Property-based fuzzing of every HTTP endpoint: bodies, parameters, query strings, headers,
 * content types, raw bytes (invalid UTF-8), oversized JSON, malformed multipart with path-like
 * file names, and broken HTTP. Every answer must be a 2xx, or a JSON 4xx with a clear message;
 * never a 5xx, never a crash. `npm run test:fuzz` runs the full size (FUZZ_RUNS per property).
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dbKinds, sharedDir, startTestServer, type TestServer } from '../test-support/harness';

const RUNS = Number(process.env.FUZZ_RUNS ?? 60);
const TOTAL_CASES = { n: 0 };

interface Answer {
  status: number;
  text: string;
  contentType: string;
}

async function send(base: string, method: string, url: string, init: RequestInit = {}): Promise<Answer> {
  const res = await fetch(base + url, { method, redirect: 'manual', ...init });
  const text = await res.text();
  TOTAL_CASES.n++;
  return { status: res.status, text, contentType: res.headers.get('content-type') ?? '' };
}

/** The one rule: success, or a JSON 4xx `{error: {code, message}}` that says what is wrong. */
function checkAnswer(a: Answer, what: string) {
  const label = `${what} -> ${a.status} ${a.text.slice(0, 200)}`;
  expect(a.status, label).toBeLessThan(500);
  if (a.status >= 400) {
    expect(a.contentType, label).toContain('application/json');
    const body = JSON.parse(a.text);
    expect(typeof body.error?.code, label).toBe('string');
    expect(typeof body.error?.message, label).toBe('string');
    expect(body.error.message.length, label).toBeGreaterThan(5);
    expect(a.text, label).not.toMatch(/\n\s+at .+:\d+:\d+/);
  }
}

// Ids that are random, path-like, encoded or hostile.
const idArb = fc.oneof(
  fc.uuid(),
  fc.string({ maxLength: 60 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
  fc.constantFrom(
    '..',
    '../..',
    '..%2f..%2fetc%2fpasswd',
    '%2e%2e',
    '%00',
    'null',
    'undefined',
    '0',
    '-1',
    "'; drop table sessions; --",
    'a'.repeat(2000),
    '00000000-0000-0000-0000-000000000000',
    'ffffffff-ffff-ffff-ffff-ffffffffffff',
  ),
);

const contentTypeArb = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-8',
  'application/json; charset=latin1',
  'APPLICATION/JSON',
  'text/plain',
  'text/html',
  'application/x-www-form-urlencoded',
  'multipart/form-data',
  'multipart/form-data; boundary=xyz',
  'application/octet-stream',
  'application/xml',
  'audio/wav',
  '*/*',
  'garbage',
  '',
);

const headerValueArb = fc.string({
  unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)),
  maxLength: 100,
});
const headersArb = fc.dictionary(fc.stringMatching(/^x-[a-z0-9-]{1,20}$/), headerValueArb, { maxKeys: 4 });
const standardHeadersArb = fc.record(
  {
    accept: fc.constantFrom('*/*', 'application/json', 'text/html', 'image/png', 'garbage/'),
    'accept-encoding': fc.constantFrom('gzip', 'br', 'identity', 'x'),
    'x-forwarded-for': fc.constantFrom('1.2.3.4', 'not-an-ip', '::1', ''),
    origin: fc.constantFrom('https://evil.example', 'null', 'http://localhost'),
    range: fc.constantFrom('bytes=0-10', 'bytes=-5', 'bytes=9999999-', 'bytes=a-b', 'items=0-1'),
  },
  { requiredKeys: [] },
);

const entryArb = fc.record(
  {
    role: fc.oneof(fc.constantFrom('user', 'assistant'), fc.string({ maxLength: 10 })),
    transcript: fc.oneof(fc.string({ maxLength: 200 }), fc.integer(), fc.constant(null)),
    timestamp: fc.oneof(fc.nat(), fc.integer(), fc.double(), fc.string({ maxLength: 5 })),
    transcriptType: fc.oneof(fc.constantFrom('final', 'partial'), fc.string({ maxLength: 8 })),
  },
  { requiredKeys: [] },
);

/** Bodies near each endpoint's real shape (so validation is exercised deeply), and anything at all. */
const shapedBodyArb = fc.oneof(
  fc.record(
    { stage: fc.oneof(fc.constantFrom('General', 'Windows', 'Plumbing', ''), fc.string(), fc.anything()) },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      transcript: fc.oneof(fc.array(entryArb, { maxLength: 20 }), fc.anything()),
      duration: fc.oneof(fc.nat().map(String), fc.string({ maxLength: 10 }), fc.integer(), fc.constant(null)),
    },
    { requiredKeys: [] },
  ),
  fc.record(
    {
      sessionId: fc.oneof(fc.uuid(), fc.string(), fc.constant(null)),
      sessionKind: fc.oneof(fc.constantFrom('roleplay', 'audio'), fc.string()),
      name: fc.oneof(fc.string({ maxLength: 150 }), fc.anything()),
      email: fc.oneof(fc.emailAddress(), fc.string({ maxLength: 300 }), fc.anything()),
      consent: fc.oneof(fc.boolean(), fc.anything()),
      marketingOptIn: fc.oneof(fc.boolean(), fc.anything()),
      source: fc.oneof(fc.constantFrom('builtin', 'hubspot'), fc.string()),
      swapped: fc.oneof(fc.boolean(), fc.anything()),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue(),
  fc.anything({ withNullPrototype: true, withObjectString: true }),
);

const rawBodyArb = fc.oneof(
  shapedBodyArb.map((v) => {
    try {
      return JSON.stringify(v) ?? 'null';
    } catch {
      return '{}';
    }
  }),
  fc.string({ maxLength: 300 }),
  fc.constantFrom(
    '{',
    '[',
    '{"stage":',
    '"',
    'null',
    'true',
    '{"__proto__":{"x":1}}',
    '{"constructor":{"prototype":{}}}',
  ),
);

// Invalid UTF-8 and arbitrary bytes.
const bytesArb = fc.oneof(
  fc.uint8Array({ maxLength: 300 }),
  fc.constantFrom(
    Uint8Array.from([0x7b, 0x22, 0x73, 0x74, 0x61, 0x67, 0x65, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
    Uint8Array.from([0xff, 0xfe, 0xfd]),
    Uint8Array.from([0xef, 0xbb, 0xbf, 0x7b, 0x7d]),
    Uint8Array.from([0xed, 0xa0, 0x80]),
  ),
);

function fillUrl(url: string, id: string): string {
  return url.replace(/:[a-zA-Z]+/g, () => encodeURIComponent(id));
}

for (const db of dbKinds) {
  describe(`fuzz every endpoint on ${db}`, () => {
    let t: TestServer;
    let routes: { method: string; url: string; websocket: boolean }[];
    let liveSessionId: string;
    beforeAll(async () => {
      // Web role only: accepted uploads are stored but not transcribed, which would only slow the run.
      t = await startTestServer({ db, env: { BODY_LIMIT_BYTES: String(256 * 1024), ROLES: 'web' } });
      routes = t.server.routes.filter((r) => !r.websocket);
      const res = await fetch(`${t.url}/api/sessions`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ stage: 'General' }),
      });
      liveSessionId = ((await res.json()) as { id: string }).id;
    });
    afterAll(async () => {
      console.log(`fuzz on ${db}: ${TOTAL_CASES.n} requests so far (FUZZ_RUNS=${RUNS})`);
      await t?.close();
    });

    it('covers every route the server registered', () => {
      expect(routes.length).toBeGreaterThan(5);
      for (const r of routes) expect(r.url.startsWith('/')).toBe(true);
    });

    it('bodies, ids, query strings and headers on every route', async () => {
      const routeArb = fc.integer({ min: 0, max: 1000 }).map((i) => routes[i % routes.length]);
      await fc.assert(
        fc.asyncProperty(
          routeArb,
          fc.oneof(idArb, fc.constant('LIVE')),
          fc.option(rawBodyArb, { nil: undefined }),
          contentTypeArb,
          headersArb,
          standardHeadersArb,
          fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
          async (route, rawId, body, contentType, extra, standard, query) => {
            const id = rawId === 'LIVE' ? liveSessionId : rawId;
            const url =
              fillUrl(route.url, id) + (query === undefined ? '' : `?${encodeURIComponent(query)}=1`);
            const headers: Record<string, string> = { ...extra, ...standard };
            const hasBody = body !== undefined && route.method !== 'GET';
            if (hasBody && contentType) headers['content-type'] = contentType;
            const a = await send(t.url, route.method, url, { headers, body: hasBody ? body : undefined });
            checkAnswer(a, `${route.method} ${url} ${contentType} ${String(body).slice(0, 80)}`);
          },
        ),
        { numRuns: RUNS * 5 },
      );
    });

    it('raw bytes and invalid UTF-8 on every body-taking route', async () => {
      const writes = routes.filter((r) => r.method !== 'GET');
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 1000 }).map((i) => writes[i % writes.length]),
          bytesArb,
          contentTypeArb,
          async (route, bytes, contentType) => {
            const url = fillUrl(route.url, liveSessionId);
            const a = await send(t.url, route.method, url, {
              headers: contentType ? { 'content-type': contentType } : {},
              body: Buffer.from(bytes),
            });
            checkAnswer(a, `${route.method} ${url} bytes(${bytes.length}) ${contentType}`);
          },
        ),
        { numRuns: RUNS * 2 },
      );
    });

    it('oversized and deeply nested JSON', async () => {
      const writes = routes.filter((r) => r.method !== 'GET');
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 1000 }).map((i) => writes[i % writes.length]),
          fc.constantFrom('wide', 'deep', 'long-string', 'many-entries'),
          fc.integer({ min: 1, max: 4 }),
          async (route, kind, scale) => {
            const size = 300 * 1024 * scale;
            const body =
              kind === 'wide'
                ? JSON.stringify(
                    Object.fromEntries(Array.from({ length: size / 20 }, (_, i) => [`k${i}`, i])),
                  )
                : kind === 'deep'
                  ? '['.repeat(size / 100) + ']'.repeat(size / 100)
                  : kind === 'long-string'
                    ? JSON.stringify({ stage: 'x'.repeat(size), name: 'x'.repeat(size) })
                    : JSON.stringify({
                        transcript: Array.from({ length: size / 50 }, (_, i) => ({
                          role: 'user',
                          transcript: 'hello',
                          timestamp: i,
                        })),
                      });
            const a = await send(t.url, route.method, fillUrl(route.url, liveSessionId), {
              headers: { 'content-type': 'application/json' },
              body,
            });
            checkAnswer(a, `${route.method} ${route.url} ${kind} ${body.length} bytes`);
          },
        ),
        { numRuns: Math.max(10, Math.round(RUNS / 4)) },
      );
    });

    it('malformed multipart, truncated uploads and path-like file names', async () => {
      const upload = routes.find((r) => r.method === 'POST' && r.url === '/api/audio/upload');
      const targets = upload ? [upload] : routes.filter((r) => r.method === 'POST');
      const wav = fs.readFileSync(path.join(sharedDir, 'fixtures/audio/cards_pocketsphinx/cards_001.wav'));
      const fileNameArb = fc.oneof(
        fc.constantFrom(
          '../../../../etc/passwd',
          '..\\..\\windows\\system32\\evil.wav',
          '/absolute/path.wav',
          'C:\\fakepath\\call.wav',
          'call\u0000.wav',
          '.wav',
          '',
          'a'.repeat(1000) + '.wav',
          '%2e%2e%2fcall.wav',
          'call.wav\r\nX-Injected: 1',
          'dist/client/index.html',
          '<script>alert(1)</script>.mp3',
        ),
        fc.string({ maxLength: 80 }).map((s) => `${s}.wav`),
      );
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: 0, max: 100 }).map((i) => targets[i % targets.length]),
          fileNameArb,
          fc.constantFrom('audio', 'file', 'Audio', ''),
          fc.constantFrom('General', 'Plumbing', '', 'x'.repeat(2000)),
          fc.constantFrom('audio/wav', 'audio/mpeg', 'text/plain', 'application/x-msdownload', ''),
          fc.constantFrom(
            'whole',
            'truncated',
            'no-closing',
            'bad-boundary',
            'garbage',
            'empty-file',
            'two-files',
          ),
          async (route, fileName, field, stage, partType, shape) => {
            const boundary = '----doorstepfuzz' + Math.random().toString(16).slice(2);
            const content = shape === 'empty-file' ? Buffer.alloc(0) : wav;
            const part = (name: string, value: Buffer | string, file?: string, type?: string) =>
              Buffer.concat([
                Buffer.from(
                  `--${boundary}\r\nContent-Disposition: form-data; name="${name}"` +
                    (file !== undefined ? `; filename="${file.replace(/"/g, '%22')}"` : '') +
                    `\r\n${type ? `Content-Type: ${type}\r\n` : ''}\r\n`,
                ),
                Buffer.isBuffer(value) ? value : Buffer.from(value),
                Buffer.from('\r\n'),
              ]);
            let body = Buffer.concat([
              part('stage', stage),
              part(field, content, fileName, partType),
              ...(shape === 'two-files' ? [part(field, content, 'second.wav', 'audio/wav')] : []),
              Buffer.from(shape === 'no-closing' ? '' : `--${boundary}--\r\n`),
            ]);
            if (shape === 'truncated') body = body.subarray(0, Math.floor(body.length / 2));
            if (shape === 'garbage') body = Buffer.from('this is not multipart at all');
            const ct = `multipart/form-data; boundary=${shape === 'bad-boundary' ? 'other' : boundary}`;
            const a = await send(t.url, route.method, fillUrl(route.url, liveSessionId), {
              headers: { 'content-type': ct },
              body,
            });
            checkAnswer(a, `${route.url} multipart ${shape} ${JSON.stringify(fileName).slice(0, 60)}`);
          },
        ),
        { numRuns: RUNS * 2 },
      );
      // Whatever was accepted lies under random names in the private uploads folder, nowhere else.
      const uploads = path.join(t.dataDir, 'uploads');
      if (fs.existsSync(uploads)) {
        for (const name of fs.readdirSync(uploads)) expect(name).toMatch(/^[a-zA-Z0-9][a-zA-Z0-9_.-]*$/);
      }
      expect(fs.existsSync(path.join(t.dataDir, 'etc'))).toBe(false);
      expect(fs.existsSync(path.resolve(t.dataDir, '../etc/passwd.wav'))).toBe(false);
    });

    it('broken HTTP, truncated bodies and slow clients leave the server answering', async () => {
      const { port } = new URL(t.url);
      const rawRequest = (payload: string | Buffer, opts: { endAfterMs?: number } = {}) =>
        new Promise<string>((resolve) => {
          const socket = net.connect(Number(port), '127.0.0.1');
          let out = '';
          socket.on('data', (d) => (out += d.toString()));
          socket.on('error', () => resolve(out));
          socket.on('close', () => resolve(out));
          socket.write(payload);
          // A client that stops sending mid-body and then goes away.
          setTimeout(() => socket.destroy(), opts.endAfterMs ?? 300);
        });
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(
            'GARBAGE\r\n\r\n',
            'GET / HTTP/9.9\r\n\r\n',
            'GET /api/health HTTP/1.1\r\nHost: x\r\nContent-Length: abc\r\n\r\n',
            'POST /api/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{"stage":',
            'POST /api/sessions HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nContent-Type: application/json\r\n\r\nZZ\r\n',
            'POST /api/sessions HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n',
            `GET /api/health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
            'GET /api/he\u0000alth HTTP/1.1\r\nHost: x\r\n\r\n',
            'GET /api/sessions/%ZZ HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n',
          ),
          async (payload) => {
            const out = await rawRequest(payload);
            TOTAL_CASES.n++;
            const status = Number(out.match(/^HTTP\/1\.1 (\d{3})/)?.[1] ?? 0);
            // Either the server answered a 4xx (as JSON) or the client gave up before an answer.
            if (status) {
              expect(status, out.slice(0, 200)).toBeGreaterThanOrEqual(400);
              expect(status, out.slice(0, 200)).toBeLessThan(500);
              expect(out.slice(out.indexOf('\r\n\r\n') + 4)).toMatch(/"error"/);
            }
          },
        ),
        { numRuns: Math.max(9, Math.round(RUNS / 4)) },
      );

      // Slow clients trickling bodies do not stop others from being served.
      const slow = Array.from({ length: 20 }, () => {
        const socket = net.connect(Number(port), '127.0.0.1');
        socket.on('error', () => undefined);
        socket.write(
          'POST /api/sessions HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{',
        );
        return socket;
      });
      const a = await send(t.url, 'GET', '/api/health');
      checkAnswer(a, 'health while slow clients wait');
      expect(a.status).toBe(200);
      for (const s of slow) s.destroy();
    });

    it('is still healthy and lost nothing it stored', async () => {
      const a = await send(t.url, 'GET', `/api/sessions/${liveSessionId}`);
      expect(a.status).toBe(200);
      expect(JSON.parse(a.text).stage).toBe('General');
      expect((await send(t.url, 'GET', '/api/health')).status).toBe(200);
    });
  });
}
