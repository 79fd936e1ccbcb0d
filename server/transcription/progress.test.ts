import { describe, expect, it } from 'vitest';
import { ProcessingProgress } from './progress';

/** A tracker on a clock the test moves. */
function tracker(durationMs: number, rtf = 0.5) {
  let now = 0;
  const p = new ProcessingProgress({ durationMs, sttRealTimeFactor: rtf, now: () => now });
  return { p, advance: (ms: number) => (now += ms) };
}

describe('processing progress', () => {
  it('estimates the whole processing from the length and the past real-time factor', () => {
    const { p } = tracker(300_000, 0.5);
    const first = p.snapshot();
    expect(first).toMatchObject({ step: 'decoding', percent: 0 });
    // 5 minutes at a real-time factor of 0.5 on the speech: about two minutes, plus the rest.
    expect(first.expectedMs).toBeGreaterThan(120_000);
    expect(first.expectedMs).toBeLessThan(170_000);
  });

  it('moves through the named steps, never backwards', () => {
    const { p, advance } = tracker(300_000);
    const seen: number[] = [];
    const look = () => seen.push(p.snapshot().percent);
    for (let i = 1; i <= 10; i++) {
      advance(500);
      p.report('decoding', i / 10);
      look();
    }
    expect(p.snapshot().step).toBe('decoding');
    p.report('finding-speech', 1);
    p.report('transcribing', 0, 1);
    expect(p.snapshot().step).toBe('transcribing');
    for (let i = 1; i <= 4; i++) {
      advance(10_000);
      p.report('transcribing', i / 4, 1 - i / 4);
      look();
    }
    p.report('transcribing', 1);
    p.report('speakers', 0);
    look();
    p.report('speakers', 1);
    look();
    p.finishTranscription();
    expect(p.snapshot().step).toBe('coaching');
    look();
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);
    expect(seen.at(-1)).toBeGreaterThan(90);
    expect(seen.at(-1)).toBeLessThan(100);
  });

  it('keeps moving while a recogniser call runs between its reports, never past its end', () => {
    const { p, advance } = tracker(300_000, 0.5);
    p.report('decoding', 1);
    p.report('finding-speech', 1);
    p.report('transcribing', 0, 1);
    // Two reports at a steady pace, then a long wait for the third.
    advance(15_000);
    p.report('transcribing', 0.125, 0.875);
    advance(15_000);
    p.report('transcribing', 0.25, 0.75);
    const atReport = p.snapshot().percent;
    const during: number[] = [];
    for (let s = 0; s < 14; s++) {
      advance(1000);
      during.push(p.snapshot().percent);
    }
    // It moved in the seconds after the report...
    expect(during.at(-1)!).toBeGreaterThan(atReport);
    expect(new Set(during).size).toBeGreaterThan(5);
    // ...by at most one more report's worth, however long the wait.
    advance(600_000);
    const capped = p.snapshot().percent;
    p.report('transcribing', 0.375, 0.625);
    expect(p.snapshot().percent).toBeGreaterThanOrEqual(capped);
    expect(capped).toBeLessThanOrEqual(Math.ceil(p.snapshot().percent));
  });

  it('follows the pace it measures: a slower run says so in the time left', () => {
    const fast = tracker(300_000, 0.5);
    const slow = tracker(300_000, 0.5);
    for (const [t, stepMs] of [
      [fast, 10_000],
      [slow, 40_000],
    ] as const) {
      t.p.report('decoding', 1);
      t.p.report('finding-speech', 1);
      t.p.report('transcribing', 0, 1);
      for (let i = 1; i <= 4; i++) {
        t.advance(stepMs);
        t.p.report('transcribing', i / 8, 1 - i / 8);
      }
    }
    expect(slow.p.snapshot().leftMs).toBeGreaterThan(2 * fast.p.snapshot().leftMs);
  });
});
