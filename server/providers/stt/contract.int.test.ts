import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWav, resampleInt16 } from '../../audio/wav';
import { skipWithout } from '../../test-support/engines';
import { sharedDir } from '../../test-support/harness';
import { FakeStt } from './fake';
import { PocketSphinxStt } from './pocketsphinx';
import { findSherpaSttModels, SherpaOnnxStt } from './sherpa-onnx';
import { STT_SAMPLE_RATE, type SpeechToText } from './types';

/**
 * The suite every file speech-to-text engine passes: a spoken clip gives its words in ordered
 * segments inside the clip, silence gives no words, progress stays within 0..1 and ends at 1, and
 * a cancelled request stops. An engine that is not installed is skipped with the reason printed;
 * the embedded one (PocketSphinx) goes through skipWithout, so under CI=true it must be there.
 */
const MODELS = process.env.MODELS_DIR ?? path.join(sharedDir, 'models');

interface Engine {
  name: string;
  /** Words a real engine must find in the clip (the fake answers fixed words). */
  expect: RegExp;
  /** Why the engine cannot run here, or null; checked once, at collection. */
  missing(): string | null;
  load(): Promise<SpeechToText>;
}

const sherpaModel = () => findSherpaSttModels(MODELS)[0];

const engines: Engine[] = [
  {
    name: 'pocketsphinx',
    expect: /weather/i,
    missing: () => (skipWithout('pocketsphinx') ? 'PocketSphinx is not installed' : null),
    load: async () => new PocketSphinxStt(),
  },
  {
    name: 'sherpa-onnx',
    expect: /weather/i,
    missing: () => (sherpaModel() ? null : `no speech model under ${MODELS}/stt (npm run models adds one)`),
    load: () => SherpaOnnxStt.load(sherpaModel()!),
  },
  { name: 'fake', expect: /weather/, missing: () => null, load: async () => new FakeStt() },
];

/** Half a second of silence, the clip, half a second of silence. */
const clip = (() => {
  const wav = readWav(
    fs.readFileSync(path.join(sharedDir, 'fixtures/audio/azure_misc/whatstheweatherlike.wav')),
  );
  const speech = resampleInt16(wav.pcm, wav.sampleRate, STT_SAMPLE_RATE);
  const out = new Int16Array(STT_SAMPLE_RATE + speech.length);
  out.set(speech, STT_SAMPLE_RATE / 2);
  return out;
})();
const clipMs = (clip.length / STT_SAMPLE_RATE) * 1000;

const loaded: SpeechToText[] = [];
afterAll(async () => {
  for (const e of loaded) await e.close?.();
});

describe.each(engines)('speech-to-text contract: $name', (engine) => {
  const missing = engine.missing();
  if (missing) console.log(`speech-to-text contract: ${engine.name} skipped: ${missing}`);
  let stt: SpeechToText | undefined;
  const get = async () => {
    if (!stt) {
      stt = await engine.load();
      loaded.push(stt);
    }
    return stt;
  };

  it.skipIf(missing !== null)('names itself', async () => {
    const e = await get();
    expect(e.id).toMatch(/\S/);
    expect(e.label).toMatch(/\S/);
  });

  it.skipIf(missing !== null)(
    "gives a clip's words in ordered segments inside it, with progress up to 1",
    async () => {
      const progress: number[] = [];
      const segments = await (await get()).transcribe(clip, { onProgress: (f) => progress.push(f) });
      expect(segments.length).toBeGreaterThan(0);
      expect(segments.map((s) => s.text).join(' ')).toMatch(engine.expect);
      let previous = 0;
      for (const s of segments) {
        expect(s.startMs).toBeGreaterThanOrEqual(previous);
        expect(s.endMs).toBeGreaterThanOrEqual(s.startMs);
        expect(s.endMs).toBeLessThanOrEqual(clipMs + 50);
        for (const w of s.words ?? []) {
          expect(w.word).toMatch(/\S/);
          expect(w.endMs).toBeGreaterThanOrEqual(w.startMs);
          expect(w.endMs).toBeLessThanOrEqual(clipMs + 50);
        }
        previous = s.startMs;
      }
      expect(progress.length).toBeGreaterThan(0);
      for (const f of progress) expect(f >= 0 && f <= 1).toBe(true);
      expect(progress.at(-1)).toBe(1);
    },
    120_000,
  );

  it.skipIf(missing !== null)(
    'hears no words in silence',
    async () => {
      const segments = await (await get()).transcribe(new Int16Array(2 * STT_SAMPLE_RATE));
      expect(
        segments
          .map((s) => s.text)
          .join('')
          .trim(),
      ).toBe('');
    },
    60_000,
  );

  it.skipIf(missing !== null)('stops when the request is cancelled', async () => {
    const abort = new AbortController();
    abort.abort(new Error('cancelled by the test'));
    await expect((await get()).transcribe(clip, { signal: abort.signal })).rejects.toThrow();
  });
});
