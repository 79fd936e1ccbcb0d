import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import http from 'node:http';
import { randomBytes } from 'node:crypto';
import { MAX_CALL_TRANSCRIPT_CHARS, MAX_CALL_TRANSCRIPT_ENTRIES } from '../../core/constants';
import { api, startTestServer, type TestServer } from '../test-support/harness';
import { VoiceCallClient } from '../test-support/call-client';

/**
 * What one client can hold or pour into calls: calls per address, calls left idle, typed turns
 * faster than a conversation, transcripts past what a call can produce, and pages on other
 * sites opening calls.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves once the server has closed the call's socket; fails after 5 s. */
async function closedByServer(call: VoiceCallClient): Promise<void> {
  for (let i = 0; i < 50 && !call.closed; i++) await sleep(100);
  expect(call.closed).toBe(true);
}

async function newSession(base: string): Promise<string> {
  const res = await api(base, 'POST', '/api/sessions', { stage: 'General' });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** A started text call whose opening line has arrived. */
async function textCall(base: string, sessionId?: string): Promise<VoiceCallClient> {
  const call = await VoiceCallClient.connect(base);
  call.sendJson({ type: 'start', stage: 'General', sessionId, input: 'text', output: 'text' });
  await call.waitForEvent('ready');
  await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
    timeoutMs: 30_000,
  });
  return call;
}

const opened: VoiceCallClient[] = [];
afterEach(async () => {
  for (const c of opened.splice(0)) {
    c.close();
    await c.waitFor(() => c.closed, { timeoutMs: 5000 }).catch(() => undefined);
  }
});

describe('calls per client address', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { MAX_CALLS_PER_CLIENT: '2' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a third call from one address with a clear message; a closed one frees its line', async () => {
    opened.push(await textCall(t.url), await textCall(t.url));
    const third = await VoiceCallClient.connect(t.url);
    opened.push(third);
    const refused = await third.waitForEvent('error');
    expect(refused.code).toBe('too-many-calls');
    expect(refused.message).toBe('You already have 2 practice calls open. End one to start another.');
    await closedByServer(third);

    const first = opened.shift()!;
    first.stop();
    await first.waitForEvent('ended');
    await closedByServer(first);
    let next: VoiceCallClient | null = null;
    for (let i = 0; i < 50 && !next; i++) {
      const attempt = await VoiceCallClient.connect(t.url);
      attempt.sendJson({ type: 'start', stage: 'General', input: 'text', output: 'text' });
      const answer = await attempt.waitFor((r) => 'event' in r && ['ready', 'error'].includes(r.event.type));
      if ('event' in answer && answer.event.type === 'ready') next = attempt;
      else {
        attempt.close();
        await sleep(100);
      }
    }
    expect(next).not.toBeNull();
    opened.push(next!);
  });
});

describe('idle calls', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { CALL_IDLE_SEC: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ends an audio call that never sends audio, saying why', async () => {
    const call = await VoiceCallClient.connect(t.url);
    opened.push(call);
    call.sendJson({ type: 'start', stage: 'General', sampleRate: 16_000, input: 'audio', output: 'text' });
    await call.waitForEvent('ready');
    const error = await call.waitForEvent('error', () => true, { timeoutMs: 30_000 });
    expect(error.code).toBe('idle');
    expect(error.message).toBe(
      'The call ended because nothing was said for 1 second. Start a new call when you are ready.',
    );
    expect((await call.waitForEvent('ended')).reason).toBe('error');
    await closedByServer(call);
  });

  it('ends a typed call with no turn once the rep has had time to read the reply', async () => {
    const sessionId = await newSession(t.url);
    const call = await textCall(t.url, sessionId);
    opened.push(call);
    call.sendJson({ type: 'user-text', text: 'Hi there, thanks for having me over today.' });
    const error = await call.waitForEvent('error', () => true, { timeoutMs: 40_000 });
    expect(error.code).toBe('idle');
    await call.waitForEvent('ended');
    // What was said before it went quiet is kept.
    const saved = await api(t.url, 'GET', `/api/sessions/${sessionId}`);
    expect(saved.body.transcript.map((e: { role: string }) => e.role)).toContain('user');
  });

  it('keeps a call whose rep keeps talking', async () => {
    const call = await textCall(t.url);
    opened.push(call);
    // Each reply is read for 400 ms a word: a turn every 2.5 s keeps well inside that.
    for (let i = 0; i < 3; i++) {
      await sleep(2500);
      const from = call.received.length;
      call.sendJson({ type: 'user-text', text: `Question ${i + 1}: how old is the roof?` });
      await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
        from,
      });
    }
    expect(call.events.some((e) => e.type === 'error' || e.type === 'ended')).toBe(false);
  });
});

describe('typed turns at a conversation’s pace', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { TURN_INTERVAL_MS: '1500', TURN_BURST: '2' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses turns past the burst with too-fast, keeps the call, and takes one again after the interval', async () => {
    const sessionId = await newSession(t.url);
    const call = await textCall(t.url, sessionId);
    opened.push(call);
    const from = call.received.length;
    for (let i = 0; i < 5; i++) call.sendJson({ type: 'user-text', text: `Line ${i + 1}` });
    await call.waitFor(
      () => call.events.filter((e) => e.type === 'error' && e.code === 'too-fast').length === 3,
    );
    // A typed line waits for the homeowner's reply to the one before it, then is shown.
    await call.waitForEvent('transcript', (e) => e.role === 'user' && e.transcript === 'Line 2', { from });
    const echoed = call.received
      .slice(from)
      .flatMap((r) =>
        'event' in r && r.event.type === 'transcript' && r.event.role === 'user' ? [r.event] : [],
      );
    expect(echoed.map((e) => e.transcript)).toEqual(['Line 1', 'Line 2']);
    const tooFast = call.events.find((e) => e.type === 'error' && e.code === 'too-fast');
    expect(tooFast?.type === 'error' && tooFast.message).toMatch(/Wait for the homeowner's answer/);
    expect(call.closed).toBe(false);

    await sleep(1600);
    const later = call.received.length;
    call.sendJson({ type: 'user-text', text: 'Line 6' });
    const echo = await call.waitForEvent('transcript', (e) => e.role === 'user', { from: later });
    expect(echo.transcript).toBe('Line 6');
    call.stop();
    await call.waitForEvent('ended');
    const saved = await api(t.url, 'GET', `/api/sessions/${sessionId}`);
    const userLines = saved.body.transcript
      .filter((e: { role: string }) => e.role === 'user')
      .map((e: { transcript: string }) => e.transcript);
    expect(userLines).toEqual(['Line 1', 'Line 2', 'Line 6']);
  });
});

describe('typed calls and the transcript cap', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({});
  });
  afterAll(async () => {
    await t?.close();
  });

  it('ends the call when its transcript is full and saves no more than a call can hold', async () => {
    const sessionId = await newSession(t.url);
    const call = await textCall(t.url, sessionId);
    opened.push(call);
    const line = 'Tell me more about the windows in the back of the house. '.repeat(20).slice(0, 1000);
    // Under the control-message rate, never waiting for replies.
    for (let i = 0; i < 40 && !call.events.some((e) => e.type === 'ended'); i++) {
      call.sendJson({ type: 'user-text', text: line });
      await sleep(60);
    }
    const error = await call.waitForEvent('error', (e) => e.code === 'transcript-full', {
      timeoutMs: 30_000,
    });
    expect(error.message).toBe(
      'This call has reached the most a practice call can hold, so it has ended. What was said is saved.',
    );
    expect((await call.waitForEvent('ended')).reason).toBe('max-duration');
    const saved = await api(t.url, 'GET', `/api/sessions/${sessionId}`);
    const entries = saved.body.transcript as { transcript: string }[];
    const chars = entries.reduce((n, e) => n + e.transcript.length, 0);
    expect(chars).toBeLessThanOrEqual(MAX_CALL_TRANSCRIPT_CHARS);
    expect(chars).toBeGreaterThan(MAX_CALL_TRANSCRIPT_CHARS - 1000);
    expect(entries.length).toBeLessThanOrEqual(MAX_CALL_TRANSCRIPT_ENTRIES);
  });

  it('drops control and bidirectional characters from typed turns', async () => {
    const sessionId = await newSession(t.url);
    const call = await textCall(t.url, sessionId);
    opened.push(call);
    const from = call.received.length;
    call.sendJson({ type: 'user-text', text: 'Ring\u0007 the \u001b[31mbell\u202e now\u2066!\nThanks' });
    const echo = await call.waitForEvent('transcript', (e) => e.role === 'user', { from });
    expect(echo.transcript).toBe('Ring the [31mbell now! Thanks');
    call.stop();
    await call.waitForEvent('ended');
    const saved = await api(t.url, 'GET', `/api/sessions/${sessionId}`);
    const lines = (saved.body.transcript as { transcript: string }[]).map((e) => e.transcript).join(' ');
    // eslint-disable-next-line no-control-regex -- checking that none are left
    expect(lines).not.toMatch(/[\u0000-\u001f\u202a-\u202e\u2066-\u2069]/);
    expect(lines).toContain('Ring the [31mbell now! Thanks');
  });
});

describe('who may open a call (Origin)', () => {
  let t: TestServer;
  let withPublicUrl: TestServer;
  beforeAll(async () => {
    t = await startTestServer({});
    withPublicUrl = await startTestServer({ env: { PUBLIC_URL: 'https://doorstep.example' } });
  });
  afterAll(async () => {
    await t?.close();
    await withPublicUrl?.close();
  });

  /** The HTTP status the upgrade got: 101 when the socket opened. */
  function upgradeStatus(base: string, origin?: string): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${base}/api/voice`, {
        agent: false,
        headers: {
          connection: 'Upgrade',
          upgrade: 'websocket',
          'sec-websocket-version': '13',
          'sec-websocket-key': randomBytes(16).toString('base64'),
          ...(origin ? { origin } : {}),
        },
      });
      req.on('upgrade', (res, socket) => {
        socket.destroy();
        resolve(res.statusCode ?? 0);
      });
      req.on('response', (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
      });
      req.on('error', reject);
      req.end();
    });
  }

  it('refuses a page on another site and accepts the app’s own pages and non-browser clients', async () => {
    const own = new URL(t.url).origin;
    expect(await upgradeStatus(t.url, 'https://evil.example')).toBe(403);
    expect(await upgradeStatus(t.url, 'null')).toBe(403);
    expect(await upgradeStatus(t.url, own)).toBe(101);
    expect(await upgradeStatus(t.url)).toBe(101);
  });

  it('with PUBLIC_URL, accepts only that origin', async () => {
    expect(await upgradeStatus(withPublicUrl.url, 'https://doorstep.example')).toBe(101);
    expect(await upgradeStatus(withPublicUrl.url, new URL(withPublicUrl.url).origin)).toBe(403);
    expect(await upgradeStatus(withPublicUrl.url, 'https://evil.example')).toBe(403);
  });
});
