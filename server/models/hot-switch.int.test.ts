import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGES } from '../../core/stages';
import { api, startTestServer, type TestServer } from '../test-support/harness';
import { VoiceCallClient } from '../test-support/call-client';
import { DEFAULT_MODEL_SELECTORS, reselectForModel, type ModelSelectors } from '../providers/registry';
import type { TextToSpeech, TtsAudio, VoiceStyle } from '../providers/tts/types';

/**
 * The switch-over in the real server: a voice model becomes ready while a call is live. The live
 * call keeps speaking with the voice it started with; a call started afterwards gets the new one.
 */
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ env: { RATE_LIMIT_VOICE: '0' } });
});
afterAll(async () => {
  await server?.close();
});

/** A stand-in for a neural voice: records what it was asked to say, answers with a short tone. */
class RecordingTts implements TextToSpeech {
  readonly id = 'sherpa-onnx:test-voice';
  readonly label = 'Neural voice (test)';
  readonly said: { text: string; speaker: number }[] = [];
  async *synthesize(text: string, opts: { voice: VoiceStyle }): AsyncIterable<TtsAudio> {
    this.said.push({ text, speaker: opts.voice.speaker });
    yield { sampleRate: 16_000, pcm: new Int16Array(1600).fill(1000) };
  }
}

async function startCall(stage: string) {
  const res = await api(server.url, 'POST', '/api/sessions', { stage });
  expect(res.status).toBe(201);
  const call = await VoiceCallClient.connect(server.url);
  call.sendJson({ type: 'start', stage, sessionId: res.body.id, input: 'text', output: 'audio' });
  await call.waitForEvent('ready');
  await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
    timeoutMs: 30_000,
  });
  return call;
}

const ttsEngine = (call: VoiceCallClient) => {
  const e = call.events.find((ev) => ev.type === 'engines');
  return e?.type === 'engines' ? e.engines.find((x) => x.capability === 'text-to-speech')?.engine : undefined;
};

async function say(call: VoiceCallClient, text: string) {
  const mark = call.received.length;
  call.sendJson({ type: 'user-text', text });
  await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
    from: mark,
    timeoutMs: 30_000,
  });
  // The reply's audio follows its text.
  await call.waitFor((r) => 'audio' in r, { from: mark, timeoutMs: 30_000 });
}

describe('hot switch with a live call', () => {
  it('a voice model ready mid-call: the live call keeps its voice, the next call speaks with the new one', async () => {
    const { providers, config } = server.server.ctx;
    const before = providers.info('tts')?.engine;
    expect(before).toBeTruthy();
    const live = await startCall('HVAC');
    expect(ttsEngine(live)).toBe(before);

    const voice = new RecordingTts();
    const selectors: ModelSelectors = {
      ...DEFAULT_MODEL_SELECTORS,
      tts: async () => ({
        engine: voice,
        info: {
          capability: 'text-to-speech',
          engine: voice.id,
          label: voice.label,
          reason: 'test voice',
          quality: 'enhanced',
          ok: true,
        },
      }),
    };
    expect(await reselectForModel(providers, config, 'text-to-speech', undefined, selectors)).toEqual([
      'text-to-speech',
    ]);
    // Health shows the better voice at once.
    const health = await api(server.url, 'GET', '/api/health');
    expect(health.body.capabilities).toContainEqual({
      capability: 'text-to-speech',
      ok: true,
      quality: 'enhanced',
    });

    // The call that was live keeps speaking with the voice it started with.
    await say(live, 'How old is your furnace?');
    expect(voice.said).toEqual([]);

    // A new call gets the new voice, with its persona's speaker.
    const next = await startCall('Roofing');
    expect(ttsEngine(next)).toBe('sherpa-onnx:test-voice');
    expect(voice.said.length).toBeGreaterThan(0);
    const opening = voice.said.length;
    await say(next, 'When did you first notice the leak?');
    expect(voice.said.length).toBeGreaterThan(opening);
    const roofer = STAGES.indexOf('Roofing');
    expect(voice.said.every((s) => s.speaker === roofer)).toBe(true);

    // Still the old voice for the call that was live, even after the new call spoke.
    const said = voice.said.length;
    await say(live, 'What would make this an easy decision?');
    expect(voice.said.length).toBe(said);
    live.close();
    next.close();
  });
});
