/**
 * Role-plays this browser held by typing: their timing metrics (pace, pauses, talk time by the
 * clock) measure typing, not speech, so the coaching card leaves them out. Kept in localStorage
 * so a reload of the session still knows.
 */
const KEY = 'doorstep:typed-sessions';
const MAX = 50;

function read(): string[] {
  try {
    const parsed = JSON.parse(window.localStorage.getItem(KEY) ?? '[]') as unknown;
    return Array.isArray(parsed) ? parsed.filter((v): v is string => typeof v === 'string') : [];
  } catch {
    return [];
  }
}

export function recordTypedSession(id: string): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify([id, ...read().filter((v) => v !== id)].slice(0, MAX)));
  } catch {
    // Storage refused: after a reload the card shows every metric.
  }
}

export function wasTyped(id: string): boolean {
  return read().includes(id);
}
