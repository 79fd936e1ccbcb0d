import { describe, expect, it } from 'vitest';
import { TurnRate } from './inbound';

describe('TurnRate', () => {
  it('lets a burst through, then one turn per interval', () => {
    const rate = new TurnRate(2000, 3);
    const at = (t: number) => rate.allow(t);
    expect([at(0), at(10), at(20), at(30)]).toEqual([true, true, true, false]);
    expect(at(1000)).toBe(false);
    expect(at(2100)).toBe(true);
    expect(at(2200)).toBe(false);
    // A rep who waits fills the bucket again, up to the burst.
    expect([at(20_000), at(20_001), at(20_002), at(20_003)]).toEqual([true, true, true, false]);
  });

  it('an interval of 0 lets everything through', () => {
    const rate = new TurnRate(0, 1);
    for (let i = 0; i < 100; i++) expect(rate.allow(i)).toBe(true);
  });
});
