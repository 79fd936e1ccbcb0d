import { describe, expect, it } from 'vitest';
import {
  BARGE_IN_MS,
  BargeInDetector,
  completeSentences,
  END_OF_TURN_MS,
  endOfTurnDelay,
  HANGING_END_OF_TURN_MS,
  withoutEcho,
} from './speech-logic';

describe('end of a recognised turn', () => {
  it('waits longer after fillers, hanging words and commas', () => {
    expect(endOfTurnDelay('How old is the furnace?')).toBe(END_OF_TURN_MS);
    expect(endOfTurnDelay('we could start next week')).toBe(END_OF_TURN_MS);
    expect(endOfTurnDelay('so the reason I ask is because')).toBe(HANGING_END_OF_TURN_MS);
    expect(endOfTurnDelay('and um')).toBe(HANGING_END_OF_TURN_MS);
    expect(endOfTurnDelay('well,')).toBe(HANGING_END_OF_TURN_MS);
    expect(endOfTurnDelay('I think the best option is the...')).toBe(HANGING_END_OF_TURN_MS);
  });
});

describe('echo of the homeowner', () => {
  const said = "Honestly the furnace is about fifteen years old, and it's loud.";
  it('drops recognised words that are the homeowner speaking', () => {
    expect(withoutEcho('the furnace is about fifteen years old', said)).toBe('');
    expect(withoutEcho("Furnace is LOUD, it's", said)).toBe('');
  });
  it("keeps the rep's own words, also after a run of echo", () => {
    expect(withoutEcho('sorry to cut in', said)).toBe('sorry to cut in');
    expect(withoutEcho('fifteen years old sorry can I ask', said)).toBe('sorry can I ask');
    expect(withoutEcho('hello there', '')).toBe('hello there');
  });
});

describe('sentences of a growing reply', () => {
  it('returns only finished sentences and where the rest starts', () => {
    expect(completeSentences('Well. I suppose so! And then')).toEqual({
      sentences: ['Well.', 'I suppose so!'],
      consumed: 'Well. I suppose so! '.length,
    });
    expect(completeSentences('About 3.5 tons')).toEqual({ sentences: [], consumed: 0 });
    expect(completeSentences('Is that right?')).toEqual({ sentences: ['Is that right?'], consumed: 14 });
    expect(completeSentences('"Maybe." Or not')).toEqual({ sentences: ['"Maybe."'], consumed: 9 });
  });
});

describe('barge-in from the microphone level', () => {
  /** Feeds one level every 20 ms from `from` to `to`; returns the time of the first barge-in. */
  function feed(d: BargeInDetector, level: (t: number) => number, from: number, to: number): number | null {
    for (let t = from; t < to; t += 20) if (d.sample(level(t), t)) return t;
    return null;
  }

  it('fires after 160 ms of the rep speaking over a quiet (headphones) homeowner', () => {
    const d = new BargeInDetector();
    feed(d, () => 0.002, 0, 1000);
    d.setHomeownerSpeaking(true, 1000);
    expect(feed(d, () => 0.002, 1000, 1500)).toBeNull();
    const at = feed(d, () => 0.1, 1500, 2500);
    expect(at).not.toBeNull();
    expect(at! - 1500).toBeGreaterThanOrEqual(BARGE_IN_MS);
    expect(at! - 1500).toBeLessThan(300);
  });

  it('ignores the homeowner voice leaking from speakers, syllable peaks included', () => {
    const d = new BargeInDetector();
    d.setHomeownerSpeaking(true, 0);
    // Echo around 0.03 with peaks to 0.06 every 200 ms.
    const echo = (t: number) => (t % 200 < 60 ? 0.06 : 0.03);
    expect(feed(d, echo, 0, 5000)).toBeNull();
    // The rep talks over it, clearly louder: cut off.
    expect(feed(d, () => 0.3, 5000, 5400)).not.toBeNull();
  });

  it('ignores a cough and never fires while the homeowner is silent', () => {
    const d = new BargeInDetector();
    d.setHomeownerSpeaking(true, 0);
    feed(d, () => 0.002, 0, 400);
    expect(feed(d, (t) => (t < 500 ? 0.3 : 0.002), 400, 1000)).toBeNull();
    d.setHomeownerSpeaking(false, 1000);
    expect(feed(d, () => 0.3, 1000, 2000)).toBeNull();
  });
});
