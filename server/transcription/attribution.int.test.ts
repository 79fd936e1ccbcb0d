import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sharedDir } from '../test-support/harness';
import { attributeMono } from './attribution';
import { decodeToMono } from '../audio/decode';
import { concatAudio } from '../audio/test-audio';
import { VoiceFeatureTracker } from '../audio/voice-features';
import type { SttSegment } from '../providers/stt/types';

const fixtures = path.join(sharedDir, 'fixtures/audio');
const austen = (n: string) =>
  path.join(fixtures, `librivox_pocketsphinx/sense_and_sensibility_01_austen_64kb-${n}.wav`);
const lj = (n: string) => path.join(fixtures, `ljspeech_lhotse/LJ002-${n}.wav`);
const weather = path.join(fixtures, 'azure_misc/whatstheweatherlike.wav');
const PAUSE_S = 1;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-attr-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/**
 * Joins clips into one mono file and returns it with one recognised "utterance" per clip (the
 * clip's span, as the recogniser's word times would give), so only the voices decide the roles.
 */
async function conversation(clips: string[], name: string) {
  const file = concatAudio(clips, path.join(tmp, name), PAUSE_S);
  const pcm = await decodeToMono(file);
  const tracker = new VoiceFeatureTracker();
  for (let i = 0; i < pcm.length; i += 16_000) tracker.push(pcm.subarray(i, i + 16_000));
  const segments: SttSegment[] = [];
  let at = 0;
  for (const [i, clip] of clips.entries()) {
    const ms = ((await decodeToMono(clip)).length / 16_000) * 1000;
    const startMs = Math.round(at + 150);
    const endMs = Math.round(at + ms - 150);
    segments.push({ startMs, endMs, text: `clip${i}`, words: [{ word: `clip${i}`, startMs, endMs }] });
    at += ms + PAUSE_S * 1000;
  }
  return { track: tracker.track, segments };
}

describe('who said what on one channel, from the voices', () => {
  it('a man and a woman taking turns get two roles that follow the turns', async () => {
    const clips = [
      austen('0870'),
      lj('0020'),
      austen('0880'),
      lj('0035'),
      austen('0890'),
      weather,
      austen('0920'),
    ];
    const { track, segments } = await conversation(clips, 'two.wav');
    const result = attributeMono(segments, track);
    expect(result.attribution).toBe('turns');
    const roles = result.utterances.map((u) => u.role);
    expect(roles).toHaveLength(clips.length);
    const man = roles[0];
    expect(roles).toEqual(roles.map((_, i) => (i % 2 === 0 ? man : man === 'user' ? 'assistant' : 'user')));
  });

  it('one reader across several clips stays one role', async () => {
    const clips = ['0870', '0880', '0890', '0920', '0930'].map(austen);
    const { track, segments } = await conversation(clips, 'one.wav');
    const result = attributeMono(segments, track);
    expect(result.attribution).toBe('single');
    expect(new Set(result.utterances.map((u) => u.role)).size).toBe(1);
  });

  it('two women of similar pitch with one heard only once stay one role (no evidence of a second)', async () => {
    const { track, segments } = await conversation([lj('0020'), lj('0035'), weather], 'three.wav');
    expect(attributeMono(segments, track).attribution).toBe('single');
  });
});
