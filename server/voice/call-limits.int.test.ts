import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../test-support/harness';
import { VoiceCallClient } from './call-client';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { RATE_LIMIT_VOICE: '0', MAX_LIVE_CALLS: '2' } });
});
afterAll(async () => {
  await server?.close();
});

async function typedCall(): Promise<VoiceCallClient> {
  const call = await VoiceCallClient.connect(server.url);
  call.sendJson({ type: 'start', stage: 'General', input: 'text', output: 'text' });
  await call.waitForEvent('ready');
  return call;
}

describe('server-wide live-call limits', () => {
  it('answers busy over MAX_LIVE_CALLS and closes; a freed line takes the next call', async () => {
    const first = await typedCall();
    const second = await typedCall();
    const third = await VoiceCallClient.connect(server.url);
    const busy = await third.waitForEvent('error');
    expect(busy.code).toBe('busy');
    expect(busy.message).toMatch(/busy/i);
    expect(busy.message).not.toMatch(/MAX_LIVE_CALLS/);
    await third.waitFor(() => third.closed, { timeoutMs: 5000 }).catch(() => undefined);
    expect(third.closed).toBe(true);
    // The live calls are unaffected.
    first.sendJson({ type: 'user-text', text: 'Hi, how is the house treating you?' });
    await first.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
      from: first.received.length,
    });
    first.stop();
    await first.waitForEvent('ended');
    await first.waitFor(() => first.closed, { timeoutMs: 5000 }).catch(() => undefined);
    expect(first.closed).toBe(true);
    // The line is free again (the server notices the close asynchronously).
    let next: VoiceCallClient | null = null;
    for (let i = 0; i < 50 && !next; i++) {
      const attempt = await VoiceCallClient.connect(server.url);
      attempt.sendJson({ type: 'start', stage: 'General', input: 'text', output: 'text' });
      const answer = await attempt.waitFor((r) => 'event' in r && ['ready', 'error'].includes(r.event.type));
      if ('event' in answer && answer.event.type === 'ready') next = attempt;
      else await new Promise((r) => setTimeout(r, 100));
    }
    expect(next).not.toBeNull();
    for (const c of [second, next!]) {
      c.close();
      await c.waitFor(() => c.closed, { timeoutMs: 5000 }).catch(() => undefined);
    }
  });

  it('closes a socket that never sends start, with start-timeout', async () => {
    let idle = await VoiceCallClient.connect(server.url);
    let error = await idle.waitForEvent('error', () => true, { timeoutMs: 30_000 });
    // The previous test's calls may still be leaving the server.
    for (let i = 0; i < 20 && error.code === 'busy'; i++) {
      await new Promise((r) => setTimeout(r, 100));
      idle = await VoiceCallClient.connect(server.url);
      error = await idle.waitForEvent('error', () => true, { timeoutMs: 30_000 });
    }
    expect(error.code).toBe('start-timeout');
    await idle.waitFor(() => idle.closed, { timeoutMs: 5000 }).catch(() => undefined);
    expect(idle.closed).toBe(true);
    expect((await api(server.url, 'GET', '/api/health')).status).toBe(200);
  });
});
