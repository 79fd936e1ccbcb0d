import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { builtHelper } from '../../native-helpers';
import { skipWithout } from '../../test-support/engines';
import { sharedDir } from '../../test-support/harness';
import { EspeakTts } from './espeak';
import { EspeakLiveTts } from './espeak-live';
import { FakeTts } from './fake';
import { FliteTts } from './flite';
import { OpenAiSpeechTts } from './openai-speech';
import { startSpeechApi } from '../../test-support/speech-api';
import { findSherpaTtsModel, SherpaTts } from './sherpa';
import { DEFAULT_VOICE, type TextToSpeech, type VoiceStyle } from './types';

/**
 * The suite every text-to-speech engine passes: a sentence streams audible PCM of a plausible
 * length, the voice's rate reaches the engine, empty text and a cancelled request give nothing,
 * and close releases it. An engine that is not installed is skipped with the reason printed;
 * the embedded ones (espeak-ng, and the warm build/espeak-live) go through skipWithout, so under
 * CI=true they must be there.
 */
const MODELS = process.env.MODELS_DIR ?? path.join(sharedDir, 'models');

/** A local OpenAI-compatible speech server (speaking through espeak-ng) for the HTTP engine. */
let speechApi: Awaited<ReturnType<typeof startSpeechApi>> | undefined;
beforeAll(async () => {
  if (!skipWithout('espeak-ng')) speechApi = await startSpeechApi({ apiKey: 'test-key' });
});
afterAll(async () => {
  await speechApi?.close();
});

interface Engine {
  name: string;
  /** Why the engine cannot run here, or null; checked once, at collection. */
  missing(): string | null;
  load(): TextToSpeech;
}

const engines: Engine[] = [
  {
    name: 'espeak-ng',
    missing: () => (skipWithout('espeak-ng') ? 'espeak-ng is not installed' : null),
    load: () => new EspeakTts(),
  },
  {
    name: 'espeak-live',
    missing: () => (skipWithout('espeak-live') ? 'build/espeak-live is not built' : null),
    load: () => new EspeakLiveTts(builtHelper('espeak-live')!, 1),
  },
  {
    name: 'flite',
    missing: () => (skipWithout('flite') ? 'flite is not installed' : null),
    load: () => new FliteTts(),
  },
  {
    name: 'sherpa-onnx',
    missing: () =>
      findSherpaTtsModel(MODELS) ? null : `no voice under ${MODELS}/tts (npm run models adds one)`,
    load: () => new SherpaTts(findSherpaTtsModel(MODELS)!),
  },
  {
    name: 'openai-speech (local speech API)',
    missing: () =>
      skipWithout('espeak-ng') ? 'espeak-ng is not installed (the local speech API speaks with it)' : null,
    load: () => new OpenAiSpeechTts({ baseUrl: speechApi!.baseUrl, apiKey: 'test-key', model: 'tts-1' }),
  },
  { name: 'fake', missing: () => null, load: () => new FakeTts() },
];

const SENTENCE = 'Thanks for coming by, the windows are in the back.';

async function speak(
  tts: TextToSpeech,
  text: string,
  voice: VoiceStyle = DEFAULT_VOICE,
  signal?: AbortSignal,
) {
  let samples = 0;
  let peak = 0;
  let sampleRate = 0;
  let chunks = 0;
  for await (const chunk of tts.synthesize(text, { voice, signal })) {
    chunks++;
    sampleRate = chunk.sampleRate;
    samples += chunk.pcm.length;
    for (const s of chunk.pcm) peak = Math.max(peak, Math.abs(s));
  }
  return { chunks, sampleRate, peak, seconds: sampleRate ? samples / sampleRate : 0 };
}

const loaded: TextToSpeech[] = [];
afterAll(async () => {
  for (const e of loaded) await e.close?.();
});

describe.each(engines)('text-to-speech contract: $name', (engine) => {
  const missing = engine.missing();
  if (missing) console.log(`text-to-speech contract: ${engine.name} skipped: ${missing}`);
  let tts: TextToSpeech | undefined;
  const get = () => {
    if (!tts) {
      tts = engine.load();
      loaded.push(tts);
    }
    return tts;
  };

  it.skipIf(missing !== null)(
    'streams audible speech of a plausible length for a sentence',
    async () => {
      const e = get();
      expect(e.id).toMatch(/\S/);
      expect(e.label).toMatch(/\S/);
      const out = await speak(e, SENTENCE);
      expect(out.chunks).toBeGreaterThan(0);
      expect(out.sampleRate).toBeGreaterThanOrEqual(8000);
      expect(out.peak).toBeGreaterThan(1000);
      // Ten words: well over half a second and well under ten at a normal rate.
      expect(out.seconds).toBeGreaterThan(0.8);
      expect(out.seconds).toBeLessThan(10);
    },
    60_000,
  );

  it.skipIf(missing !== null)(
    "follows the voice's speaking rate",
    async () => {
      const slow = await speak(get(), SENTENCE, { ...DEFAULT_VOICE, rate: 120 });
      const fast = await speak(get(), SENTENCE, { ...DEFAULT_VOICE, rate: 300 });
      expect(fast.seconds).toBeLessThan(slow.seconds * 0.8);
    },
    60_000,
  );

  it.skipIf(missing !== null)('gives nothing for empty text or a cancelled request', async () => {
    expect((await speak(get(), '   ')).chunks).toBe(0);
    const abort = new AbortController();
    abort.abort();
    expect((await speak(get(), SENTENCE, DEFAULT_VOICE, abort.signal)).chunks).toBe(0);
  });
});
