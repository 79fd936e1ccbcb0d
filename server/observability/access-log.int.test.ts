import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../test-support/harness';

/** Session and recording ids open what they name: access logs must not keep them. */
describe('access logs', () => {
  let t: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestServer({
      env: { NODE_ENV: 'development', LOG_LEVEL: 'info' },
      logStream: { write: (line) => lines.push(line) },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('record each request with its ids replaced by :id', async () => {
    const created = await api(t.url, 'POST', '/api/sessions', { stage: 'General' });
    const id = created.body.id as string;
    await api(t.url, 'GET', `/api/sessions/${id}`);
    await api(t.url, 'GET', `/api/audio/${id.toUpperCase()}`);
    await fetch(`${t.url}/?session=${id}&stage=General`).then((r) => r.arrayBuffer());
    await new Promise((r) => setTimeout(r, 200));
    const requests = lines
      .map((l) => JSON.parse(l) as { req?: { url?: string; method?: string } })
      .filter((l) => l.req?.url);
    const urls = requests.map((l) => `${l.req!.method} ${l.req!.url}`);
    expect(urls).toEqual(
      expect.arrayContaining([
        'GET /api/sessions/:id',
        'GET /api/audio/:id',
        'GET /?session=:id&stage=General',
      ]),
    );
    const all = lines.join('\n').toLowerCase();
    expect(all).not.toContain(id.toLowerCase());
  });
});
