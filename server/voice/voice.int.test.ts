import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, sharedDir, startTestServer, type TestServer } from '../test-support/harness';
import { VoiceCallClient, type Received } from '../test-support/call-client';
import { readWav, resampleInt16 } from '../audio/wav';
import { skipWithout } from '../test-support/engines';

/** Real speech from ../shared/fixtures/audio, as 16 kHz mono. */
function speech(rel: string, maxSec?: number): Int16Array {
  const { sampleRate, pcm } = readWav(fs.readFileSync(path.join(sharedDir, 'fixtures/audio', rel)));
  const at16k = resampleInt16(pcm, sampleRate, 16_000);
  return maxSec ? at16k.subarray(0, Math.round(maxSec * 16_000)) : at16k;
}

function withSilence(pcm: Int16Array, beforeSec: number, afterSec: number): Int16Array {
  const out = new Int16Array(Math.round((beforeSec + afterSec) * 16_000) + pcm.length);
  out.set(pcm, Math.round(beforeSec * 16_000));
  return out;
}

const isAudio = (r: Received): r is { at: number; audio: Int16Array } => 'audio' in r;

let server: TestServer;

beforeAll(async () => {
  // Many calls from one client in a minute: the per-client voice limit is not what is tested here.
  server = await startTestServer({ env: { RATE_LIMIT_VOICE: '0' } });
});
afterAll(async () => {
  await server?.close();
});

async function newSession(stage = 'General'): Promise<string> {
  const res = await api(server.url, 'POST', '/api/sessions', { stage });
  expect(res.status).toBe(201);
  return res.body.id as string;
}

/** Starts a call and waits until the homeowner's opening line has been fully played. */
async function startedCall(stage = 'General') {
  const sessionId = await newSession(stage);
  const call = await VoiceCallClient.connect(server.url);
  call.start({ stage, sessionId });
  await call.waitForEvent('ready');
  await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final');
  return { call, sessionId };
}

const noEngines = skipWithout('pocketsphinx', 'sphinx-live', 'espeak-ng');

describe.skipIf(noEngines)('voice pipeline over /api/voice', () => {
  it('recognises real speech, replies with audio, and saves the transcript', async () => {
    const { call, sessionId } = await startedCall();
    const engines = call.events.find((e) => e.type === 'engines');
    expect(engines && engines.type === 'engines' && engines.engines.map((e) => e.capability)).toEqual(
      expect.arrayContaining([
        'speech-to-text',
        'homeowner',
        'text-to-speech',
        'voice-activity',
        'live-speech-to-text',
      ]),
    );
    const liveEngine =
      engines && engines.type === 'engines'
        ? engines.engines.find((e) => e.capability === 'live-speech-to-text')?.engine
        : undefined;
    // `npm run setup` builds the warm decoder; CI runs it, so calls here use it.
    expect(liveEngine).toBe('pocketsphinx-live');
    const mark = call.received.length;
    await call.stream(withSilence(speech('azure_misc/whatstheweatherlike.wav'), 0.3, 1.2));
    const userFinal = await call.waitForEvent(
      'transcript',
      (e) => e.role === 'user' && e.transcriptType === 'final',
      { from: mark },
    );
    expect(userFinal.transcript).toMatch(/weather/);
    // Live captions came before the final: the warm decoder's running hypothesis.
    const partials = call.events.filter(
      (e) => e.type === 'transcript' && e.role === 'user' && e.transcriptType === 'partial',
    );
    expect(partials.length).toBeGreaterThan(0);
    const afterUser = call.received.findIndex(
      (r) =>
        'event' in r &&
        r.event.type === 'transcript' &&
        r.event.role === 'user' &&
        r.event.transcriptType === 'final',
    );
    // The homeowner answers in audio, then the answer becomes a final transcript entry.
    await call.waitFor(isAudio, { from: afterUser });
    const reply = await call.waitForEvent(
      'transcript',
      (e) => e.role === 'assistant' && e.transcriptType === 'final',
      { from: afterUser },
    );
    expect(reply.transcript.length).toBeGreaterThan(0);
    const metrics = call.events.find((e) => e.type === 'turn-metrics');
    expect(metrics).toBeDefined();
    // The turn's latency reaches /metrics.
    const scrape = await fetch(`${server.url}/metrics`).then((r) => r.text());
    const count = /doorstep_voice_turn_latency_seconds_count\{[^}]*\} (\d+)/.exec(scrape);
    expect(Number(count?.[1] ?? 0)).toBeGreaterThan(0);

    call.stop();
    await call.waitForEvent('ended');
    const saved = await api(server.url, 'GET', `/api/sessions/${sessionId}`);
    const entries = saved.body.transcript as { role: string; transcript: string }[];
    expect(entries.some((e) => e.role === 'user' && /weather/.test(e.transcript))).toBe(true);
    expect(entries.filter((e) => e.role === 'assistant').length).toBeGreaterThanOrEqual(2);
    expect(saved.body.duration).toMatch(/^\d+$/);
    // The row records which engines served the call.
    expect((saved.body.engines as { capability: string }[]).map((e) => e.capability)).toContain(
      'live-speech-to-text',
    );
  });

  it('barge-in: rep speech stops the homeowner, and the transcript keeps only what was said', async () => {
    const sessionId = await newSession('Windows');
    const call = await VoiceCallClient.connect(server.url);
    call.start({ stage: 'Windows', sessionId });
    await call.waitForEvent('ready');
    // Speak over the homeowner's opening line while it plays.
    await call.waitFor(isAudio);
    const rep = withSilence(speech('jfk/jfk.wav', 4), 0.4, 1.0);
    await call.stream(rep);
    const interruptAt = call.received.findIndex((r) => 'event' in r && r.event.type === 'interrupt');
    expect(interruptAt).toBeGreaterThan(0);
    const partials = call.received
      .slice(0, interruptAt)
      .flatMap((r) =>
        'event' in r && r.event.type === 'transcript' && r.event.role === 'assistant'
          ? [r.event.transcript]
          : [],
      );
    const generated = partials[partials.length - 1];
    // The interrupted reply's transcript after the interrupt keeps only what was played: a final
    // that is a strict prefix of what was generated, or, when the rep cut in before a whole word
    // of it was heard, a cleared partial and no final.
    const cut = await call.waitForEvent('transcript', (e) => e.role === 'assistant', { from: interruptAt });
    if (cut.transcriptType === 'final') {
      expect(generated.startsWith(cut.transcript)).toBe(true);
      expect(cut.transcript.length).toBeLessThan(generated.length);
    } else {
      expect(cut.transcript).toBe('');
    }
    // No audio of the interrupted reply follows the interrupt.
    const nextUserFinal = call.received.findIndex(
      (r, i) =>
        i > interruptAt &&
        'event' in r &&
        r.event.type === 'transcript' &&
        r.event.role === 'user' &&
        r.event.transcriptType === 'final',
    );
    const audioBetween = call.received
      .slice(interruptAt, nextUserFinal < 0 ? undefined : nextUserFinal)
      .filter(isAudio).length;
    expect(audioBetween).toBe(0);
    call.close();
  });

  it('keeps the transcript when the socket drops mid-call', async () => {
    const { call, sessionId } = await startedCall('HVAC');
    const mark = call.received.length;
    await call.stream(withSilence(speech('azure_misc/whatstheweatherlike.wav'), 0.3, 1.2));
    await call.waitForEvent('transcript', (e) => e.role === 'user' && e.transcriptType === 'final', {
      from: mark,
    });
    call.terminate();
    let entries: { role: string }[] = [];
    for (let i = 0; i < 50 && !entries.some((e) => e.role === 'user'); i++) {
      await new Promise((r) => setTimeout(r, 100));
      entries = (await api(server.url, 'GET', `/api/sessions/${sessionId}`)).body.transcript;
    }
    expect(entries.some((e) => e.role === 'user')).toBe(true);
    expect(entries.some((e) => e.role === 'assistant')).toBe(true);
  });

  it.each([
    ['garbage text', (c: VoiceCallClient) => c.sendJson('{not json'), 'bad-message'],
    ['an unknown message', (c: VoiceCallClient) => c.sendJson({ type: 'dance' }), 'bad-message'],
    ['audio before start', (c: VoiceCallClient) => c.sendRaw(Buffer.alloc(640)), 'not-started'],
    [
      'a wrong sample rate',
      (c: VoiceCallClient) => c.start({ stage: 'General', sampleRate: 44_100 }),
      'unsupported-sample-rate',
    ],
    [
      'an unknown stage',
      (c: VoiceCallClient) => c.sendJson({ type: 'start', stage: 'Pools', sampleRate: 16_000 }),
      'bad-message',
    ],
    [
      'an odd-length frame',
      (c: VoiceCallClient) => {
        c.start({ stage: 'General' });
        c.sendRaw(Buffer.alloc(641));
      },
      'bad-frame',
    ],
    [
      'an audio flood',
      (c: VoiceCallClient) => {
        c.start({ stage: 'General' });
        for (let i = 0; i < 8; i++) c.sendRaw(Buffer.alloc(32_000));
      },
      'flood',
    ],
  ])('rejects %s with an error event and ends the session; the server stays up', async (_name, act, code) => {
    const call = await VoiceCallClient.connect(server.url);
    act(call);
    const error = await call.waitForEvent('error');
    expect(error.code).toBe(code);
    expect(error.message.length).toBeGreaterThan(5);
    await call.waitFor(() => call.closed, { timeoutMs: 5000 }).catch(() => undefined);
    expect(call.closed).toBe(true);
    const health = await api(server.url, 'GET', '/api/health');
    expect(health.status).toBe(200);
  });

  it('refuses a session id that names no session', async () => {
    const call = await VoiceCallClient.connect(server.url);
    call.start({ stage: 'General', sessionId: '00000000-0000-4000-8000-000000000000' });
    const error = await call.waitForEvent('error');
    expect(error.code).toBe('unknown-session');
  });
});
