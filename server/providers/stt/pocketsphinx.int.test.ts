import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeToMono } from '../../audio/decode';
import { wordErrorRate } from '../../audio/wer';
import { sharedDir } from '../../test-support/harness';
import { PocketSphinxStt } from './pocketsphinx';
import { skipWithout } from '../../test-support/engines';

describe.skipIf(skipWithout('pocketsphinx'))('pocketsphinx engine', () => {
  it('transcribes real speech with word timings inside the clip', async () => {
    const pcm = await decodeToMono(path.join(sharedDir, 'fixtures/audio/pocketsphinx_misc/goforward.wav'));
    const stt = new PocketSphinxStt();
    const fractions: number[] = [];
    const segs = await stt.transcribe(pcm, { onProgress: (f) => fractions.push(f) });
    const text = segs.map((s) => s.text).join(' ');
    expect(wordErrorRate('go forward ten meters', text)).toBeLessThanOrEqual(0.25);
    const clipMs = (pcm.length / 16000) * 1000;
    for (const s of segs) {
      expect(s.startMs).toBeGreaterThanOrEqual(0);
      expect(s.endMs).toBeLessThanOrEqual(clipMs + 50);
    }
    expect(fractions.at(-1)).toBe(1);
  });

  it('chunks long audio and keeps timings in order across chunks', async () => {
    const one = await decodeToMono(path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav'));
    const twice = new Int16Array(one.length * 2);
    twice.set(one, 0);
    twice.set(one, one.length);
    const stt = new PocketSphinxStt({ chunkMs: 8000 });
    const segs = await stt.transcribe(twice);
    const starts = segs.map((s) => s.startMs);
    expect([...starts].sort((a, b) => a - b)).toEqual(starts);
    // The second copy's words are timed after the first copy ends.
    const clipMs = (one.length / 16000) * 1000;
    expect(segs.some((s) => s.startMs > clipMs && /\byou\b/.test(s.text))).toBe(true);
    expect(segs.some((s) => s.startMs < clipMs && /\byou\b/.test(s.text))).toBe(true);
  });
});
