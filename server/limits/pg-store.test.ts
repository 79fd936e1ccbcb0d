import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { openDatabase, type Database } from '../db/client';
import { rawRows } from '../db/rows';
import { PgLimitStore } from './pg-store';

/**
 * The shared store's SQL on embedded PGlite (the same statements PostgreSQL runs; the
 * cross-process tests are in pg-store.int.test.ts and server/http/scale-out.int.test.ts).
 * Each store stands for one process: its holder id is what its slots carry.
 */

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
let database: Database;
let dataDir: string;
const stores: PgLimitStore[] = [];

/** A store with no timers unless asked: the tests renew and sweep by hand. */
function store(holder: string, opts: { leaseMs?: number; renewEveryMs?: number } = {}): PgLimitStore {
  const s = new PgLimitStore(database, { holder, renewEveryMs: 0, sweepEveryMs: 0, ...opts });
  stores.push(s);
  return s;
}

async function slotRows(key: string): Promise<Record<string, unknown>[]> {
  return rawRows(
    await database.db.execute(sql`select slot, holder from limit_slots where key = ${key} order by slot`),
  );
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-limits-'));
  database = await openDatabase({ dataDir });
});
afterAll(async () => {
  for (const s of stores) await s.close();
  await database?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('PgLimitStore', () => {
  it('hands out at most max slots per key across holders and takes them back', async () => {
    const a = store('a');
    const b = store('b');
    expect(await a.acquire('call:x', 2)).toBe(true);
    expect(await b.acquire('call:x', 2)).toBe(true);
    expect(await a.acquire('call:x', 2)).toBe(false);
    expect(await b.acquire('call:x', 2)).toBe(false);
    expect(await a.acquire('call:y', 2)).toBe(true);
    await a.release('call:x');
    expect(await slotRows('call:x')).toEqual([{ slot: 1, holder: 'b' }]);
    expect(await b.acquire('call:x', 2)).toBe(true);
    // A release with nothing held under the key gives back nobody else's slot.
    await a.release('call:x');
    expect((await slotRows('call:x')).map((r) => r.holder)).toEqual(['b', 'b']);
    expect(await a.acquire('call:x', 0)).toBe(false);
  });

  it('frees the slots of a holder that stops renewing once their lease ends', async () => {
    const dead = store('dead', { leaseMs: 1000 });
    const alive = store('alive', { leaseMs: 1000 });
    expect(await dead.acquire('call:lease', 1)).toBe(true);
    expect(await alive.acquire('call:lease', 1)).toBe(false);
    await sleep(1100);
    // Expired: taken over in place by the live holder.
    expect(await alive.acquire('call:lease', 1)).toBe(true);
    expect(await slotRows('call:lease')).toEqual([{ slot: 0, holder: 'alive' }]);
    // The dead holder's late release leaves the new holder's slot alone.
    await dead.release('call:lease');
    expect(await slotRows('call:lease')).toEqual([{ slot: 0, holder: 'alive' }]);
    expect(await dead.acquire('call:lease', 1)).toBe(false);
  });

  it('keeps the slots of a holder that renews past the lease', async () => {
    const holder = store('renewing', { leaseMs: 1000, renewEveryMs: 150 });
    const other = store('other', { leaseMs: 1000 });
    expect(await holder.acquire('call:renewed', 1)).toBe(true);
    await sleep(1600);
    expect(await other.acquire('call:renewed', 1)).toBe(false);
  });

  it('sweeps expired slots, events and counters, and gives back its slots when closed', async () => {
    const gone = store('gone', { leaseMs: 500 });
    const closing = store('closing');
    expect(await gone.acquire('call:sweep', 3)).toBe(true);
    expect(await closing.acquire('call:sweep', 3)).toBe(true);
    await gone.add('fail:sweep', 500);
    await gone.hit('rate:sweep', 500);
    await sleep(600);
    await closing.sweep();
    expect(await slotRows('call:sweep')).toEqual([{ slot: 1, holder: 'closing' }]);
    const left = rawRows(
      await database.db.execute(
        sql`select (select count(*) from limit_events where key = 'fail:sweep')::int as events,
          (select count(*) from limit_counters where key = 'rate:sweep')::int as counters`,
      ),
    );
    expect(left).toEqual([{ events: 0, counters: 0 }]);
    await closing.close();
    expect(await slotRows('call:sweep')).toEqual([]);
  });

  it('counts events in a sliding window and says when the oldest leaves it', async () => {
    const a = store('events-a');
    const b = store('events-b');
    expect(await a.count('fail:w', 1000)).toEqual({ count: 0, resetInMs: 0 });
    const first = await a.add('fail:w', 1000);
    expect(first.count).toBe(1);
    expect(first.resetInMs).toBeGreaterThan(800);
    expect(first.resetInMs).toBeLessThanOrEqual(1000);
    await sleep(600);
    const second = await b.add('fail:w', 1000);
    expect(second.count).toBe(2);
    // The oldest event leaves first.
    expect(second.resetInMs).toBeLessThanOrEqual(400);
    await sleep(500);
    const later = await a.count('fail:w', 1000);
    expect(later.count).toBe(1);
    expect(later.resetInMs).toBeGreaterThan(0);
    await sleep(1000);
    expect(await a.count('fail:w', 1000)).toEqual({ count: 0, resetInMs: 0 });
  });

  it('counts hits in fixed windows that start again once one has passed', async () => {
    const a = store('hits-a');
    const b = store('hits-b');
    expect((await a.hit('rate:k', 1000)).count).toBe(1);
    expect((await b.hit('rate:k', 1000)).count).toBe(2);
    const third = await a.hit('rate:k', 1000);
    expect(third.count).toBe(3);
    expect(third.resetInMs).toBeGreaterThan(0);
    expect(third.resetInMs).toBeLessThanOrEqual(1000);
    expect((await a.hit('rate:other', 1000)).count).toBe(1);
    await sleep(1050);
    const fresh = await b.hit('rate:k', 1000);
    expect(fresh.count).toBe(1);
    expect(fresh.resetInMs).toBeGreaterThan(800);
  });
});
