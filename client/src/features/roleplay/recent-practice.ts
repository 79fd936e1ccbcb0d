/**
 * "Your recent practice": the sessions this browser held, kept in localStorage only (there is
 * no login). Each entry links back to the session (/?session= or /audio?session=), where the
 * server supplies the transcript, coaching and gate state.
 */
export interface PracticeEntry {
  kind: 'roleplay' | 'audio';
  id: string;
  stage: string;
  /** ISO time the session was practised. */
  at: string;
  /** Mean of the six scores, once all are known (after the unlock); null before. */
  overall: number | null;
}

export const RECENT_PRACTICE_KEY = 'doorstep:recent-practice';
export const RECENT_PRACTICE_MAX = 10;
const EVENT = 'doorstep:recent-practice-change';

function isEntry(value: unknown): value is PracticeEntry {
  if (!value || typeof value !== 'object') return false;
  const v = value as Record<string, unknown>;
  return (
    (v.kind === 'roleplay' || v.kind === 'audio') &&
    typeof v.id === 'string' &&
    typeof v.stage === 'string' &&
    typeof v.at === 'string' &&
    (v.overall === null || typeof v.overall === 'number')
  );
}

export function readRecentPractice(storage: Storage | null = safeStorage()): PracticeEntry[] {
  if (!storage) return [];
  try {
    const parsed = JSON.parse(storage.getItem(RECENT_PRACTICE_KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter(isEntry).slice(0, RECENT_PRACTICE_MAX) : [];
  } catch {
    return [];
  }
}

/** Adds or updates a session (newest first); a later score replaces an earlier null. */
export function recordPractice(
  entry: PracticeEntry,
  storage: Storage | null = safeStorage(),
): PracticeEntry[] {
  if (!storage) return [];
  const existing = readRecentPractice(storage);
  const previous = existing.find((e) => e.kind === entry.kind && e.id === entry.id);
  const merged: PracticeEntry = previous
    ? { ...previous, ...entry, at: previous.at, overall: entry.overall ?? previous.overall }
    : entry;
  const next = [merged, ...existing.filter((e) => !(e.kind === entry.kind && e.id === entry.id))].slice(
    0,
    RECENT_PRACTICE_MAX,
  );
  try {
    storage.setItem(RECENT_PRACTICE_KEY, JSON.stringify(next));
  } catch {
    // Storage full or blocked: the list is a convenience, the session itself is on the server.
  }
  if (typeof window !== 'undefined') window.dispatchEvent(new Event(EVENT));
  return next;
}

export function practiceUrl(entry: Pick<PracticeEntry, 'kind' | 'id'>): string {
  return `${entry.kind === 'audio' ? '/audio' : '/'}?session=${encodeURIComponent(entry.id)}`;
}

export function subscribeRecentPractice(onChange: () => void): () => void {
  window.addEventListener(EVENT, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}

function safeStorage(): Storage | null {
  try {
    return typeof window === 'undefined' ? null : window.localStorage;
  } catch {
    return null;
  }
}
