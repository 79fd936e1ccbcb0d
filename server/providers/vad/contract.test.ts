import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { int16ToFloat32, readWav, resampleInt16 } from '../../audio/wav';
import { sharedDir } from '../../test-support/harness';
import { fakeVadFactory } from './fake';
import { selectVad, VAD_WINDOW, type VadFactory } from '.';

/**
 * The suite every voice-activity engine passes: silence is not speech, a spoken clip is, in the
 * right place; detectors reset and close cleanly. An engine that is not installed is skipped
 * with the reason printed; under CI an embedded engine that is missing fails instead.
 */
const MODELS = process.env.MODELS_DIR ?? path.join(sharedDir, 'models');

interface Engine {
  name: string;
  embedded: boolean;
  load(): VadFactory | string;
}

const engines: Engine[] = [
  { name: 'energy', embedded: true, load: () => selectVad('/nonexistent', 'energy') },
  {
    name: 'silero',
    embedded: false,
    load: () => {
      const f = selectVad(MODELS);
      return f.info.engine === 'silero' ? f : `no Silero model under ${MODELS} (${f.info.reason})`;
    },
  },
  { name: 'fake', embedded: true, load: () => fakeVadFactory() },
];

/** 1 s of silence, the clip, 1 s of silence. */
function clip(): Int16Array {
  const wav = readWav(
    fs.readFileSync(path.join(sharedDir, 'fixtures/audio/azure_misc/whatstheweatherlike.wav')),
  );
  const speech = resampleInt16(wav.pcm, wav.sampleRate, 16_000);
  const out = new Int16Array(32_000 + speech.length);
  out.set(speech, 16_000);
  return out;
}

function speechSeconds(f: VadFactory, pcm: Int16Array): number[] {
  const vad = f.create();
  const at: number[] = [];
  for (let i = 0; i + VAD_WINDOW <= pcm.length; i += VAD_WINDOW)
    if (vad.isSpeech(int16ToFloat32(pcm.subarray(i, i + VAD_WINDOW)))) at.push(i / 16_000);
  vad.close();
  vad.close();
  return at;
}

describe.each(engines)('voice-activity contract: $name', (engine) => {
  const loaded = engine.load();
  const missing = typeof loaded === 'string' ? loaded : null;
  if (missing) console.log(`voice-activity contract: ${engine.name} skipped: ${missing}`);
  const ciMustHave = missing !== null && engine.embedded && process.env.CI === 'true';

  it.skipIf(missing !== null && !ciMustHave)('reports itself as a voice-activity engine', () => {
    expect(missing, `${engine.name} is an embedded engine and must be installed`).toBeNull();
    const f = loaded as VadFactory;
    expect(f.info.capability).toBe('voice-activity');
    expect(f.create().id.length).toBeGreaterThan(0);
  });

  it.skipIf(missing !== null)('hears nothing in silence and speech where the words are', () => {
    const f = loaded as VadFactory;
    expect(speechSeconds(f, new Int16Array(48_000))).toEqual([]);
    const audio = clip();
    const at = speechSeconds(f, audio);
    expect(at.length).toBeGreaterThan(10);
    const end = audio.length / 16_000 - 1;
    expect(Math.min(...at)).toBeGreaterThan(0.9);
    expect(Math.max(...at)).toBeLessThan(end + 0.3);
  });

  it.skipIf(missing !== null)('a reset detector decides the same again', () => {
    const f = loaded as VadFactory;
    const vad = f.create();
    const audio = clip();
    const run = () => {
      const out: boolean[] = [];
      for (let i = 0; i + VAD_WINDOW <= audio.length; i += VAD_WINDOW)
        out.push(vad.isSpeech(int16ToFloat32(audio.subarray(i, i + VAD_WINDOW))));
      return out;
    };
    const first = run();
    vad.reset();
    expect(run()).toEqual(first);
    vad.close();
  });
});
