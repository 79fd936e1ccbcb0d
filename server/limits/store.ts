import type { Database } from '../db/client';
import { PgLimitStore } from './pg-store';

/**
 * Per-client counters behind one small interface: how many things a client address holds at
 * once (calls) and how many events it had in a sliding window (failed operator logins). The
 * server builds one store at boot (`createLimitStore`, app.ts) and every per-address limit goes
 * through it: on PostgreSQL it is shared by every process on the database (`PgLimitStore`), on
 * PGlite (one process) it is this process's memory. Connections are counted in a memory store
 * of their own in any deployment: each process has its own sockets and file limit.
 *
 * Keys are `<what>:<client address>`; the store knows nothing of what they count.
 */
export interface LimitStore {
  /**
   * Takes one of at most `max` slots under `key` (a connection, a call): false when all are
   * taken, and then nothing was taken. Every true must be paired with one `release`.
   */
  acquire(key: string, max: number): Promise<boolean>;
  /** Gives back a slot taken with `acquire`. */
  release(key: string): Promise<void>;
  /** Events counted under `key` in the last `windowMs`, and ms until the oldest leaves it. */
  count(key: string, windowMs: number): Promise<WindowCount>;
  /** Counts one event under `key` now; answers the count including it. */
  add(key: string, windowMs: number): Promise<WindowCount>;
  /**
   * Counts one request under `key` in a fixed window of `windowMs` (the rate-limit plugin's
   * counts). Only stores shared between processes have it; without it the plugin counts in
   * this process's memory.
   */
  hit?(key: string, windowMs: number): Promise<WindowCount>;
  /** Gives back what this process holds, before the database closes. */
  close?(): Promise<void>;
}

export interface WindowCount {
  count: number;
  /** Until the oldest counted event leaves the window (0 when there is none). */
  resetInMs: number;
}

/** Keys remembered at once in memory; past this the least recently used are forgotten. */
const MAX_KEYS = 50_000;

/**
 * This process's memory: right for one process (PGlite), and for connections in any deployment
 * (each process has its own sockets and file limit). With several web processes each would hold
 * its own counts, so a client's allowance would be per process: PostgreSQL deployments use
 * `PgLimitStore` instead.
 */
export class MemoryLimitStore implements LimitStore {
  private readonly held = new Map<string, number>();
  private readonly events = new Map<string, number[]>();

  constructor(private readonly now: () => number = Date.now) {}

  acquire(key: string, max: number): Promise<boolean> {
    const n = this.held.get(key) ?? 0;
    if (n >= max) return Promise.resolve(false);
    this.held.set(key, n + 1);
    return Promise.resolve(true);
  }

  release(key: string): Promise<void> {
    const n = (this.held.get(key) ?? 0) - 1;
    if (n > 0) this.held.set(key, n);
    else this.held.delete(key);
    return Promise.resolve();
  }

  /** Slots held under `key` now (tests and operators). */
  holding(key: string): number {
    return this.held.get(key) ?? 0;
  }

  private recent(key: string, windowMs: number): number[] {
    const since = this.now() - windowMs;
    const list = (this.events.get(key) ?? []).filter((at) => at > since);
    if (list.length) this.events.set(key, list);
    else this.events.delete(key);
    return list;
  }

  private answer(list: number[], windowMs: number): WindowCount {
    return {
      count: list.length,
      resetInMs: list.length ? Math.max(0, list[0] + windowMs - this.now()) : 0,
    };
  }

  count(key: string, windowMs: number): Promise<WindowCount> {
    return Promise.resolve(this.answer(this.recent(key, windowMs), windowMs));
  }

  add(key: string, windowMs: number): Promise<WindowCount> {
    const list = this.recent(key, windowMs);
    list.push(this.now());
    // Most recently used last, so the oldest keys are the ones forgotten.
    this.events.delete(key);
    this.events.set(key, list);
    while (this.events.size > MAX_KEYS) this.events.delete(this.events.keys().next().value!);
    return Promise.resolve(this.answer(list, windowMs));
  }
}

/**
 * The store every per-address limit uses: shared through the database on PostgreSQL, where
 * several web processes may serve one site; this process's memory on PGlite, which only one
 * process can open.
 */
export function createLimitStore(
  database: Pick<Database, 'query' | 'driver'>,
  onError?: (err: unknown, what: string) => void,
): LimitStore {
  return database.driver === 'postgres' ? new PgLimitStore(database, { onError }) : new MemoryLimitStore();
}
