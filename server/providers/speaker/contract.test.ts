import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cosine } from '../../transcription/speaker-embeddings';
import { int16ToFloat32, readWav, resampleInt16 } from '../../audio/wav';
import { sharedDir } from '../../test-support/harness';
import { FakeSpeakerEmbedder } from './fake';
import { selectSpeakerEngine, type SpeakerEmbedder } from '.';

/**
 * The suite every speaker-embedding engine passes: a fixed-length, finite print for speech, and
 * one reader's clips closer together than two readers'. The sherpa-onnx engine needs a model
 * under MODELS_DIR/speaker (npm run models); without one it is skipped with the reason printed.
 */
const MODELS = process.env.MODELS_DIR ?? path.join(sharedDir, 'models');
const fixtures = path.join(sharedDir, 'fixtures/audio');

function speech(file: string): Float32Array {
  const wav = readWav(fs.readFileSync(path.join(fixtures, file)));
  return int16ToFloat32(resampleInt16(wav.pcm, wav.sampleRate, 16_000));
}

const man = (n: string) => `librivox_pocketsphinx/sense_and_sensibility_01_austen_64kb-${n}.wav`;
const woman = (n: string) => `ljspeech_lhotse/LJ002-${n}.wav`;

interface Engine {
  name: string;
  load(): Promise<SpeakerEmbedder | string>;
}

const engines: Engine[] = [
  { name: 'fake', load: async () => new FakeSpeakerEmbedder() },
  {
    name: 'sherpa-onnx',
    load: async () => {
      const { engine, info } = await selectSpeakerEngine(MODELS);
      return engine.embedder ?? `no usable speaker model (${info.reason})`;
    },
  },
];

describe.each(engines)('speaker-embedding contract: $name', async (engine) => {
  const loaded = await engine.load();
  const missing = typeof loaded === 'string' ? loaded : null;
  if (missing) console.log(`speaker-embedding contract: ${engine.name} skipped: ${missing}`);
  const embedder = loaded as SpeakerEmbedder;
  afterAll(() => embedder?.close?.());

  it.skipIf(missing !== null)('gives speech a fixed-length, finite voice print', async () => {
    const a = await embedder.embed(speech(man('0870')));
    const b = await embedder.embed(speech(woman('0020')));
    expect(a).not.toBeNull();
    expect(b).not.toBeNull();
    expect(a!.length).toBeGreaterThan(0);
    expect(b!.length).toBe(a!.length);
    expect([...a!, ...b!].every(Number.isFinite)).toBe(true);
  });

  it.skipIf(missing !== null)('points one reader’s clips closer together than two readers’', async () => {
    const [m1, m2, w1, w2] = await Promise.all(
      [man('0870'), man('0890'), woman('0020'), woman('0035')].map((f) => embedder.embed(speech(f))),
    );
    const same = Math.min(cosine(m1!, m2!), cosine(w1!, w2!));
    const different = Math.max(cosine(m1!, w1!), cosine(m2!, w2!), cosine(m1!, w2!));
    expect(same).toBeGreaterThan(different + 0.1);
  });
});
