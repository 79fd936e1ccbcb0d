import { describe, expect, it } from 'vitest';
import { filterQuery } from './team-api';
import { filterFromSearch } from './team-filters';

describe('team filters in the address', () => {
  it('reads a trade and dates, dropping anything else', () => {
    expect(filterFromSearch('?stage=HVAC&from=2026-01-01&to=2026-02-01&x=1')).toEqual({
      stage: 'HVAC',
      from: '2026-01-01',
      to: '2026-02-01',
    });
    expect(filterFromSearch('stage=Boats&from=yesterday')).toEqual({});
  });

  it('writes them back in one order, or nothing', () => {
    expect(filterQuery({ to: '2026-02-01', stage: 'Roofing' })).toBe('?stage=Roofing&to=2026-02-01');
    expect(filterQuery({})).toBe('');
  });
});
