/**
 * Remembers, per session, that the rep unlocked the full coaching. The server is the record
 * (a lead row for the session); this copy in localStorage makes a reload show the sections at
 * once, and keeps working when the server cannot be reached.
 */
export type GateSessionKind = 'roleplay' | 'audio';

const PREFIX = 'doorstep:unlocked';
const EVENT = 'doorstep:gate-change';
// Used when storage is blocked (private modes), so unlocking still works for this page view.
const memory = new Set<string>();

export const gateStorageKey = (kind: GateSessionKind, id: string) => `${PREFIX}:${kind}:${id}`;

export function isUnlockedLocally(kind: GateSessionKind, id: string | null): boolean {
  if (!id) return false;
  const key = gateStorageKey(kind, id);
  if (memory.has(key)) return true;
  try {
    return window.localStorage.getItem(key) === '1';
  } catch {
    return false;
  }
}

export function rememberUnlocked(kind: GateSessionKind, id: string): void {
  const key = gateStorageKey(kind, id);
  memory.add(key);
  try {
    window.localStorage.setItem(key, '1');
  } catch {
    // Storage full or blocked: the in-memory copy and the server's record still apply.
  }
  window.dispatchEvent(new Event(EVENT));
}

/** For useSyncExternalStore: changes from this tab (custom event) and other tabs (storage event). */
export function subscribeGate(onChange: () => void): () => void {
  window.addEventListener(EVENT, onChange);
  window.addEventListener('storage', onChange);
  return () => {
    window.removeEventListener(EVENT, onChange);
    window.removeEventListener('storage', onChange);
  };
}
