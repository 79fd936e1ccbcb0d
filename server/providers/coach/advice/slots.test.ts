import { describe, expect, it } from 'vitest';
import { understandCall } from '../../../understanding/call-facts';
import { prices } from './slots';

const T0 = 1_700_000_000_000;
const call = (...lines: string[]) =>
  understandCall(
    lines.map((l, i) => ({
      role: l.startsWith('R:') ? ('user' as const) : ('assistant' as const),
      transcript: l.slice(2).trim(),
      timestamp: T0 + (i + 1) * 6000,
    })),
    { stage: 'HVAC' },
  );

describe('the prices slot', () => {
  it('names two or three priced choices as said', () => {
    const f = call(
      'H: The furnace keeps shutting off.',
      'R: You have two ways to go. A repair is about four hundred dollars. A new furnace is about six thousand installed.',
    );
    expect(f.offers.length).toBe(2);
    expect(prices(f)?.value).toContain('four hundred');
  });

  it('names none when more figures read as options than a rep lays out', () => {
    const f = call(
      'H: The furnace keeps shutting off.',
      'R: Option one is a repair at four hundred dollars. Option two is a new furnace at six thousand. Option three is a heat pump at nine thousand. Option four is a dual fuel system at twelve thousand.',
    );
    expect(f.offers.length).toBeGreaterThan(3);
    expect(prices(f)).toBeNull();
  });
});
