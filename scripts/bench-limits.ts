/**
 * npm run bench:limits — what one operation of the per-address limit store costs: the
 * PostgreSQL store every process shares (server/limits/pg-store.ts) against this process's
 * memory (the PGlite deployment's). Needs TEST_DATABASE_URL or BENCH_DATABASE_URL (a throwaway
 * database is created on that server and dropped after).
 *
 * Each operation runs in a loop one at a time (latency: the round trip a request or a call
 * waits for), then from CONCURRENCY loops at once over one pool (throughput), with this
 * process's CPU per operation (the database server's own CPU is not counted).
 *
 *   BENCH_OPS=N          operations per row (default 2000)
 *   BENCH_CONCURRENCY=N  loops at once for the throughput rows (default 8)
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase } from '../server/test-support/harness';
import { openDatabase } from '../server/db/client';
import { PgLimitStore } from '../server/limits/pg-store';
import { MemoryLimitStore, type LimitStore } from '../server/limits/store';
import { machine, percentile } from './lib/bench';

const OPS = Number(process.env.BENCH_OPS ?? 2000);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 8);
const WINDOW_MS = 60_000;

interface Row {
  store: string;
  op: string;
  loops: number;
  opsPerSec: number;
  p50us: number;
  p99us: number;
  cpuUs: number;
}

/**
 * The operations, each as the server uses them: a call's slot taken and given back (two
 * statements), a refusal when the address's slots are full, a wrong operator token (`add`)
 * and its check (`count`), and a rate-limited request (`hit`). `i` spreads loops over addresses.
 */
function operations(store: LimitStore): [string, (i: number) => Promise<unknown>][] {
  return [
    [
      'acquire + release',
      async (i) => {
        if (!(await store.acquire(`call:10.0.${i % 250}.1`, 2))) throw new Error('slot not taken');
        await store.release(`call:10.0.${i % 250}.1`);
      },
    ],
    ['acquire refused (full)', (i) => store.acquire(`call:full-${i % 4}`, 1)],
    ['add (sliding window)', (i) => store.add(`fail:10.1.${i % 250}.1`, WINDOW_MS)],
    ['count (sliding window)', (i) => store.count(`fail:10.1.${i % 250}.1`, WINDOW_MS)],
    ...(store.hit
      ? [['hit (fixed window)', (i: number) => store.hit!(`rate:10.2.${i % 250}.1`, WINDOW_MS)] as const]
      : []),
  ] as [string, (i: number) => Promise<unknown>][];
}

async function measure(
  store: string,
  op: string,
  fn: (i: number) => Promise<unknown>,
  loops: number,
): Promise<Row> {
  // Warm: connections open, statements planned.
  for (let i = 0; i < 50; i++) await fn(i);
  const times: number[] = [];
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  let next = 0;
  await Promise.all(
    Array.from({ length: loops }, async (_, loop) => {
      while (next < OPS) {
        const i = next++;
        const start = performance.now();
        await fn(i * loops + loop);
        times.push(performance.now() - start);
      }
    }),
  );
  const seconds = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  return {
    store,
    op,
    loops,
    opsPerSec: OPS / seconds,
    p50us: percentile(times, 50) * 1000,
    p99us: percentile(times, 99) * 1000,
    cpuUs: (cpu.user + cpu.system) / OPS,
  };
}

async function main(): Promise<void> {
  const admin = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('set TEST_DATABASE_URL or BENCH_DATABASE_URL to a PostgreSQL server');
  process.env.TEST_DATABASE_URL = admin;
  const created = await createTestDatabase();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-bench-limits-'));
  const database = await openDatabase({ databaseUrl: created.url, dataDir, poolSize: CONCURRENCY });
  const shared = new PgLimitStore(database, { holder: 'bench' });
  const rows: Row[] = [];
  const started = machine();
  try {
    // The full slots the refusal rows run into.
    for (let k = 0; k < 4; k++) await shared.acquire(`call:full-${k}`, 1);
    const memory = new MemoryLimitStore();
    for (let k = 0; k < 4; k++) await memory.acquire(`call:full-${k}`, 1);
    for (const loops of [1, CONCURRENCY]) {
      // Alternating stores, op by op, so load from elsewhere falls on both alike.
      const pg = operations(shared);
      const mem = new Map(operations(memory));
      for (const [op, fn] of pg) {
        rows.push(await measure('PostgreSQL', op, fn, loops));
        const inMemory = mem.get(op);
        if (inMemory && loops === 1) rows.push(await measure('memory', op, inMemory, loops));
      }
    }
  } finally {
    await shared.close();
    await database.close();
    await created.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(`${OPS} operations per row; before: ${started}; after: ${machine()}\n`);
  console.log('| store | operation | loops at once | ops/s | p50 µs | p99 µs | client CPU µs/op |');
  console.log('| --- | --- | ---: | ---: | ---: | ---: | ---: |');
  for (const r of rows) {
    console.log(
      `| ${r.store} | ${r.op} | ${r.loops} | ${Math.round(r.opsPerSec)} | ${Math.round(r.p50us)} | ${Math.round(r.p99us)} | ${r.cpuUs.toFixed(1)} |`,
    );
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
