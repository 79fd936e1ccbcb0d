import { describe, expect, it } from 'vitest';
import { applySwap, stereoPlan, toEntries, twoMeans, utterancesFrom } from './attribution';

describe('speaker attribution helpers', () => {
  it('cuts utterances at pauses and merges one speaker’s neighbouring utterances into an entry', () => {
    const utts = utterancesFrom([
      {
        startMs: 0,
        endMs: 3000,
        text: 'hi there how are you',
        words: [
          { word: 'hi', startMs: 0, endMs: 300 },
          { word: 'there', startMs: 320, endMs: 700 },
          { word: 'how', startMs: 1500, endMs: 1700 },
          { word: 'are', startMs: 1720, endMs: 1900 },
          { word: 'you', startMs: 1920, endMs: 2200 },
        ],
      },
    ]);
    expect(utts.map((u) => u.text)).toEqual(['hi there', 'how are you']);
    const entries = toEntries([
      { ...utts[0], role: 'user' },
      { ...utts[1], role: 'user' },
      { startMs: 5000, endMs: 6000, text: 'fine thanks', role: 'assistant' },
    ]);
    expect(entries).toEqual([
      { role: 'user', transcript: 'hi there how are you', timestamp: 0, transcriptType: 'final' },
      { role: 'assistant', transcript: 'fine thanks', timestamp: 5000, transcriptType: 'final' },
    ]);
  });

  it('splits two obvious groups', () => {
    const pts = [0, 0.1, 0.2, 5, 5.1].map((v) => ({ x: [v], weight: 1 }));
    const { labels } = twoMeans(pts);
    expect(labels.slice(0, 3).every((l) => l === labels[0])).toBe(true);
    expect(labels[3]).toBe(labels[4]);
    expect(labels[3]).not.toBe(labels[0]);
  });

  it('treats silent, duplicated or distinct stereo channels sensibly', () => {
    expect(stereoPlan({ rmsDb: [-20, -90], correlation: 0 })).toBe('left');
    expect(stereoPlan({ rmsDb: [-90, -22], correlation: 0 })).toBe('right');
    expect(stereoPlan({ rmsDb: [-20, -21], correlation: 0.99 })).toBe('mix');
    expect(stereoPlan({ rmsDb: [-20, -25], correlation: 0.1 })).toBe('stereo');
  });

  it('swaps roles only when asked', () => {
    const e = [{ role: 'user' as const, transcript: 'a', timestamp: 0 }];
    expect(applySwap(e, false)).toBe(e);
    expect(applySwap(e, true)[0].role).toBe('assistant');
  });
});
