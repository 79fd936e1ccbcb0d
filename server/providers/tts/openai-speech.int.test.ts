import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGES } from '../../../core/stages';
import { personaVoice } from '../brain/personas';
import { skipWithout } from '../../test-support/engines';
import { startSpeechApi } from '../../test-support/speech-api';
import { OpenAiSpeechTts, speechApiSpeed, speechApiVoice } from './openai-speech';
import { DEFAULT_VOICE } from './types';

const missing = skipWithout('espeak-ng');
let api: Awaited<ReturnType<typeof startSpeechApi>>;

beforeAll(async () => {
  if (!missing) api = await startSpeechApi({ apiKey: 'k' });
});
afterAll(async () => {
  await api?.close();
});

async function drain(tts: OpenAiSpeechTts, text: string, voice = DEFAULT_VOICE) {
  let samples = 0;
  for await (const c of tts.synthesize(text, { voice })) samples += c.pcm.length;
  return samples;
}

describe('speech API voices', () => {
  it("reads each persona in a voice of the persona's gender, and tells personas apart", () => {
    const stages = STAGES;
    const picked = stages.map((s) => {
      const v = personaVoice(s);
      return { female: /\+f\d*$/.test(v.espeakVoice), name: speechApiVoice(v) };
    });
    for (const p of picked) {
      expect(['nova', 'shimmer', 'alloy'].includes(p.name)).toBe(p.female);
    }
    expect(new Set(picked.map((p) => p.name)).size).toBe(stages.length);
  });

  it("sends the persona's pace as the API's speed, kept within what the API takes", () => {
    expect(speechApiSpeed(170)).toBe(1);
    expect(speechApiSpeed(204)).toBe(1.2);
    expect(speechApiSpeed(10)).toBe(0.25);
    expect(speechApiSpeed(5000)).toBe(4);
    expect(speechApiSpeed(Number.NaN)).toBe(1);
  });
});

describe.skipIf(missing !== null)('speech API over HTTP', () => {
  it('sends the key, the model, the voice, PCM and the speed, and streams odd-sized pieces whole', async () => {
    const tts = new OpenAiSpeechTts({ baseUrl: `${api.baseUrl}/`, apiKey: 'k', model: 'tts-1' });
    const voice = { ...DEFAULT_VOICE, espeakVoice: 'en-us+f2', rate: 204, speaker: 1 };
    const samples = await drain(tts, '  Come on in,\n the kitchen is this way.  ', voice);
    expect(samples).toBeGreaterThan(24_000 * 0.5);
    const req = api.seen.at(-1)!;
    expect(req.auth).toBe('Bearer k');
    expect(req.body).toMatchObject({
      model: 'tts-1',
      voice: 'shimmer',
      response_format: 'pcm',
      speed: 1.2,
      input: 'Come on in, the kitchen is this way.',
    });
  });

  it('says what the service answered when it refuses, without its body', async () => {
    const noKey = new OpenAiSpeechTts({ baseUrl: api.baseUrl, model: 'tts-1' });
    await expect(drain(noKey, 'Hello.')).rejects.toThrow(/speech API answered 401$/);
    const broken = new OpenAiSpeechTts({ baseUrl: api.baseUrl, apiKey: 'k', model: 'broken' });
    await expect(drain(broken, 'Hello.')).rejects.toThrow(/speech API answered 500$/);
  });

  it('stops quietly when the reply is cut off mid-stream', async () => {
    const tts = new OpenAiSpeechTts({ baseUrl: api.baseUrl, apiKey: 'k', model: 'tts-1' });
    const abort = new AbortController();
    let chunks = 0;
    for await (const _ of tts.synthesize('This sentence is long enough to arrive in several pieces.', {
      voice: DEFAULT_VOICE,
      signal: abort.signal,
    })) {
      chunks++;
      abort.abort();
    }
    expect(chunks).toBe(1);
  });
});
