import { describe, expect, it } from 'vitest';
import { loadStatus, modelsBusy, type StatusModel } from './status-api';

const health = {
  status: 'degraded',
  database: { driver: 'pglite', ok: true },
  jobs: { queued: 1, running: 0, failed: 0, done: 3 },
  engines: [{ capability: 'coach', engine: 'rubric', label: 'Rubric coach', reason: 'No LLM set', ok: true }],
};

function fakeFetch(routes: Record<string, (init?: RequestInit) => Response>) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const impl = (async (input: string, init?: RequestInit) => {
    calls.push({ url: input, init });
    const route = routes[input];
    return route
      ? route(init)
      : new Response('{"error":{"code":"not_found","message":"x"}}', { status: 404 });
  }) as typeof fetch;
  return { impl, calls };
}

const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });

describe('the status page data', () => {
  it('uses /api/status when it answers, sending the token as a bearer', async () => {
    const { impl, calls } = fakeFetch({ '/api/status': () => json(health) });
    const result = await loadStatus('tok', impl);
    expect(result).toMatchObject({ kind: 'ok', source: 'status' });
    expect(new Headers(calls[0].init?.headers).get('authorization')).toBe('Bearer tok');
  });

  it('falls back to /api/health where there is no operator endpoint', async () => {
    const { impl } = fakeFetch({ '/api/health': () => json(health) });
    expect(await loadStatus(null, impl)).toMatchObject({ kind: 'ok', source: 'health' });
  });

  it('asks for the token on 401, and says when a given token was refused', async () => {
    const pub = { status: 'ok' };
    const { impl } = fakeFetch({
      '/api/status': () => json({ error: { code: 'unauthorized', message: 'no' } }, 401),
      '/api/health': () => json(pub),
    });
    expect(await loadStatus(null, impl)).toEqual({ kind: 'needs-token', rejected: false, publicReport: pub });
    expect(await loadStatus('wrong', impl)).toMatchObject({ kind: 'needs-token', rejected: true });
  });

  it('asks for the token on 404 when health holds no engine details (production)', async () => {
    const { impl } = fakeFetch({ '/api/health': () => json({ status: 'ok' }) });
    expect(await loadStatus(null, impl)).toMatchObject({ kind: 'needs-token', rejected: false });
  });

  it('reports an unreachable server', async () => {
    const impl = (async () => {
      throw new TypeError('Failed to fetch');
    }) as typeof fetch;
    expect(await loadStatus(null, impl)).toMatchObject({ kind: 'error' });
  });
});

describe('modelsBusy', () => {
  it('is true only while a model downloads, is checked or unpacked', () => {
    const at = (state: StatusModel['state']) => ({ models: { enabled: true, models: [{ id: 'm', state }] } });
    expect(modelsBusy(undefined)).toBe(false);
    expect(modelsBusy({})).toBe(false);
    expect(modelsBusy(at('queued'))).toBe(false);
    expect(modelsBusy(at('downloading'))).toBe(true);
    expect(modelsBusy(at('verifying'))).toBe(true);
    expect(modelsBusy(at('unpacking'))).toBe(true);
    expect(modelsBusy(at('ready'))).toBe(false);
    expect(modelsBusy(at('failed'))).toBe(false);
  });
});
