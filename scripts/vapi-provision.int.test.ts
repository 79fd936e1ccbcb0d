import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PERSONA_FACTS } from '../server/providers/brain/personas';
import { main } from './vapi-provision';

/** A local stand-in for Vapi's REST API: keeps assistants in memory and records each request. */
interface Recorded {
  method: string;
  url: string;
  auth: string | undefined;
  body: any;
}

let server: http.Server;
let baseUrl: string;
const requests: Recorded[] = [];
const assistants = new Map<string, any>();

beforeAll(async () => {
  server = http.createServer((req, res) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : undefined;
      requests.push({ method: req.method!, url: req.url!, auth: req.headers.authorization, body });
      const send = (status: number, payload: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.headers.authorization !== 'Bearer test-private-key')
        return send(401, { message: 'Unauthorized' });
      if (req.method === 'GET' && req.url!.startsWith('/assistant'))
        return send(200, [...assistants.values()]);
      if (req.method === 'POST' && req.url === '/assistant') {
        const id = `asst-${assistants.size + 1}`;
        assistants.set(id, { ...body, id });
        return send(201, { ...body, id });
      }
      const m = /^\/assistant\/(.+)$/.exec(req.url!);
      if (req.method === 'PATCH' && m && assistants.has(m[1])) {
        assistants.set(m[1], { ...assistants.get(m[1]), ...body });
        return send(200, assistants.get(m[1]));
      }
      send(404, { message: 'not found' });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(() => new Promise<void>((r) => server.close(() => r())));

function capture() {
  const lines: string[] = [];
  const errors: string[] = [];
  return {
    lines,
    errors,
    out: { log: (l: string) => lines.push(l), error: (l: string) => errors.push(l) } as unknown as Console,
  };
}

describe('npm run vapi:provision', () => {
  it('creates the five assistants from the persona definitions and prints the env lines', async () => {
    const { lines, out } = capture();
    const code = await main({ VAPI_PRIVATE_KEY: 'test-private-key', VAPI_BASE_URL: baseUrl }, out);
    expect(code).toBe(0);
    const posts = requests.filter((r) => r.method === 'POST');
    expect(posts).toHaveLength(5);
    expect(posts.every((r) => r.auth === 'Bearer test-private-key')).toBe(true);
    const roofing = posts.find((r) => r.body.metadata.stage === 'Roofing')!.body;
    expect(roofing.model.messages[0].content).toContain(PERSONA_FACTS.Roofing.household.problem);
    expect(roofing.firstMessage).toBe(PERSONA_FACTS.Roofing.openings[0]);
    expect(roofing.maxDurationSeconds).toBe(300);
    expect(new Set(posts.map((r) => r.body.voice.voiceId)).size).toBe(5);
    expect(lines).toContain('VOICE_PROVIDER=vapi');
    for (const stage of ['WINDOWS', 'HVAC', 'ROOFING', 'FLOORING', 'GENERAL']) {
      expect(lines.some((l) => new RegExp(`^VAPI_ASSISTANT_${stage}=asst-\\d$`).test(l))).toBe(true);
    }
  });

  it('updates the same assistants when run again instead of duplicating them', async () => {
    requests.length = 0;
    const { lines, out } = capture();
    expect(await main({ VAPI_PRIVATE_KEY: 'test-private-key', VAPI_BASE_URL: baseUrl }, out)).toBe(0);
    expect(requests.filter((r) => r.method === 'POST')).toHaveLength(0);
    expect(requests.filter((r) => r.method === 'PATCH')).toHaveLength(5);
    expect(assistants.size).toBe(5);
    expect(lines).toContain('VAPI_ASSISTANT_WINDOWS=asst-1');
  });

  it('explains a missing key, a rejected key and an unreachable API', async () => {
    const missing = capture();
    expect(await main({ VAPI_BASE_URL: baseUrl }, missing.out)).toBe(1);
    expect(missing.errors[0]).toMatch(/VAPI_PRIVATE_KEY/);

    const wrong = capture();
    expect(await main({ VAPI_PRIVATE_KEY: 'public-key-by-mistake', VAPI_BASE_URL: baseUrl }, wrong.out)).toBe(
      1,
    );
    expect(wrong.errors[0]).toMatch(/401.*private API key/);

    const down = capture();
    expect(await main({ VAPI_PRIVATE_KEY: 'k', VAPI_BASE_URL: 'http://127.0.0.1:9' }, down.out)).toBe(1);
    expect(down.errors[0]).toMatch(/Could not reach/);
  });
});
