import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../test-support/harness';

describe('a missing embedded engine piece at start', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { ROLES: 'web', SPHINX_LIVE_PATH: '/nonexistent/sphinx-live' } });
  });
  afterAll(async () => t?.close());

  it('is named with the command that adds it in the operator health view, not in the page config', async () => {
    const health = await api(t.url, 'GET', '/api/status');
    const live = health.body.engines.find((e: any) => e.capability === 'live-speech-to-text');
    expect(live.installCommand).toBe('npm run setup');
    expect(live.missing.join(' ')).toMatch(/sphinx-live/);
    const config = await api(t.url, 'GET', '/api/config');
    for (const engine of config.body.engines) {
      expect(engine).not.toHaveProperty('installCommand');
      expect(engine).not.toHaveProperty('missing');
    }
  });
});
