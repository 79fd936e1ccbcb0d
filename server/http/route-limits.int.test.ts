import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/harness';
import { LIMITS, MUTATING_METHODS } from './route';

const ALL_LIMITS_ONE = Object.fromEntries(Object.values(LIMITS).map((l) => [l.setting, '1']));
const SOME_ID = '00000000-0000-4000-8000-000000000000';

/** Every route that changes state or opens a live call must be rate limited. */
describe('every mutating route declares a rate limit', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: ALL_LIMITS_ONE });
  });
  afterAll(async () => {
    await t?.close();
  });

  const mutating = () =>
    t.server.routes.filter((r) => r.websocket || (MUTATING_METHODS as readonly string[]).includes(r.method));

  it('finds the routes it checks', () => {
    const urls = mutating().map((r) => `${r.method} ${r.url}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        'POST /api/sessions',
        'PUT /api/sessions/:id/transcript',
        'POST /api/audio/:id/retry',
        'POST /api/audio/upload',
        'GET /api/voice',
      ]),
    );
  });

  it('each names a limit where it is registered', () => {
    const missing = mutating()
      .filter((r) => !r.limit)
      .map((r) => `${r.method} ${r.url}`);
    expect(missing).toEqual([]);
  });

  it('each answers 429 once its limit is spent', async () => {
    const unlimited: string[] = [];
    for (const r of mutating().filter((x) => !x.websocket)) {
      const url = t.url + r.url.replace(/:[a-zA-Z]+/g, SOME_ID);
      const statuses: number[] = [];
      for (let i = 0; i < 2; i++) {
        const res = await fetch(url, {
          method: r.method,
          headers: { 'content-type': 'application/json' },
          body: '{}',
        });
        await res.arrayBuffer();
        statuses.push(res.status);
      }
      if (statuses[1] !== 429) unlimited.push(`${r.method} ${r.url} -> ${statuses.join(', ')}`);
    }
    expect(unlimited).toEqual([]);
  });

  it('a report download, CPU work on a worker thread, is limited per client too', async () => {
    const url = `${t.url}/api/audio/${SOME_ID}/pdf`;
    const first = await fetch(url);
    await first.arrayBuffer();
    const second = await fetch(url);
    expect(second.status).toBe(429);
    expect(Number(second.headers.get('retry-after'))).toBeGreaterThan(0);
  });
});
