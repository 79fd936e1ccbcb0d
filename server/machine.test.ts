import { describe, expect, it } from 'vitest';
import { defaultMaxLiveCalls, LIVE_CALL_MEMORY_MB } from './machine';

const MB = 1024 * 1024;

describe('defaultMaxLiveCalls', () => {
  it('allows 10 calls per core when memory is plentiful', () => {
    expect(defaultMaxLiveCalls(2, 64 * 1024 * MB)).toBe(20);
    expect(defaultMaxLiveCalls(8, 64 * 1024 * MB)).toBe(80);
  });

  it('keeps the calls within half the free memory', () => {
    expect(defaultMaxLiveCalls(16, 10 * LIVE_CALL_MEMORY_MB * MB)).toBe(5);
  });

  it('never goes below 2', () => {
    expect(defaultMaxLiveCalls(1, 0)).toBe(2);
  });
});
