import { afterEach, describe, expect, it } from 'vitest';
import { healthSchema, operatorStatusSchema } from '../../core/operator-status';
import { startTestServer, type TestServer } from '../test-support/harness';

/** Anything that looks like a filesystem path, a model file or a helper binary. */
const PATHISH =
  /(^|[\s"'(=])\/[\w.-]+\/|[A-Za-z]:\\|\.(onnx|gguf|bin|dict|wav|so)\b|sphinx-live|espeak-live|pocketsphinx_/;

async function get(url: string, token?: string) {
  const res = await fetch(url, { headers: token ? { authorization: `Bearer ${token}` } : {} });
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
    t = await startTestServer({ env: { NODE_ENV: 'production', METRICS_TOKEN: 'op-token' } });
    for (const url of ['/api/status', '/metrics']) {
      expect((await get(t.url + url)).status, url).toBe(401);
      expect((await get(t.url + url, 'wrong')).status, url).toBe(401);
      expect((await get(t.url + url, 'op-token')).status, url).toBe(200);
    }
    const status = operatorStatusSchema.parse((await get(`${t.url}/api/status`, 'op-token')).body);
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
});
