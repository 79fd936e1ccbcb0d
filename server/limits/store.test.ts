import { describe, expect, it } from 'vitest';
import { MemoryLimitStore } from './store';

describe('MemoryLimitStore', () => {
  it('hands out at most max slots per key and takes them back', async () => {
    const store = new MemoryLimitStore();
    expect(await store.acquire('call:a', 2)).toBe(true);
    expect(await store.acquire('call:a', 2)).toBe(true);
    expect(await store.acquire('call:a', 2)).toBe(false);
    expect(await store.acquire('call:b', 2)).toBe(true);
    await store.release('call:a');
    expect(store.holding('call:a')).toBe(1);
    expect(await store.acquire('call:a', 2)).toBe(true);
    await store.release('call:b');
    expect(store.holding('call:b')).toBe(0);
  });

  it('counts events in a sliding window and says when the oldest leaves it', async () => {
    let now = 1_000_000;
    const store = new MemoryLimitStore(() => now);
    expect(await store.count('fail:a', 60_000)).toEqual({ count: 0, resetInMs: 0 });
    await store.add('fail:a', 60_000);
    now += 10_000;
    expect(await store.add('fail:a', 60_000)).toEqual({ count: 2, resetInMs: 50_000 });
    now += 50_001;
    expect(await store.count('fail:a', 60_000)).toEqual({ count: 1, resetInMs: 9_999 });
    now += 10_000;
    expect((await store.count('fail:a', 60_000)).count).toBe(0);
  });
});
