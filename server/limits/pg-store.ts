import os from 'node:os';
import { randomUUID } from 'node:crypto';
import type { Database } from '../db/client';
import type { LimitStore, WindowCount } from './store';

/** How long a slot stays taken without its process renewing it. */
export const DEFAULT_SLOT_LEASE_MS = 60_000;
/** How often expired slots, events and counters are deleted. */
const SWEEP_EVERY_MS = 60_000;
/** Tries at taking a free slot that another process took in the same instant. */
const ACQUIRE_TRIES = 3;

export interface PgLimitStoreOptions {
  /** This process, as its slots name it (default host:pid:random). */
  holder?: string;
  /** A slot's lease: a process that dies stops renewing, and its slots come free after this. */
  leaseMs?: number;
  /** How often this process renews its slots' leases (default a third of the lease; 0 = never). */
  renewEveryMs?: number;
  /** How often expired rows are deleted (0 = never). */
  sweepEveryMs?: number;
  /** Told when a renewal or a sweep fails (the lease is the safety net either way). */
  onError?: (err: unknown, what: string) => void;
}

/** Milliseconds as an interval, from a bigint parameter. */
const MS = (param: string) => `(${param}::bigint * interval '1 millisecond')`;

/**
 * The statements, each prepared once per connection under its name. Acquire: the lowest slot
 * number not held under a live lease, taken in the same statement; a row another process
 * inserted meanwhile makes the insert a no-op (its lease is live), and `free` says a slot looked
 * free, so the caller looks again.
 */
const STATEMENTS = {
  acquire: `
    with free as materialized (
      select s from generate_series(0, $2::int - 1) s
      where not exists (select 1 from limit_slots l where l.key = $1::text and l.slot = s and l.expires_at > now())
      order by s limit 1
    ), took as (
      insert into limit_slots (key, slot, holder, expires_at)
      select $1::text, s, $3::text, now() + ${MS('$4')} from free
      on conflict (key, slot) do update set holder = excluded.holder, expires_at = excluded.expires_at
        where limit_slots.expires_at <= now()
      returning slot
    )
    select (select count(*) from free)::int as free, (select slot from took) as slot`,
  release: `delete from limit_slots where key = $1::text and slot = $2::int and holder = $3::text`,
  renew: `update limit_slots set expires_at = now() + ${MS('$2')} where holder = $1::text`,
  releaseAll: `delete from limit_slots where holder = $1::text`,
  count: `
    select count(*)::int as count,
      coalesce(greatest(0, ceil(extract(epoch from min(at) + ${MS('$2')} - now()) * 1000)), 0)::int as reset
    from limit_events where key = $1::text and at > now() - ${MS('$2')}`,
  // The inserted row is not visible to the count beside it (one snapshot): it is added by hand.
  add: `
    with added as (
      insert into limit_events (key, at, expires_at) values ($1::text, now(), now() + ${MS('$2')})
    )
    select count(*)::int + 1 as count,
      greatest(0, ceil(extract(epoch from least(min(at), now()) + ${MS('$2')} - now()) * 1000))::int as reset
    from limit_events where key = $1::text and at > now() - ${MS('$2')}`,
  hit: `
    insert into limit_counters as c (key, hits, resets_at) values ($1::text, 1, now() + ${MS('$2')})
    on conflict (key) do update set
      hits = case when c.resets_at <= now() then 1 else c.hits + 1 end,
      resets_at = case when c.resets_at <= now() then excluded.resets_at else c.resets_at end
    returning hits as count, greatest(0, ceil(extract(epoch from resets_at - now()) * 1000))::int as reset`,
  sweep: `
    with slots as (delete from limit_slots where expires_at <= now()),
      events as (delete from limit_events where expires_at <= now())
    delete from limit_counters where resets_at <= now()`,
} as const;

/**
 * The limit store of a PostgreSQL deployment, shared by every process on the database
 * (docs/ARCHITECTURE.md, "Limits across processes"). One statement per operation, prepared once
 * per connection, in the UNLOGGED tables of server/db/schema.ts, timed by the database's clock:
 *
 * - a slot is a row (key, slot number 0..max-1): taking one inserts the lowest free number, and
 *   the primary key is what keeps two processes taking at once under the cap. Each row names
 *   its holder and a lease the holder renews while it lives; a row whose lease has passed is
 *   free (taken over in place, and swept), so a process that dies leaks nothing for longer than
 *   the lease.
 * - a sliding-window event is a row (key, time); a count reads the rows inside the window.
 * - a fixed-window hit (the rate-limit plugin's) is one upserted counter per key.
 *
 * A key is counted with one window throughout (each caller uses a constant).
 */
export class PgLimitStore implements LimitStore {
  readonly holder: string;
  private readonly leaseMs: number;
  /** Slot numbers this process holds per key, given back by `release`. */
  private readonly held = new Map<string, number[]>();
  private readonly timers: NodeJS.Timeout[] = [];
  private closed = false;

  constructor(
    private readonly database: Pick<Database, 'query'>,
    private readonly opts: PgLimitStoreOptions = {},
  ) {
    this.holder = opts.holder ?? `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
    this.leaseMs = opts.leaseMs ?? DEFAULT_SLOT_LEASE_MS;
    const renewEvery = opts.renewEveryMs ?? Math.floor(this.leaseMs / 3);
    const sweepEvery = opts.sweepEveryMs ?? SWEEP_EVERY_MS;
    if (renewEvery > 0) this.every(renewEvery, 'renew slot leases', () => this.renew());
    if (sweepEvery > 0) this.every(sweepEvery, 'sweep expired limits', () => this.sweep());
  }

  private every(period: number, what: string, fn: () => Promise<unknown>): void {
    const timer = setInterval(() => {
      fn().catch((err: unknown) => this.opts.onError?.(err, what));
    }, period);
    timer.unref();
    this.timers.push(timer);
  }

  private run(name: keyof typeof STATEMENTS, values: unknown[]): Promise<Record<string, unknown>[]> {
    return this.database.query(STATEMENTS[name], values, `limits_${name}`);
  }

  private async window(name: 'count' | 'add' | 'hit', key: string, windowMs: number): Promise<WindowCount> {
    const [row] = await this.run(name, [key, Math.max(1, Math.round(windowMs))]);
    return { count: Number(row.count), resetInMs: Number(row.reset) };
  }

  async acquire(key: string, max: number): Promise<boolean> {
    if (max <= 0) return false;
    for (let attempt = 0; attempt < ACQUIRE_TRIES; attempt++) {
      const [row] = await this.run('acquire', [key, max, this.holder, this.leaseMs]);
      if (Number(row.free) === 0) return false;
      if (row.slot !== null && row.slot !== undefined) {
        const slots = this.held.get(key) ?? [];
        slots.push(Number(row.slot));
        this.held.set(key, slots);
        return true;
      }
      // A free slot was taken by another process in the same instant: look again.
    }
    return false;
  }

  /** Never fails: a slot that cannot be deleted now comes free when its lease ends. */
  async release(key: string): Promise<void> {
    const slots = this.held.get(key);
    const slot = slots?.pop();
    if (slot === undefined) return;
    if (!slots!.length) this.held.delete(key);
    if (this.closed) return;
    await this.run('release', [key, slot, this.holder]).catch((err: unknown) =>
      this.opts.onError?.(err, 'release a slot'),
    );
  }

  count(key: string, windowMs: number): Promise<WindowCount> {
    return this.window('count', key, windowMs);
  }

  add(key: string, windowMs: number): Promise<WindowCount> {
    return this.window('add', key, windowMs);
  }

  hit(key: string, windowMs: number): Promise<WindowCount> {
    return this.window('hit', key, windowMs);
  }

  /** Renews the lease of every slot this process holds. */
  async renew(): Promise<void> {
    if (this.closed || this.held.size === 0) return;
    await this.run('renew', [this.holder, this.leaseMs]);
  }

  /** Deletes expired slots, events and counters (any process may: the rows are everyone's). */
  async sweep(): Promise<void> {
    if (this.closed) return;
    await this.run('sweep', []);
  }

  /** Stops renewing and gives back every slot this process still holds (before the database closes). */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.held.clear();
    await this.run('releaseAll', [this.holder]).catch((err: unknown) =>
      this.opts.onError?.(err, 'give back slots'),
    );
  }
}
