import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase } from '../test-support/harness';
import { openDatabase, type Database } from '../db/client';
import { PgLimitStore } from './pg-store';

/**
 * Two processes' stores (each its own pool of connections) racing on one PostgreSQL database:
 * the cap holds however the takes interleave, and so do the counts.
 */
describe.skipIf(!process.env.TEST_DATABASE_URL)('PgLimitStore on PostgreSQL, two pools at once', () => {
  let dbs: Database[] = [];
  let stores: PgLimitStore[] = [];
  let drop: () => Promise<void>;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-limits-pg-'));

  beforeAll(async () => {
    const created = await createTestDatabase();
    drop = created.drop;
    dbs = [
      await openDatabase({ databaseUrl: created.url, dataDir }),
      await openDatabase({ databaseUrl: created.url, dataDir }),
    ];
    stores = dbs.map((d, i) => new PgLimitStore(d, { holder: `process-${i}` }));
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    for (const d of dbs) await d.close();
    await drop?.();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('never hands out more than max slots to takers racing from both pools', async () => {
    for (const max of [1, 3]) {
      const key = `call:race-${max}`;
      const taken = await Promise.all(Array.from({ length: 40 }, (_, i) => stores[i % 2].acquire(key, max)));
      expect(taken.filter(Boolean)).toHaveLength(max);
    }
  });

  it('gives each racing hit its own count', async () => {
    const counts = await Promise.all(
      Array.from({ length: 40 }, (_, i) => stores[i % 2].hit('rate:race', 60_000)),
    );
    expect(counts.map((c) => c.count).sort((x, y) => x - y)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
    await Promise.all(Array.from({ length: 10 }, (_, i) => stores[i % 2].add('fail:race', 60_000)));
    expect((await stores[0].count('fail:race', 60_000)).count).toBe(10);
  });

  it('gives back every slot of a closing process, and only its own', async () => {
    const [one, two] = stores;
    expect(await one.acquire('call:closing', 2)).toBe(true);
    expect(await two.acquire('call:closing', 2)).toBe(true);
    expect(await one.acquire('call:closing', 2)).toBe(false);
    await one.close();
    expect(await two.acquire('call:closing', 2)).toBe(true);
    expect(await two.acquire('call:closing', 2)).toBe(false);
  });
});
