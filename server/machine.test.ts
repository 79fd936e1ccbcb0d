import { describe, expect, it } from 'vitest';
import {
  defaultMaxLiveCalls,
  defaultMaxTextCalls,
  LIVE_CALL_MEMORY_MB,
  TEXT_CALL_MEMORY_MB,
} from './machine';

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

describe('defaultMaxTextCalls', () => {
  it('keeps every call at the fastest allowed pace within a quarter of the event loop, any core count', () => {
    expect(defaultMaxTextCalls(64 * 1024 * MB)).toBe(250);
    expect(defaultMaxTextCalls(64 * 1024 * MB, 2000)).toBe(250);
    // A faster allowed pace, or none (taken as a turn a second), leaves room for fewer calls.
    expect(defaultMaxTextCalls(64 * 1024 * MB, 1000)).toBe(125);
    expect(defaultMaxTextCalls(64 * 1024 * MB, 0)).toBe(125);
  });

  it('stays within half the free memory, at least 2', () => {
    expect(defaultMaxTextCalls(100 * TEXT_CALL_MEMORY_MB * MB)).toBe(50);
    expect(defaultMaxTextCalls(0)).toBe(2);
  });
});
