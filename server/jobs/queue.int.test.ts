import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import type { Database } from '../db/client';
import { jobs } from '../db/schema';
import { dbKinds, openTestDatabase, waitFor as waitUntil } from '../test-support/harness';
import { z } from 'zod';
import {
  defineJob,
  DeferJobError,
  enqueue,
  jobStatus,
  JobWorker,
  takeQueuedJob,
  type JobKind,
} from './queue';

/** Leases here are seconds long: poll often, give up sooner than the default. */
const waitFor: typeof waitUntil = (probe, what, timeoutMs = 20_000, intervalMs = 50) =>
  waitUntil(probe, what, timeoutMs, intervalMs);

/** A job kind whose runs hang until the worker stops, like a process killed mid-job. */
function hangingKind(name: string, leaseMs: number | undefined, runs: string[]): JobKind<object> {
  return defineJob({
    name,
    schema: z.object({}),
    ...(leaseMs === undefined ? {} : { leaseMs }),
    handle: (_payload, ctx) =>
      new Promise<void>((_resolve, reject) => {
        runs.push(ctx.job.id);
        ctx.signal.addEventListener('abort', () => reject(new Error('stopped')), { once: true });
      }),
  });
}

/** Enqueueing only needs a kind's name and schema. */
const byName = (name: string) => hangingKind(name, undefined, []);

for (const kind of dbKinds) {
  describe(`job queue leases on ${kind}`, () => {
    let database: Database;
    let cleanup: () => Promise<void>;
    const workers: JobWorker[] = [];

    beforeAll(async () => {
      const opened = await openTestDatabase(kind, 'doorstep-queue-');
      database = opened.database;
      cleanup = opened.close;
    });
    afterEach(async () => {
      await Promise.all(workers.splice(0).map((w) => w.stop()));
      await database.db.delete(jobs);
    });
    afterAll(async () => cleanup?.());

    /** Seconds from the database's clock to the job's locked_until. */
    async function leaseLeft(id: string): Promise<number> {
      const [row] = await database.db
        .select({ secs: sql<number>`extract(epoch from (${jobs.lockedUntil} - now()))::float8` })
        .from(jobs)
        .where(eq(jobs.id, id));
      return Number(row.secs);
    }

    it("leases each claimed job for its own kind's leaseMs, not the longest registered one", async () => {
      const runs: string[] = [];
      const worker = new JobWorker(database.db, { concurrency: 3, pollMs: 50 })
        .register(hangingKind('quick', 2_000, runs), undefined)
        .register(hangingKind('slow', 120_000, runs), undefined)
        .register(hangingKind('plain', undefined, runs), undefined);
      workers.push(worker);
      const quick = await enqueue(database.db, byName('quick'), {});
      const slow = await enqueue(database.db, byName('slow'), {});
      const plain = await enqueue(database.db, byName('plain'), {});
      await worker.start();
      await waitFor(async () => runs.length === 3, 'all three jobs to be claimed');

      const quickLeft = await leaseLeft(quick);
      expect(quickLeft).toBeGreaterThan(0);
      expect(quickLeft).toBeLessThanOrEqual(2);
      expect(await leaseLeft(slow)).toBeGreaterThan(110);
      // A kind without leaseMs gets the 60 s default.
      const plainLeft = await leaseLeft(plain);
      expect(plainLeft).toBeGreaterThan(50);
      expect(plainLeft).toBeLessThanOrEqual(60);
    });

    it('lets another worker take over a job once its own short lease expires', async () => {
      const firstRuns: string[] = [];
      const secondRuns: string[] = [];
      const first = new JobWorker(database.db, { concurrency: 2, pollMs: 50 })
        .register(hangingKind('quick', 1_000, firstRuns), undefined)
        .register(hangingKind('slow', 120_000, firstRuns), undefined);
      workers.push(first);
      const quick = await enqueue(database.db, byName('quick'), {});
      const slow = await enqueue(database.db, byName('slow'), {});
      await first.start();
      await waitFor(async () => firstRuns.length === 2, 'the first worker to claim both jobs');

      // The first worker is stuck (as if killed); a second one polls the same kinds.
      const second = new JobWorker(database.db, { concurrency: 2, pollMs: 100 })
        .register(hangingKind('quick', 1_000, secondRuns), undefined)
        .register(hangingKind('slow', 120_000, secondRuns), undefined);
      workers.push(second);
      await second.start();
      await waitFor(async () => secondRuns.includes(quick), 'the quick job to be taken over', 10_000);

      const rows = await database.db.select().from(jobs);
      const byId = new Map(rows.map((r) => [r.id, r]));
      expect(byId.get(quick)).toMatchObject({ status: 'running', lockedBy: second.id, attempts: 2 });
      // The long-leased job stays with its first worker.
      expect(byId.get(slow)).toMatchObject({ status: 'running', lockedBy: first.id, attempts: 1 });
      expect(secondRuns).toEqual([quick]);
    });

    it('fails a job whose stored payload does not match its schema, and keeps running the rest', async () => {
      const handled: string[] = [];
      const finalFailures: string[] = [];
      const strict = defineJob({
        name: 'strict',
        schema: z.object({ n: z.number().int() }),
        handle: async ({ n }) => {
          handled.push(String(n));
        },
        onFinalFailure: async ({ n }) => {
          finalFailures.push(String(n));
        },
      });
      // A row written by hand (or an older version) skips enqueue's check.
      const [bad] = await database.db
        .insert(jobs)
        .values({ kind: 'strict', payload: { n: 'seven' } })
        .returning({ id: jobs.id });
      const good = await enqueue(database.db, strict, { n: 7 });
      const worker = new JobWorker(database.db, { pollMs: 50 }).register(strict, undefined);
      workers.push(worker);
      await worker.start();
      await waitFor(async () => {
        const rows = await database.db.select().from(jobs);
        return rows.every((r) => r.status === 'done' || r.status === 'failed');
      }, 'both jobs to finish');

      const rows = new Map((await database.db.select().from(jobs)).map((r) => [r.id, r]));
      expect(rows.get(bad.id)).toMatchObject({ status: 'failed', attempts: 1 });
      expect(rows.get(bad.id)!.lastError).toMatch(/Invalid payload for job "strict": n:/);
      expect(rows.get(good)).toMatchObject({ status: 'done' });
      expect(handled).toEqual(['7']);
      // The failure hook takes a typed payload; a payload that never parsed does not reach it.
      expect(finalFailures).toEqual([]);
    });

    it('runs each named step once: a retried job gets the steps that finished back', async () => {
      const calls: string[] = [];
      let failSave = true;
      const stepped = defineJob({
        name: 'stepped',
        schema: z.object({}),
        maxAttempts: 3,
        handle: async (_payload, run) => {
          const heard = await run.step('transcribe', async () => {
            calls.push('transcribe');
            return { words: ['hello', 'there'] };
          });
          await run.step('save', async () => {
            calls.push(`save ${heard.words.join(' ')}`);
            if (failSave) {
              failSave = false;
              throw new Error('database went away');
            }
          });
        },
      });
      const id = await enqueue(database.db, stepped, {});
      // The retry's backoff is a second; poll often.
      const worker = new JobWorker(database.db, { pollMs: 50 }).register(stepped, undefined);
      workers.push(worker);
      await worker.start();
      await waitFor(
        async () => (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0]?.status === 'done',
        'the retried job to finish',
      );
      // The expensive step ran once; the failed one ran again with its result.
      expect(calls).toEqual(['transcribe', 'save hello there', 'save hello there']);
      const [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
      expect(row.attempts).toBe(2);
      expect(row.steps).toEqual({ transcribe: { words: ['hello', 'there'] }, save: null });
    });

    it('lets a caller take a queued job and run it itself; a worker then never runs it', async () => {
      const runs: string[] = [];
      const kind = defineJob({
        name: 'taken',
        schema: z.object({}),
        handle: async (_p, ctx) => {
          runs.push(ctx.job.id);
        },
      });
      const id = await enqueue(database.db, kind, {}, { dedupeKey: 'taken:1' });
      const taken = await takeQueuedJob(database.db, 'taken:1', { holder: 'request:1' });
      expect(taken?.id).toBe(id);
      // Only one taker wins.
      expect(await takeQueuedJob(database.db, 'taken:1', { holder: 'request:2' })).toBeNull();
      expect(await jobStatus(database.db, 'taken:1')).toMatchObject({ status: 'running' });
      await taken!.finish();
      // A second job taken before any worker polls (a worker already running could claim it
      // first on a loaded machine): held by its taker, no worker runs it either.
      await enqueue(database.db, kind, {}, { dedupeKey: 'taken:2' });
      const second = await takeQueuedJob(database.db, 'taken:2', { holder: 'request:3' });
      expect(second).not.toBeNull();
      const worker = new JobWorker(database.db, { pollMs: 50 }).register(kind, undefined);
      workers.push(worker);
      await worker.start();
      await new Promise((r) => setTimeout(r, 300));
      expect(runs).toEqual([]);
      expect(await jobStatus(database.db, 'taken:1')).toMatchObject({ status: 'done' });

      // A taker that cannot finish hands the job back to the workers.
      await second!.release(new Error('the request was cut off'));
      await waitFor(async () => runs.length === 1, 'a worker to run the released job');
      expect(await jobStatus(database.db, 'taken:2')).toMatchObject({ status: 'done' });
    });

    it("serves owners in turn: a second owner does not wait behind the first one's queue", async () => {
      const order: string[] = [];
      const kind = defineJob({
        name: 'turns',
        schema: z.object({ name: z.string() }),
        handle: async ({ name }) => {
          order.push(name);
          await new Promise((r) => setTimeout(r, 30));
        },
      });
      // One owner queues three long jobs first; another queues one just after.
      for (const name of ['a1', 'a2', 'a3'])
        await enqueue(database.db, kind, { name }, { ownerKey: 'owner-a' });
      await enqueue(database.db, kind, { name: 'b1' }, { ownerKey: 'owner-b' });
      const worker = new JobWorker(database.db, { concurrency: 1, pollMs: 20 }).register(kind, undefined);
      workers.push(worker);
      await worker.start();
      await waitFor(async () => order.length === 4, 'all four jobs');
      expect(order).toEqual(['a1', 'b1', 'a2', 'a3']);
    });

    it("runs one job per owner at a time, so one owner's long jobs never take every slot", async () => {
      const runs: string[] = [];
      const names = new Map<string, string>();
      const kind = hangingKind('long', undefined, runs);
      for (const name of ['a1', 'a2', 'a3'])
        names.set(await enqueue(database.db, kind, {}, { ownerKey: 'owner-a' }), name);
      names.set(await enqueue(database.db, kind, {}, { ownerKey: 'owner-b' }), 'b1');
      const worker = new JobWorker(database.db, { concurrency: 3, pollMs: 20 }).register(kind, undefined);
      workers.push(worker);
      await worker.start();
      await waitFor(async () => runs.length === 2, 'two jobs running');
      await new Promise((r) => setTimeout(r, 300));
      // A third slot is free, yet owner A's other jobs wait for its first.
      expect(runs.map((id) => names.get(id)).sort()).toEqual(['a1', 'b1']);
    });

    it('keeps short jobs moving beside long ones: a lane of their own', async () => {
      const longRuns: string[] = [];
      const long = { ...hangingKind('transcribe-like', undefined, longRuns), lane: 'recordings' };
      const done: string[] = [];
      const short = defineJob({
        name: 'email-like',
        schema: z.object({}),
        handle: async (_p, ctx) => {
          done.push(ctx.job.id);
        },
      });
      await enqueue(database.db, long, {}, { ownerKey: 'owner-a' });
      await enqueue(database.db, long, {}, { ownerKey: 'owner-b' });
      const shortId = await enqueue(database.db, short, {});
      const worker = new JobWorker(database.db, { concurrency: 1, lanes: { recordings: 2 }, pollMs: 20 })
        .register(long, undefined)
        .register(short, undefined);
      workers.push(worker);
      await worker.start();
      await waitFor(
        async () => longRuns.length === 2 && done.length === 1,
        'both long jobs and the short one',
      );
      expect(done).toEqual([shortId]);
    });

    it('puts a deferred job back until its time, without counting an attempt', async () => {
      let calls = 0;
      const until = new Date(Date.now() + 3600_000);
      const kind = defineJob({
        name: 'budgeted',
        schema: z.object({}),
        maxAttempts: 1,
        handle: async () => {
          calls++;
          throw new DeferJobError(until, 'over budget');
        },
      });
      const id = await enqueue(database.db, kind, {});
      const worker = new JobWorker(database.db, { pollMs: 20 }).register(kind, undefined);
      workers.push(worker);
      await worker.start();
      await waitFor(async () => calls === 1, 'the first run');
      await waitFor(
        async () => (await database.db.select().from(jobs).where(eq(jobs.id, id)))[0]?.lockedBy === null,
        'the job to be back in the queue',
      );
      const [row] = await database.db.select().from(jobs).where(eq(jobs.id, id));
      expect(row).toMatchObject({ status: 'queued', attempts: 0, lastError: 'over budget' });
      expect(Math.abs(row.runAt.getTime() - until.getTime())).toBeLessThan(1000);
      await new Promise((r) => setTimeout(r, 200));
      expect(calls).toBe(1);
    });
  });
}
