import { afterEach, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/harness';

/** Posts an invalid lead (a cheap 400) with the given X-Forwarded-For header. */
async function postLead(url: string, forwardedFor?: string): Promise<number> {
  const res = await fetch(`${url}/api/leads`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
    body: '{}',
  });
  await res.arrayBuffer();
  return res.status;
}

describe('client addresses behind a proxy (TRUST_PROXY)', () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('true trusts one hop: a forged leftmost X-Forwarded-For entry cannot dodge a 10/minute limit', async () => {
    t = await startTestServer({ env: { TRUST_PROXY: 'true', RATE_LIMIT_LEADS: '10' } });
    const statuses: number[] = [];
    // The proxy appends the address it saw (203.0.113.7); the client wrote everything before it.
    for (let i = 0; i < 15; i++) statuses.push(await postLead(t.url, `10.9.${i}.${i}, 203.0.113.7`));
    expect(statuses.filter((s) => s === 429)).toHaveLength(5);
    // Another real client behind the same proxy has its own budget.
    expect(await postLead(t.url, '198.51.100.20')).toBe(400);
  });

  it('a hop count takes the entry that many proxies from the server', async () => {
    t = await startTestServer({ env: { TRUST_PROXY: '2', RATE_LIMIT_LEADS: '3' } });
    const statuses: number[] = [];
    // Two trusted proxies: the client is the second entry from the right, whatever it put before.
    for (let i = 0; i < 5; i++) statuses.push(await postLead(t.url, `10.0.0.${i}, 203.0.113.9, 10.1.1.1`));
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
  });

  it('a list of proxy addresses skips only those proxies', async () => {
    t = await startTestServer({ env: { TRUST_PROXY: '127.0.0.1/8, 10.1.0.0/16', RATE_LIMIT_LEADS: '3' } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push(await postLead(t.url, `10.9.${i}.${i}, 203.0.113.8, 10.1.2.3`));
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
  });

  it('off by default: X-Forwarded-For is ignored and the socket address counts', async () => {
    t = await startTestServer({ env: { RATE_LIMIT_LEADS: '3' } });
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push(await postLead(t.url, `203.0.113.${i}`));
    expect(statuses).toEqual([400, 400, 400, 429, 429]);
  });
});
