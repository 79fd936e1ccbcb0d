import { describe, expect, it } from 'vitest';
import { isStage, STAGES } from '../../../core/stages';
import { personaVoice } from '../brain/personas';
import { espeakArgs, EspeakTts } from './espeak';
import { builtHelper } from '../../native-helpers';
import { EspeakLiveTts } from './espeak-live';
import { DEFAULT_VOICE, type TextToSpeech } from './types';
import { skipWithout } from '../../test-support/engines';

/** A persona's voice by stage name, or a raw espeak-ng voice name. */
const styleOf = (voice: string) =>
  isStage(voice) ? personaVoice(voice) : { ...DEFAULT_VOICE, espeakVoice: voice };

async function synth(tts: TextToSpeech, text: string, voice: string, signal?: AbortSignal) {
  const chunks: Int16Array[] = [];
  let rate = 0;
  for await (const c of tts.synthesize(text, { voice: styleOf(voice), signal })) {
    chunks.push(c.pcm);
    rate = c.sampleRate;
  }
  return { chunks, rate, samples: chunks.reduce((n, c) => n + c.length, 0) };
}

const liveBinary = builtHelper('espeak-live');

const engines: [string, () => TextToSpeech][] = [
  ['a process per sentence', () => new EspeakTts()],
  [
    'warm synthesisers (build/espeak-live, npm run setup)',
    () => {
      if (!liveBinary) throw new Error('build/espeak-live is missing: run npm run setup');
      return new EspeakLiveTts(liveBinary, 2);
    },
  ],
];

const noEngines = skipWithout('espeak-ng', 'espeak-live');

describe.skipIf(noEngines).each(engines)('espeak-ng voice: %s', (_name, make) => {
  it('streams a sentence as PCM chunks', async () => {
    const tts = make();
    try {
      const out = await synth(tts, 'Hello there, what can I do for you today?', 'General');
      expect(out.rate).toBe(22_050);
      expect(out.chunks.length).toBeGreaterThan(3);
      // About two seconds of speech, with real signal in it.
      expect(out.samples / out.rate).toBeGreaterThan(1);
      expect(out.chunks.some((c) => c.some((v) => Math.abs(v) > 1000))).toBe(true);
    } finally {
      await tts.close?.();
    }
  });

  it('stops when aborted, and refuses option-like voice names', async () => {
    const tts = make();
    try {
      const controller = new AbortController();
      controller.abort();
      expect((await synth(tts, 'This is never spoken.', 'HVAC', controller.signal)).samples).toBe(0);
      await expect(synth(tts, 'hi', '--help; rm')).rejects.toThrow(/Unknown voice/);
    } finally {
      await tts.close?.();
    }
  });
});

describe('espeak-ng voices', () => {
  it('gives every persona its own voice', () => {
    const voices = new Set(STAGES.map((s) => espeakArgs(personaVoice(s)).join(' ')));
    expect(voices.size).toBe(STAGES.length);
  });
});

describe('warm synthesisers', () => {
  it('keep concurrent sentences apart, match the per-sentence voice, and survive a crash', async () => {
    const tts = new EspeakLiveTts(liveBinary!, 1);
    const oneOff = new EspeakTts();
    try {
      const texts = ['How old is the furnace?', 'We replaced the windows in two thousand nine.', 'No.'];
      // All three go to the one process at once; each must get only its own audio.
      const results = await Promise.all(texts.map((t) => synth(tts, t, 'HVAC')));
      const alone = await Promise.all(texts.map((t) => synth(oneOff, t, 'HVAC')));
      // The command-line voice pads each sentence with about 0.25 s more silence.
      for (let i = 0; i < texts.length; i++)
        expect(Math.abs(results[i].samples - alone[i].samples) / 22_050).toBeLessThan(0.35);
      expect(results[1].samples).toBeGreaterThan(results[0].samples);
      expect(results[0].samples).toBeGreaterThan(results[2].samples);
      // An unknown voice is refused by the synthesiser, and the next request is served.
      await expect(synth(tts, 'hello', 'xx-nonexistent')).rejects.toThrow(/unknown voice/);
      expect((await synth(tts, 'Still here.', 'Roofing')).samples).toBeGreaterThan(0);
      // A killed synthesiser fails its sentence, and the next one starts a new process.
      const pending = synth(
        tts,
        'This sentence is long enough to still be speaking when it dies.',
        'General',
      );
      (tts as unknown as { pool: { close(): void }[] }).pool[0].close();
      await expect(pending).rejects.toThrow(/espeak-live/);
      expect((await synth(tts, 'Back again.', 'General')).samples).toBeGreaterThan(0);
    } finally {
      await tts.close();
    }
  });
});
