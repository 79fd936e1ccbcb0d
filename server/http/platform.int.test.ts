import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, dbKinds, startTestServer, type TestServer } from '../test-support/harness';

const clientIndex = path.resolve(import.meta.dirname, '../../dist/client/index.html');

async function raw(base: string, url: string, init: RequestInit = {}) {
  const res = await fetch(base + url, init);
  const text = await res.text();
  let body: any = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body, headers: res.headers, text };
}

const DEFAULT_CSP =
  "default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;" +
  "font-src 'self' data:;connect-src 'self';media-src 'self' blob:;worker-src 'self' blob:;" +
  "frame-src 'none';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'self'";

const SECURITY_HEADERS: Record<string, string> = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'no-referrer',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'SAMEORIGIN',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
};

function expectJsonError(res: { status: number; body: any; text: string }, status: number, code?: string) {
  expect(res.status).toBe(status);
  expect(typeof res.body.error?.message, res.text).toBe('string');
  expect(res.body.error.message.length).toBeGreaterThan(5);
  expect(res.text).not.toMatch(/at .+\.(ts|js):\d+/); // no stack trace
  if (code) expect(res.body.error.code).toBe(code);
}

for (const db of dbKinds) {
  describe(`platform routes on ${db}`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ db });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('reports status to operators: database, job queue and engines', async () => {
      const res = await api(t.url, 'GET', '/api/status');
      expect(res.status).toBe(200);
      expect(['ok', 'degraded']).toContain(res.body.status);
      expect(res.body.database).toMatchObject({ driver: db, ok: true });
      expect(res.body.database.describe).not.toMatch(/postgres:postgres@/);
      expect(res.body.jobs).toMatchObject({
        queued: expect.any(Number),
        running: expect.any(Number),
        failed: expect.any(Number),
      });
      expect(res.body.jobs.worker.running).toBe(true);
      expect(Array.isArray(res.body.engines)).toBe(true);
      const capabilities = res.body.engines.map((e: any) => e.capability);
      expect(capabilities).toEqual(expect.arrayContaining(['storage', 'coach', 'speech-to-text']));
      const allOk = res.body.engines.every((e: any) => e.ok);
      expect(res.body.status).toBe(allOk ? 'ok' : 'degraded');
    });

    it('serves public config with the built-in voice and no third parties by default', async () => {
      const res = await api(t.url, 'GET', '/api/config');
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ voiceProvider: 'local', vapi: null, hubspot: null });
      expect(res.body.deviceSpeech).toEqual({ mode: 'auto', cloud: 'ask' });
      expect(res.body.engines.length).toBeGreaterThan(0);
      for (const e of res.body.engines) expect(e).not.toHaveProperty('reason');
    });

    it('answers every malformed request with a clear JSON 4xx', async () => {
      const json = { 'content-type': 'application/json' };
      expectJsonError(
        await raw(t.url, '/api/sessions', { method: 'POST', headers: json, body: '{"stage": ' }),
        400,
        'invalid_json',
      );
      expectJsonError(
        await raw(t.url, '/api/sessions', { method: 'POST', headers: json, body: '' }),
        400,
        'invalid_json',
      );
      expectJsonError(
        await raw(t.url, '/api/sessions', {
          method: 'POST',
          headers: { 'content-type': 'text/plain' },
          body: 'stage=General',
        }),
        415,
        'unsupported_media_type',
      );
      expectJsonError(
        await raw(t.url, '/api/sessions', {
          method: 'POST',
          headers: json,
          body: JSON.stringify({ stage: 'x'.repeat(2 * 1024 * 1024) }),
        }),
        413,
        'payload_too_large',
      );
      expectJsonError(
        await raw(t.url, '/api/sessions', {
          method: 'POST',
          headers: json,
          body: '{"__proto__": {"admin": true}, "stage": "General"}',
        }),
        400,
      );
      expectJsonError(await raw(t.url, '/api/nothing-here'), 404, 'not_found');
      expectJsonError(await raw(t.url, '/api/sessions', { method: 'DELETE' }), 404, 'not_found');
      expectJsonError(await raw(t.url, '/api/sessions/%E0%A4%A'), 400, 'bad_request');
      expectJsonError(await raw(t.url, '/assets/missing-file.js'), 404, 'not_found');
      // Nothing above created a session by accident.
      const health = await api(t.url, 'GET', '/api/health');
      expect(health.status).toBe(200);
    });

    it('serves the page for client routes, with security headers', async () => {
      const res = await raw(t.url, '/audio');
      if (!fs.existsSync(clientIndex)) {
        expectJsonError(res, 404, 'not_found');
        return;
      }
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toContain('text/html');
      expect(res.text).toContain('<div id="root">');
      for (const url of ['/', '/debug', '/status', '/audio?session=abc'])
        expect((await raw(t.url, url)).status, url).toBe(200);
      // Unknown pages get the app shell (which shows the 404 page) with a real 404 status.
      for (const url of ['/some/unknown/page', '/no-such-page', '/audio/extra']) {
        const missing = await raw(t.url, url);
        expect(missing.status, url).toBe(404);
        expect(missing.headers.get('content-type')).toContain('text/html');
        expect(missing.text).toContain('<div id="root">');
      }
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(csp).toContain("default-src 'self'");
      expect(csp).toContain("script-src 'self'");
      expect(csp).not.toContain('vapi');
      expect(csp).not.toContain('hsforms');
      expect(res.headers.get('x-powered-by')).toBeNull();
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    });

    it('sends the same security headers on answers, errors and unknown routes', async () => {
      const answers = [
        await raw(t.url, '/api/config'),
        await raw(t.url, '/api/nothing-here'),
        await raw(t.url, '/api/sessions', {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{"stage": ',
        }),
        await raw(t.url, '/api/audio/00000000-0000-4000-8000-000000000000'),
      ];
      expect(answers.map((r) => r.status)).toEqual([200, 404, 400, 404]);
      for (const res of answers) {
        expect(res.headers.get('content-security-policy')).toBe(DEFAULT_CSP);
        for (const [name, value] of Object.entries(SECURITY_HEADERS)) {
          expect(res.headers.get(name), name).toBe(value);
        }
        // No HSTS without an https PUBLIC_URL; no isolation header that would block Vapi's media.
        expect(res.headers.get('strict-transport-security')).toBeNull();
        expect(res.headers.get('cross-origin-embedder-policy')).toBeNull();
        expect(res.headers.get('x-powered-by')).toBeNull();
      }
    });

    it('exposes Prometheus metrics', async () => {
      await api(t.url, 'POST', '/api/sessions', { stage: 'General' });
      const res = await raw(t.url, '/metrics');
      expect(res.status).toBe(200);
      expect(res.text).toContain('doorstep_http_request_duration_seconds_bucket');
      expect(res.text).toMatch(/route="\/api\/sessions"/);
      expect(res.text).toContain('doorstep_job_queue_depth{status="queued"}');
      expect(res.text).toContain('doorstep_live_calls');
      expect(res.text).toContain('doorstep_stt_real_time_factor');
      expect(res.text).toContain('doorstep_voice_turn_latency_seconds');
    });
  });
}

describe('configured third parties and limits', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({
      env: {
        VOICE_PROVIDER: 'vapi',
        VAPI_PUBLIC_KEY: 'pk-public-123',
        VAPI_ASSISTANT_WINDOWS: 'asst-windows',
        VAPI_ASSISTANT_GENERAL: 'asst-general',
        HUBSPOT_PORTAL_ID: '4242',
        HUBSPOT_FORM_ID: 'form-1',
        LLM_API_KEY: 'sk-secret-llm-key',
        SMTP_URL: 'smtp://user:smtp-secret@127.0.0.1:2525',
        RATE_LIMIT_COACHING: '3',
        RATE_LIMIT_UPLOAD: '2',
        RATE_LIMIT_FEEDBACK: '2',
        RATE_LIMIT_LEADS: '2',
        METRICS_TOKEN: 'metrics-token-0123456789abcdefghijklmn',
        PUBLIC_URL: 'https://coach.example.test',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('sends the Vapi public key and assistants, HubSpot ids, and never a secret', async () => {
    const res = await raw(t.url, '/api/config');
    expect(res.body).toMatchObject({
      voiceProvider: 'vapi',
      vapi: {
        publicKey: 'pk-public-123',
        assistants: {
          Windows: 'asst-windows',
          General: 'asst-general',
          HVAC: null,
          Roofing: null,
          Flooring: null,
        },
      },
      hubspot: { portalId: '4242', formId: 'form-1', region: 'na1' },
    });
    for (const url of ['/api/config', '/api/health']) {
      const text = (await raw(t.url, url)).text;
      expect(text).not.toContain('sk-secret-llm-key');
      expect(text).not.toContain('smtp-secret');
    }
  });

  it('allows the Vapi and HubSpot origins in the CSP only when configured', async () => {
    const res = await raw(t.url, '/api/config');
    const csp = res.headers.get('content-security-policy') ?? '';
    expect(csp).toContain('https://api.vapi.ai');
    expect(csp).toContain('https://js.hsforms.net');
    // Served over https, so browsers are told to stay on https.
    expect(res.headers.get('strict-transport-security')).toBe('max-age=15552000; includeSubDomains');
  });

  it('limits coaching requests with 429 and Retry-After', async () => {
    const statuses: number[] = [];
    let limited: Awaited<ReturnType<typeof raw>> | undefined;
    for (let i = 0; i < 5; i++) {
      const res = await raw(t.url, '/api/sessions/00000000-0000-4000-8000-000000000000/coaching', {
        method: 'POST',
      });
      statuses.push(res.status);
      if (res.status === 429) limited = res;
    }
    expect(statuses).toEqual([404, 404, 404, 429, 429]);
    expectJsonError(limited!, 429, 'rate_limited');
    expect(Number(limited!.headers.get('retry-after'))).toBeGreaterThan(0);
    // Other routes are not limited.
    expect((await api(t.url, 'POST', '/api/sessions', { stage: 'HVAC' })).status).toBe(201);
  });

  it('limits uploads, feedback and leads too, and counts refusals in /metrics', async () => {
    for (const url of ['/api/audio/upload', '/api/feedback', '/api/leads']) {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) {
        const res = await raw(t.url, url, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        statuses.push(res.status);
        if (i === 2) {
          expectJsonError(res, 429, 'rate_limited');
          expect(Number(res.headers.get('retry-after')), url).toBeGreaterThan(0);
        }
      }
      expect(statuses[0], url).not.toBe(429);
      expect(statuses[1], url).not.toBe(429);
    }
    const metrics = await raw(t.url, '/metrics', {
      headers: { authorization: 'Bearer metrics-token-0123456789abcdefghijklmn' },
    });
    expect(metrics.text).toMatch(/doorstep_rate_limited_total\{limit="feedback"\} [1-9]/);
  });

  it('protects metrics with the configured token', async () => {
    expectJsonError(await raw(t.url, '/metrics'), 401, 'unauthorized');
    const ok = await raw(t.url, '/metrics', {
      headers: { authorization: 'Bearer metrics-token-0123456789abcdefghijklmn' },
    });
    expect(ok.status).toBe(200);
  });
});
