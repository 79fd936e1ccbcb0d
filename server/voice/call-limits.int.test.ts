import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../test-support/harness';
import { VoiceCallClient } from '../test-support/call-client';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({
    env: { RATE_LIMIT_VOICE: '0', MAX_LIVE_CALLS: '2', MAX_TEXT_CALLS: '2' },
  });
});
afterAll(async () => {
  await server?.close();
});

/** A text call; retried briefly while calls of an earlier test are still leaving the server. */
async function typedCall(): Promise<VoiceCallClient> {
  for (let attempt = 0; ; attempt++) {
    const call = await VoiceCallClient.connect(server.url);
    call.sendJson({ type: 'start', stage: 'General', input: 'text', output: 'text' });
    const answer = await call.waitFor((r) => 'event' in r && ['ready', 'error'].includes(r.event.type));
    if ('event' in answer && answer.event.type === 'ready') return call;
    if (attempt >= 20) throw new Error('no line came free for a text call');
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function closeAll(calls: VoiceCallClient[]): Promise<void> {
  for (const c of calls) {
    c.close();
    await c.waitFor(() => c.closed, { timeoutMs: 5000 }).catch(() => undefined);
  }
}

describe('server-wide live-call limits', () => {
  it('answers busy over the cap and closes; a freed line takes the next call', async () => {
    const first = await typedCall();
    const second = await typedCall();
    const third = await VoiceCallClient.connect(server.url);
    third.sendJson({ type: 'start', stage: 'General', input: 'text', output: 'text' });
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

  it('counts calls that use the speech engines apart from text calls, each against its own cap', async () => {
    // Two audio calls fill MAX_LIVE_CALLS: a third is refused at start...
    const audio: VoiceCallClient[] = [];
    for (let i = 0; i < 2; i++) {
      const call = await VoiceCallClient.connect(server.url);
      call.start({ stage: 'General' });
      await call.waitForEvent('ready');
      audio.push(call);
    }
    const thirdAudio = await VoiceCallClient.connect(server.url);
    thirdAudio.start({ stage: 'General' });
    expect((await thirdAudio.waitForEvent('error')).code).toBe('busy');
    await thirdAudio.waitFor(() => thirdAudio.closed, { timeoutMs: 5000 }).catch(() => undefined);
    expect(thirdAudio.closed).toBe(true);
    // ...while text calls (the browser's own speech, typed turns) still get lines of their own.
    const text = [await typedCall(), await typedCall()];
    text[0].sendJson({ type: 'user-text', text: 'How old is the house?' });
    await text[0].waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
      from: text[0].received.length,
    });
    // Both caps full: a new socket is turned away before it can start.
    const extra = await VoiceCallClient.connect(server.url);
    expect((await extra.waitForEvent('error')).code).toBe('busy');
    await closeAll([extra, ...audio, ...text]);
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
