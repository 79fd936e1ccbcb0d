import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../test-support/harness';
import { VoiceCallClient } from '../test-support/call-client';

/**
 * Two servers on one PostgreSQL database, as two web processes behind one proxy: every
 * per-address allowance is one allowance, whichever process a request reaches
 * (server/limits/pg-store.ts). Each server has its own pool, limit store and holder id.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A call's first answer: 'ready' or the error code it was refused with. */
async function startCall(base: string): Promise<{ call: VoiceCallClient; answer: string }> {
  const call = await VoiceCallClient.connect(base);
  call.sendJson({ type: 'start', stage: 'General', input: 'text', output: 'text' });
  const first = await call.waitFor((r) => 'event' in r && ['ready', 'error'].includes(r.event.type));
  const event = 'event' in first ? first.event : null;
  const answer = event?.type === 'error' ? event.code : (event?.type ?? 'none');
  return { call, answer };
}

async function closed(call: VoiceCallClient): Promise<void> {
  call.close();
  await call.waitFor(() => call.closed, { timeoutMs: 5000 }).catch(() => undefined);
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('limits shared by two servers on one database', () => {
  let a: TestServer;
  let b: TestServer;
  const env = {
    MAX_CALLS_PER_CLIENT: '1',
    RATE_LIMIT_SESSIONS: '3',
    RATE_LIMIT_WINDOW_MS: '60000',
    METRICS_TOKEN: 'operator-token-for-the-scale-out-tests',
  };

  beforeAll(async () => {
    a = await startTestServer({ db: 'postgres', env });
    // The second process only serves requests; the first also runs the job worker.
    b = await startTestServer({ databaseUrl: a.databaseUrl, env: { ...env, ROLES: 'web' } });
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
  });

  it('refuses a call on one server while the address holds its one call on the other', async () => {
    const first = await startCall(a.url);
    expect(first.answer).toBe('ready');
    const refused = await startCall(b.url);
    expect(refused.answer).toBe('too-many-calls');
    await closed(refused.call);

    first.call.stop();
    await first.call.waitForEvent('ended');
    await closed(first.call);
    // The slot is given back once server A has seen the socket close.
    let next: { call: VoiceCallClient; answer: string } | null = null;
    for (let i = 0; i < 50; i++) {
      next = await startCall(b.url);
      if (next.answer === 'ready') break;
      await closed(next.call);
      await sleep(100);
    }
    expect(next?.answer).toBe('ready');
    // ...and now it is B's call that A refuses.
    const overA = await startCall(a.url);
    expect(overA.answer).toBe('too-many-calls');
    await closed(overA.call);
    await closed(next!.call);
  });

  it('allows a rate-limited route RATE_LIMIT_SESSIONS times across both servers, not on each', async () => {
    const statuses: number[] = [];
    for (const base of [a.url, b.url, a.url, b.url, a.url]) {
      statuses.push((await api(base, 'POST', '/api/sessions', { stage: 'General' })).status);
    }
    expect(statuses).toEqual([201, 201, 201, 429, 429]);
    const refused = await api(b.url, 'POST', '/api/sessions', { stage: 'General' });
    expect(refused.body.error.code).toBe('rate_limited');
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('counts wrong operator tokens sent to either server together', async () => {
    const wrong = (base: string) =>
      fetch(`${base}/api/status`, { headers: { authorization: 'Bearer wrong' } }).then((r) => r.status);
    const statuses: number[] = [];
    // Ten wrong tokens allowed in the window, five through each server.
    for (let i = 0; i < 5; i++) statuses.push(await wrong(a.url), await wrong(b.url));
    expect(statuses).toEqual(Array(10).fill(401));
    expect(await wrong(a.url)).toBe(429);
    expect(await wrong(b.url)).toBe(429);
  });
});
