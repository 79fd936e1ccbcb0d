import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, startTestServer, type TestServer } from '../test-support/harness';
import { VoiceCallClient, type Received } from '../test-support/call-client';
import type { ServerEvent } from './protocol';

let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { RATE_LIMIT_VOICE: '0' } });
});
afterAll(async () => {
  await server?.close();
});

const isAudio = (r: Received) => 'audio' in r;
type Transcript = Extract<ServerEvent, { type: 'transcript' }>;
const transcripts = (call: VoiceCallClient, from = 0): Transcript[] =>
  call.received.slice(from).flatMap((r) => ('event' in r && r.event.type === 'transcript' ? [r.event] : []));

async function newSession(stage = 'HVAC'): Promise<string> {
  const res = await api(server.url, 'POST', '/api/sessions', { stage });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** A started call whose opening line is over. */
async function textCall(output: 'text' | 'audio', stage = 'HVAC') {
  const sessionId = await newSession(stage);
  const call = await VoiceCallClient.connect(server.url);
  call.sendJson({ type: 'start', stage, sessionId, input: 'text', output });
  await call.waitForEvent('ready');
  await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
    timeoutMs: 30_000,
  });
  return { call, sessionId };
}

/** Sends a typed turn; resolves with what followed it up to the homeowner's final answer. */
async function say(call: VoiceCallClient, text: unknown) {
  const mark = call.received.length;
  call.sendJson({ type: 'user-text', text });
  const final = await call.waitForEvent(
    'transcript',
    (e) => e.role === 'assistant' && e.transcriptType === 'final',
    { from: mark, timeoutMs: 30_000 },
  );
  return { mark, final, after: transcripts(call, mark) };
}

describe('typed turns on /api/voice', () => {
  it('text in, text out: echoed, answered with growing partials and one final, saved; no audio', async () => {
    const { call, sessionId } = await textCall('text');
    const engines = call.events.find((e) => e.type === 'engines');
    const capabilities = engines?.type === 'engines' ? engines.engines.map((e) => e.capability) : [];
    // A typed call hears and speaks nothing: only the homeowner's engine serves it.
    expect(capabilities).toContain('homeowner');
    expect(capabilities).not.toContain('speech-to-text');
    expect(capabilities).not.toContain('voice-activity');
    expect(capabilities).not.toContain('text-to-speech');

    const { mark, final, after } = await say(call, '   How old is your furnace?  ');
    expect(after[0]).toEqual({
      type: 'transcript',
      role: 'user',
      transcriptType: 'final',
      transcript: 'How old is your furnace?',
    });
    const partials = after.filter((e) => e.role === 'assistant' && e.transcriptType === 'partial');
    expect(partials.length).toBeGreaterThan(0);
    // Each partial extends the one before; the final carries the whole reply.
    for (let i = 1; i < partials.length; i++)
      expect(partials[i].transcript.startsWith(partials[i - 1].transcript)).toBe(true);
    expect(final.transcript).toBe(partials.at(-1)!.transcript);
    expect(final.transcript.length).toBeGreaterThan(0);
    // A second turn; exactly one final per reply.
    const second = await say(call, 'What would make this an easy decision for you?');
    expect(
      transcripts(call, mark)
        .slice(0, transcripts(call, mark).indexOf(second.after[0]))
        .filter((e) => e.role === 'assistant' && e.transcriptType === 'final'),
    ).toHaveLength(1);
    const metrics = call.events.filter((e) => e.type === 'turn-metrics');
    expect(metrics.length).toBeGreaterThanOrEqual(2);

    call.stop();
    await call.waitForEvent('ended');
    expect(call.received.some(isAudio)).toBe(false);
    expect(call.events.some((e) => e.type === 'audio-format')).toBe(false);
    const saved = await api(server.url, 'GET', `/api/sessions/${sessionId}`);
    const entries = saved.body.transcript as { role: string; transcript: string }[];
    expect(entries.map((e) => e.role)).toEqual(['assistant', 'user', 'assistant', 'user', 'assistant']);
    expect(entries[1].transcript).toBe('How old is your furnace?');
    expect(entries[2].transcript).toBe(final.transcript);
  });

  it('text in, audio out: the answer is spoken, then final', async () => {
    const { call } = await textCall('audio', 'General');
    const mark = call.received.length;
    call.sendJson({ type: 'user-text', text: 'What projects have been on your mind?' });
    await call.waitForEvent('transcript', (e) => e.role === 'user' && e.transcriptType === 'final', {
      from: mark,
    });
    await call.waitFor(isAudio, { from: mark, timeoutMs: 30_000 });
    expect(call.events.some((e) => e.type === 'audio-format')).toBe(true);
    const final = await call.waitForEvent(
      'transcript',
      (e) => e.role === 'assistant' && e.transcriptType === 'final',
      { from: mark, timeoutMs: 30_000 },
    );
    expect(final.transcript.length).toBeGreaterThan(0);
    call.close();
  });

  it('a typed turn while the homeowner speaks cuts the reply off (barge-in)', async () => {
    const sessionId = await newSession('Windows');
    const call = await VoiceCallClient.connect(server.url);
    // Audio input: typed turns are accepted in either mode.
    call.start({ stage: 'Windows', sessionId });
    await call.waitForEvent('ready');
    await call.waitFor(isAudio, { timeoutMs: 30_000 });
    const mark = call.received.length;
    call.sendJson({ type: 'user-text', text: 'Sorry to cut in, how old are your windows?' });
    const indexOf = (match: (e: ServerEvent) => boolean) =>
      call.received.findIndex((r, i) => i >= mark && 'event' in r && match(r.event));
    await call.waitForEvent('transcript', (e) => e.role === 'user' && e.transcriptType === 'final', {
      from: mark,
    });
    const interruptAt = indexOf((e) => e.type === 'interrupt');
    const echoAt = indexOf((e) => e.type === 'transcript' && e.role === 'user');
    expect(interruptAt).toBeGreaterThanOrEqual(mark);
    expect(interruptAt).toBeLessThan(echoAt);
    // Nothing more of the opening plays after the interrupt.
    expect(call.received.slice(interruptAt, echoAt).filter(isAudio)).toHaveLength(0);
    // ...and the typed turn is answered.
    await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
      from: echoAt,
      timeoutMs: 30_000,
    });
    call.close();
  });

  it.each([
    ['empty text', '   '],
    ['over-long text', 'x'.repeat(1001)],
    ['non-string text', 42],
  ])('refuses %s with bad-message and keeps the call', async (_name, text) => {
    const { call } = await textCall('text');
    const mark = call.received.length;
    call.sendJson({ type: 'user-text', text });
    const error = await call.waitForEvent('error', () => true, { from: mark });
    expect(error.code).toBe('bad-message');
    expect(error.message).toMatch(/1 to 1000 characters/);
    // The call goes on: the next good turn is answered.
    const next = await say(call, 'Is the furnace making any noises?');
    expect(next.after[0].transcript).toBe('Is the furnace making any noises?');
    expect(call.closed).toBe(false);
    call.close();
  });

  it('accepts exactly 1,000 characters', async () => {
    const { call } = await textCall('text');
    const long = `${'so '.repeat(332)}okay`;
    expect(long.length).toBe(1000);
    const { after } = await say(call, long);
    expect(after[0].transcript).toBe(long);
    call.close();
  });

  it('refuses text before start with bad-message; the socket can still start', async () => {
    const call = await VoiceCallClient.connect(server.url);
    call.sendJson({ type: 'user-text', text: 'hello?' });
    const error = await call.waitForEvent('error');
    expect(error.code).toBe('bad-message');
    call.sendJson({ type: 'start', stage: 'General', input: 'text', output: 'text' });
    await call.waitForEvent('ready');
    expect(call.closed).toBe(false);
    call.close();
    const health = await api(server.url, 'GET', '/api/health');
    expect(health.status).toBe(200);
  });

  it('audio frames on a typed call are refused', async () => {
    const { call } = await textCall('text');
    call.sendRaw(Buffer.alloc(640));
    const error = await call.waitForEvent('error');
    expect(error.code).toBe('bad-frame');
  });

  it('typed turns count toward the control-message rate limit', async () => {
    const { call } = await textCall('text');
    for (let i = 0; i < 25; i++) call.sendJson({ type: 'user-text', text: `turn ${i}` });
    const error = await call.waitForEvent('error');
    expect(error.code).toBe('flood');
  });
});

describe('a typed call is a chat', () => {
  it('a line typed while the homeowner speaks waits for the reply instead of cutting it', async () => {
    const { call, sessionId } = await textCall('audio', 'Windows');
    const mark = call.received.length;
    call.sendJson({ type: 'user-text', text: 'What made you start looking at new windows?' });
    await call.waitFor(isAudio, { from: mark, timeoutMs: 30_000 });
    // Typed while the answer is still playing.
    call.sendJson({ type: 'user-text', text: 'And how old are they?' });
    const finals = () =>
      transcripts(call, mark).filter((e) => e.transcriptType === 'final' && e.transcript.length > 0);
    // Both questions answered: four final lines after the mark.
    for (let waited = 0; finals().length < 4 && waited < 60_000; waited += 100)
      await new Promise((r) => setTimeout(r, 100));
    expect(call.events.some((e) => e.type === 'interrupt')).toBe(false);
    // In order: the question, the whole answer, the second question, its answer.
    expect(finals().map((e) => e.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    const firstAnswer = finals()[1].transcript;
    expect(firstAnswer).toMatch(/[.!?]$/);
    call.close();
    await new Promise((r) => setTimeout(r, 300));
    const res = await api(server.url, 'GET', `/api/sessions/${sessionId}`);
    const saved = (res.body.transcript as { role: string; transcript: string }[]).map((e) => e.role);
    expect(saved.slice(-4)).toEqual(['user', 'assistant', 'user', 'assistant']);
  });
});
