import { describe, expect, it } from 'vitest';
import { practiceUrl, readRecentPractice, recordPractice, RECENT_PRACTICE_MAX } from './recent-practice';

class MemoryStorage implements Storage {
  private map = new Map<string, string>();
  get length() {
    return this.map.size;
  }
  clear() {
    this.map.clear();
  }
  getItem(key: string) {
    return this.map.get(key) ?? null;
  }
  key(i: number) {
    return [...this.map.keys()][i] ?? null;
  }
  removeItem(key: string) {
    this.map.delete(key);
  }
  setItem(key: string, value: string) {
    this.map.set(key, value);
  }
}

describe('recent practice on this device', () => {
  it('keeps the newest first, one row per session, and fills in the score after the unlock', () => {
    const storage = new MemoryStorage();
    recordPractice(
      { kind: 'roleplay', id: 'a', stage: 'Windows', at: '2026-01-01T10:00:00Z', overall: null },
      storage,
    );
    recordPractice(
      { kind: 'audio', id: 'b', stage: 'General', at: '2026-01-01T11:00:00Z', overall: 6 },
      storage,
    );
    recordPractice(
      { kind: 'roleplay', id: 'a', stage: 'Windows', at: '2026-01-01T12:00:00Z', overall: 5.5 },
      storage,
    );
    const list = readRecentPractice(storage);
    expect(list.map((e) => `${e.kind}:${e.id}:${e.overall}:${e.at}`)).toEqual([
      'roleplay:a:5.5:2026-01-01T10:00:00Z',
      'audio:b:6:2026-01-01T11:00:00Z',
    ]);
    // A later visit before the unlock does not wipe a known score.
    recordPractice(
      { kind: 'audio', id: 'b', stage: 'General', at: '2026-01-02T00:00:00Z', overall: null },
      storage,
    );
    expect(readRecentPractice(storage).find((e) => e.id === 'b')?.overall).toBe(6);
  });

  it('is bounded and survives junk in storage', () => {
    const storage = new MemoryStorage();
    for (let i = 0; i < 25; i++)
      recordPractice(
        { kind: 'roleplay', id: `s${i}`, stage: 'HVAC', at: new Date(i).toISOString(), overall: i },
        storage,
      );
    expect(readRecentPractice(storage)).toHaveLength(RECENT_PRACTICE_MAX);
    storage.setItem('doorstep:recent-practice', '{not json');
    expect(readRecentPractice(storage)).toEqual([]);
    storage.setItem('doorstep:recent-practice', JSON.stringify([{ kind: 'x' }, 3]));
    expect(readRecentPractice(storage)).toEqual([]);
  });

  it('links back to the session on its own page', () => {
    expect(practiceUrl({ kind: 'roleplay', id: 'abc' })).toBe('/?session=abc');
    expect(practiceUrl({ kind: 'audio', id: 'd e' })).toBe('/audio?session=d%20e');
  });
});
