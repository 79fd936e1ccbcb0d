import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../test-support/harness';
import { PocketSphinxStt } from '../providers/stt/pocketsphinx';
import { transcribeFile } from './pipeline';
import { convertAudio } from '../audio/test-audio';
import { wordErrorRate } from '../audio/wer';

/**
 * Clear speech must never come back as "no speech": the same read sentences, recorded quiet,
 * loud, over the telephone band, as 48 kHz Opus from a browser, and cut to a second or two,
 * all go through the whole pipeline (decode -> voice detection -> engine -> roles).
 */
const fixtures = path.join(sharedDir, 'fixtures/audio');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'speech-variants-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

const read = 'librivox_pocketsphinx/sense_and_sensibility_01_austen_64kb-0870';
const short = 'pocketsphinx_misc/goforward';
const reference = (rel: string) => fs.readFileSync(path.join(fixtures, `${rel}.txt`), 'utf8');

/** name, source clip, ffmpeg arguments, file type, WER ceiling (measured + margin). */
const VARIANTS: [string, string, string[], string, number][] = [
  ['quiet (-40 dB)', read, ['-af', 'volume=-40dB'], 'wav', 0.6],
  ['very quiet (-52 dB)', read, ['-af', 'volume=-52dB'], 'wav', 0.7],
  ['loud (+12 dB, clipped)', read, ['-af', 'volume=12dB'], 'wav', 0.9],
  ['8 kHz telephone band', read, ['-ar', '8000', '-c:a', 'pcm_mulaw'], 'wav', 0.9],
  [
    '48 kHz stereo Opus (browser)',
    read,
    ['-ar', '48000', '-ac', '2', '-c:a', 'libopus', '-b:a', '32k'],
    'webm',
    0.6,
  ],
  ['short and quiet (2.8 s, -45 dB)', short, ['-af', 'volume=-45dB'], 'wav', 0.5],
  ['1.5 s', short, ['-t', '1.5'], 'wav', 0.75],
];

describe('no speech lost', () => {
  const stt = new PocketSphinxStt();
  it.each(VARIANTS)('%s', async (name, rel, args, ext, ceiling) => {
    const file = convertAudio(
      path.join(fixtures, `${rel}.${'wav'}`),
      path.join(tmp, `${name.replace(/\W+/g, '-')}.${ext}`),
      args,
    );
    const result = await transcribeFile(file, stt);
    const text = result.transcript.map((e) => e.transcript).join(' ');
    expect(text.trim(), name).not.toBe('');
    const ref = name === '1.5 s' ? 'go forward' : reference(rel);
    expect(wordErrorRate(ref, text), `${name}: ${text}`).toBeLessThanOrEqual(ceiling);
  });
});
