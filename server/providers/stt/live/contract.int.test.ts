import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readWav, resampleInt16 } from '../../../audio/wav';
import { sharedDir } from '../../../test-support/harness';
import { fakeLiveFactory } from './fake';
import { selectLiveRecognizer } from './select';
import type { LiveRecognizer, LiveRecognizerFactory } from './types';

/**
 * The suite every live recogniser passes: an utterance written in 32 ms windows gives captions
 * (or null) while it lasts and its words when it ends; the next utterance starts clean; close
 * releases it. An engine that is not installed is skipped with the reason printed; under CI the
 * embedded one (the warm PocketSphinx decoder) must be there.
 */
const MODELS = process.env.MODELS_DIR ?? path.join(sharedDir, 'models');

interface Engine {
  name: string;
  embedded: boolean;
  /** Words a real recogniser must find in the clip (the fake answers fixed words). */
  expect: RegExp;
  load(): LiveRecognizerFactory | string;
}

function real(engine: string, sttEngine: string): () => LiveRecognizerFactory | string {
  return () => {
    const f = selectLiveRecognizer({ modelsDir: MODELS, sttEngine, mode: 'auto', idleDecoders: 0 });
    return f.info.engine.startsWith(engine) ? f : `${engine} is not installed (${f.info.reason})`;
  };
}

const engines: Engine[] = [
  {
    name: 'pocketsphinx-live',
    embedded: true,
    expect: /weather/,
    load: real('pocketsphinx-live', 'pocketsphinx'),
  },
  {
    name: 'sherpa-onnx-online',
    embedded: false,
    expect: /weather/i,
    load: real('sherpa-onnx-online', 'none'),
  },
  { name: 'fake', embedded: true, expect: /furnace/, load: () => fakeLiveFactory() },
];

const clip = (() => {
  const wav = readWav(
    fs.readFileSync(path.join(sharedDir, 'fixtures/audio/azure_misc/whatstheweatherlike.wav')),
  );
  return resampleInt16(wav.pcm, wav.sampleRate, 16_000);
})();

const open: LiveRecognizer[] = [];
afterAll(() => {
  for (const r of open) r.close();
});

/** One utterance as a call drives it: windows of 512 samples, a caption request every 10. */
async function utterance(r: LiveRecognizer): Promise<{ captions: (string | null)[]; words: string | null }> {
  const captions: (string | null)[] = [];
  r.begin();
  for (let i = 0, n = 0; i < clip.length; i += 512, n++) {
    r.write(clip.subarray(i, i + 512));
    if (n % 10 === 9) captions.push(await r.partial(5000));
  }
  return { captions, words: await r.end(15_000) };
}

describe.each(engines)('live speech-to-text contract: $name', (engine) => {
  const loaded = engine.load();
  const missing = typeof loaded === 'string' ? loaded : null;
  if (missing) console.log(`live speech-to-text contract: ${engine.name} skipped: ${missing}`);
  const ciMustHave = missing !== null && engine.embedded && process.env.CI === 'true';

  it.skipIf(missing !== null && !ciMustHave)('is installed and reports itself', () => {
    expect(missing, `${engine.name} is an embedded engine and must be installed`).toBeNull();
    expect((loaded as LiveRecognizerFactory).info.capability).toBe('live-speech-to-text');
  });

  it.skipIf(missing !== null)(
    'captions an utterance, then gives its words; the next starts clean',
    async () => {
      const r = (loaded as LiveRecognizerFactory).create();
      expect(r).not.toBeNull();
      open.push(r!);
      expect(r!.alive).toBe(true);
      const first = await utterance(r!);
      for (const c of first.captions) expect(c === null || typeof c === 'string').toBe(true);
      expect(first.words).toMatch(engine.expect);
      const second = await utterance(r!);
      expect(second.words).toMatch(engine.expect);
      // Words of the first utterance do not leak into the second.
      expect((second.words ?? '').split(' ').length).toBeLessThanOrEqual(
        (first.words ?? '').split(' ').length + 1,
      );
      r!.close();
      expect(r!.alive).toBe(false);
    },
  );
});
