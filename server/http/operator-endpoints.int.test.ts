import { afterEach, describe, expect, it } from 'vitest';
import { healthSchema, operatorStatusSchema } from '../../core/operator-status';
import { startTestServer, type TestServer } from '../test-support/harness';
import { ConfigError, loadConfig } from '../env';

const TOKEN = 'op-token-0123456789abcdefghijklmnopqrstuvwxyz';

/** Anything that looks like a filesystem path, a model file or a helper binary. */
const PATHISH =
  /(^|[\s"'(=])\/[\w.-]+\/|[A-Za-z]:\\|\.(onnx|gguf|bin|dict|wav|so)\b|sphinx-live|espeak-live|pocketsphinx_/;

async function get(url: string, token?: string, scheme = 'Bearer') {
  const res = await fetch(url, { headers: token ? { authorization: `${scheme} ${token}` } : {} });
  const text = await res.text();
  let body: any = null;
  try {
    body = JSON.parse(text);
  } catch {
    // /metrics is plain text
  }
  return { status: res.status, text, body };
}

describe('what the operator endpoints show', () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('public health says ok/degraded and which capabilities work, with no paths, models or binaries', async () => {
    t = await startTestServer({ env: { NODE_ENV: 'production' } });
    const health = await get(`${t.url}/api/health`);
    expect(health.status).toBe(200);
    expect(health.text).not.toMatch(PATHISH);
    expect(health.text).not.toContain(t.dataDir);
    const parsed = healthSchema.strict().parse(health.body);
    expect(parsed.capabilities.map((c) => c.capability)).toEqual(
      expect.arrayContaining(['storage', 'coach', 'speech-to-text']),
    );
    expect(parsed.status).toBe(parsed.capabilities.every((c) => c.ok) ? 'ok' : 'degraded');
  });

  it('in production with no token, /api/status and /metrics are off', async () => {
    t = await startTestServer({ env: { NODE_ENV: 'production' } });
    expect((await get(`${t.url}/api/status`)).status).toBe(404);
    expect((await get(`${t.url}/metrics`)).status).toBe(404);
  });

  it('in production with a token, /api/status and /metrics need it', async () => {
    t = await startTestServer({ env: { NODE_ENV: 'production', METRICS_TOKEN: TOKEN } });
    for (const url of ['/api/status', '/metrics']) {
      expect((await get(t.url + url)).status, url).toBe(401);
      expect((await get(t.url + url, 'wrong')).status, url).toBe(401);
      expect((await get(t.url + url, TOKEN)).status, url).toBe(200);
    }
    const status = operatorStatusSchema.parse((await get(`${t.url}/api/status`, TOKEN)).body);
    expect(status.database.ok).toBe(true);
    expect(status.engines.find((e) => e.capability === 'coach')?.reason).toMatch(/\S/);
    expect(status.coaching?.size).toBeGreaterThanOrEqual(1);
    expect(status.jobs.worker.running).toBe(true);
  });

  it('while developing, /api/status is open', async () => {
    t = await startTestServer({ env: { NODE_ENV: 'development' } });
    const status = await get(`${t.url}/api/status`);
    expect(status.status).toBe(200);
    expect(operatorStatusSchema.safeParse(status.body).success).toBe(true);
  });

  it('takes the Bearer scheme in any case', async () => {
    t = await startTestServer({ env: { NODE_ENV: 'production', METRICS_TOKEN: TOKEN } });
    for (const scheme of ['Bearer', 'bearer', 'BEARER', 'bEaReR'])
      expect((await get(`${t.url}/api/status`, TOKEN, scheme)).status, scheme).toBe(200);
    expect((await get(`${t.url}/api/status`, TOKEN, 'Basic')).status).toBe(401);
  });

  it('refuses an address after 10 wrong tokens in 15 minutes, even with the right one', async () => {
    t = await startTestServer({ env: { NODE_ENV: 'production', METRICS_TOKEN: TOKEN } });
    // Opening the page without a token is not a guess.
    for (let i = 0; i < 12; i++) expect((await get(`${t.url}/api/status`)).status).toBe(401);
    for (let i = 0; i < 10; i++) expect((await get(`${t.url}/metrics`, `guess-${i}`)).status).toBe(401);
    const res = await fetch(`${t.url}/api/status`, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(429);
    const retryAfter = Number(res.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(800);
    expect(retryAfter).toBeLessThanOrEqual(900);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('rate_limited');
  });
});

describe('the operator token setting', () => {
  it('must be at least 32 characters', () => {
    expect(() => loadConfig({ METRICS_TOKEN: 'short-token' })).toThrow(ConfigError);
    expect(() => loadConfig({ METRICS_TOKEN: 'x'.repeat(31) })).toThrow(/at least 32 characters/);
    expect(loadConfig({ METRICS_TOKEN: 'x'.repeat(32) }).METRICS_TOKEN).toBe('x'.repeat(32));
    expect(loadConfig({ METRICS_TOKEN: '' }).METRICS_TOKEN).toBeUndefined();
  });
});
