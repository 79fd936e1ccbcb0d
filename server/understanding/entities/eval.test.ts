import { describe, expect, it } from 'vitest';
import { scoreEntities, type LabelledLine } from './eval';

const line = (
  text: string,
  entities: LabelledLine['entities'],
  extra: Partial<LabelledLine> = {},
): LabelledLine => ({
  speaker: 'rep',
  text,
  entities: { money: [], times: [], people: [], ...entities },
  ...extra,
});

describe('scoreEntities', () => {
  it('scores a reading that matches every label as exact', () => {
    const s = scoreEntities([
      line('The basic is ten-nine.', {
        money: [{ text: 'ten-nine', value: 10900, per: null, role: 'price' }],
      }),
      line('How about Thursday at ten?', {
        times: [
          {
            text: 'Thursday at ten',
            day: 'thursday',
            part: null,
            time: '10:00',
            ampm: null,
            role: 'proposed',
          },
        ],
      }),
    ]);
    expect(s.money).toMatchObject({
      labels: 1,
      readings: 1,
      matched: 1,
      precision: 1,
      recall: 1,
      exact: 1,
      role: 1,
    });
    expect(s.times).toMatchObject({ labels: 1, readings: 1, exact: 1, role: 1 });
    expect(s.misses).toEqual([]);
  });

  it('counts a wrong value against exact match but not against recall', () => {
    const s = scoreEntities([
      line('The basic is ten-nine.', {
        money: [{ text: 'ten-nine', value: 1090, per: null, role: 'price' }],
      }),
    ]);
    expect(s.money.recall).toBe(1);
    expect(s.money.exact).toBe(0);
    expect(s.misses).toHaveLength(1);
  });

  it('counts a spurious reading against precision and exact match', () => {
    const s = scoreEntities([
      line('That is ten grand.', { money: [{ text: 'ten grand', value: 10000, per: null, role: 'price' }] }),
      line('We have done twelve thousand floors, and it is about ten grand.', { money: [] }),
    ]);
    expect(s.money.readings).toBe(2);
    expect(s.money.precision).toBe(0.5);
    expect(s.money.exact).toBe(0.5);
  });

  it('counts a missed label against recall and exact match', () => {
    const s = scoreEntities([
      line('The other guy said eight.', {
        money: [{ text: 'eight', value: 8000, per: null, role: 'quote' }],
      }),
    ]);
    expect(s.money).toMatchObject({ labels: 1, readings: 0, recall: 0, exact: 0 });
  });

  it('uses the line before and the speaker', () => {
    const labelled = line(
      'Between eight and ten is all I can do.',
      { money: [{ text: 'Between eight and ten', min: 8000, max: 10000, per: null, role: 'budget' }] },
      { speaker: 'homeowner', context: "What's your budget?" },
    );
    expect(scoreEntities([labelled]).money.exact).toBe(1);
  });

  it('matches a label whose text is not in the line by what it says', () => {
    const s = scoreEntities([
      line('It comes to $12,400 installed.', { money: [{ text: '12400 dollars', value: 12400, per: null }] }),
    ]);
    expect(s.money.exact).toBe(1);
  });
});
