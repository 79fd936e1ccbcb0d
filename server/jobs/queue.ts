import os from 'node:os';
import { randomUUID } from 'node:crypto';
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client';
import { jobs } from '../db/schema';
import { z } from 'zod';

export type JobRow = typeof jobs.$inferSelect;

export interface JobContext {
  job: JobRow;
  /** Aborted when the worker shuts down; long jobs should stop and let the job be retried. */
  signal: AbortSignal;
  /** Extends the lease of a long-running job. */
  heartbeat(): Promise<void>;
}

/** What a handler is given: the running job, plus the dependencies its kind was registered with. */
export interface JobRun<Deps> extends JobContext {
  deps: Deps;
  /**
   * Runs one named step of the job. Its result (plain JSON: data, not class instances) is stored
   * with the job when it returns, so a
   * run that resumes the job after a crash, a restart or a retry gets the stored result back
   * instead of doing the step again (a transcription is not redone because the save after it
   * failed). Steps run in the order the handler calls them; a name is used once per job.
   */
  step<T>(name: string, fn: () => Promise<T>): Promise<T>;
}

/**
 * One job kind: its name, the zod schema of its payload and its handler, in one definition.
 * `enqueue` takes the kind itself, so the payload is typed from the schema and checked before
 * it is stored; the worker checks it again when it reads the job back.
 */
export interface JobKind<Payload, Deps = unknown> {
  readonly name: string;
  readonly schema: z.ZodType<Payload>;
  /** How long a claimed job of this kind is leased before another worker may take it over (default 60 s). */
  readonly leaseMs?: number;
  /** Attempts before the job fails for good (default 5); `enqueue` can override it per job. */
  readonly maxAttempts?: number;
  /**
   * The worker slots the kind's jobs share (WorkerOptions.lanes): long work (transcribing a
   * recording) runs in a lane of its own, so it never holds up short jobs (coaching, email).
   * Unset: the worker's default slots.
   */
  readonly lane?: string;
  handle(payload: Payload, run: JobRun<Deps>): Promise<void>;
  /** Called once when the last attempt fails, to record the failure where users see it. */
  onFinalFailure?(payload: Payload, error: Error, deps: Deps): Promise<void>;
}

/** Declares a job kind; the payload type comes from `schema`, the dependencies from `handle`. */
export function defineJob<Payload, Deps = unknown>(kind: JobKind<Payload, Deps>): JobKind<Payload, Deps> {
  return kind;
}

/** A payload that does not match its kind's schema: refused at enqueue, failed when read back. */
export class InvalidJobPayloadError extends Error {
  constructor(kind: string, error: z.ZodError) {
    const issue = error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    super(`Invalid payload for job "${kind}": ${where}${issue?.message ?? 'does not match its schema'}`);
    this.name = 'InvalidJobPayloadError';
  }
}

interface Registered {
  kind: JobKind<any, any>;
  deps: unknown;
}

/** Thrown by a handler for a failure that retrying cannot fix (a corrupt file, say). */
export class PermanentJobError extends Error {}

/**
 * Thrown by a handler whose job may not run yet (its owner's hourly budget is spent, say): the
 * job goes back to the queue until `until`, with no attempt counted and its finished steps kept.
 */
export class DeferJobError extends Error {
  constructor(
    readonly until: Date,
    reason: string,
  ) {
    super(reason);
    this.name = 'DeferJobError';
  }
}

/** Lease of a job whose definition sets no leaseMs. */
export const DEFAULT_LEASE_MS = 60_000;

export function backoffMs(attempt: number): number {
  return Math.min(60_000, 1000 * 2 ** Math.max(0, attempt - 1));
}

/**
 * Enqueues a job of this kind. The payload is checked against the kind's schema first: a bad
 * one throws InvalidJobPayloadError and nothing is stored. With a dedupeKey, at most one job per
 * key exists: enqueueing the same key again is a no-op that returns the existing job's id.
 */
export async function enqueue<Payload>(
  db: Db,
  kind: JobKind<Payload, any>,
  payload: Payload,
  opts: {
    dedupeKey?: string;
    maxAttempts?: number;
    runAt?: Date;
    /** Whose work it is (a pseudonym of the client address): see WorkerOptions.perOwner. */
    ownerKey?: string | null;
  } = {},
): Promise<string> {
  const parsed = kind.schema.safeParse(payload);
  if (!parsed.success) throw new InvalidJobPayloadError(kind.name, parsed.error);
  const rows = await db
    .insert(jobs)
    .values({
      kind: kind.name,
      payload: parsed.data as object,
      dedupeKey: opts.dedupeKey ?? null,
      maxAttempts: opts.maxAttempts ?? kind.maxAttempts ?? 5,
      runAt: opts.runAt ?? new Date(),
      ownerKey: opts.ownerKey ?? null,
    })
    .onConflictDoNothing({ target: jobs.dedupeKey })
    .returning({ id: jobs.id });
  if (rows[0]) return rows[0].id;
  const existing = await db.select({ id: jobs.id }).from(jobs).where(eq(jobs.dedupeKey, opts.dedupeKey!));
  return existing[0].id;
}

/**
 * The insert `enqueue` makes, as SQL for another statement to run (a data-modifying CTE): the
 * job is then stored in the same statement as the write that calls for it, atomically and in one
 * round trip. It is inserted only when `when` (an SQL condition) holds. The payload is checked
 * against the kind's schema first, as `enqueue` does.
 */
export function enqueueSql<Payload>(
  kind: JobKind<Payload, any>,
  payload: Payload,
  opts: { dedupeKey?: string; maxAttempts?: number; ownerKey?: string | null },
  when: SQL,
): SQL {
  const parsed = kind.schema.safeParse(payload);
  if (!parsed.success) throw new InvalidJobPayloadError(kind.name, parsed.error);
  return sql`insert into ${jobs} (kind, payload, dedupe_key, max_attempts, owner_key)
    select ${kind.name}, ${JSON.stringify(parsed.data)}::jsonb, ${opts.dedupeKey ?? null},
      ${opts.maxAttempts ?? kind.maxAttempts ?? 5}, ${opts.ownerKey ?? null}
    where ${when}
    on conflict (dedupe_key) do nothing`;
}

/**
 * Puts a finished or failed job with this key back in the queue (user-requested retry), to run
 * from its first step again.
 */
export async function requeueJob(db: Db, dedupeKey: string): Promise<boolean> {
  const rows = await db
    .update(jobs)
    .set({
      status: 'queued',
      attempts: 0,
      steps: {},
      runAt: new Date(),
      lockedUntil: null,
      lockedBy: null,
      lastError: null,
      finishedAt: null,
    })
    .where(and(eq(jobs.dedupeKey, dedupeKey), sql`${jobs.status} in ('failed','done')`))
    .returning({ id: jobs.id });
  return rows.length > 0;
}

/** The status of the job with this key (queued, running, done, failed), or null when there is none. */
export async function jobStatus(
  db: Db,
  dedupeKey: string,
): Promise<{ status: string; lockedUntil: Date | null } | null> {
  const rows = await db
    .select({ status: jobs.status, lockedUntil: jobs.lockedUntil })
    .from(jobs)
    .where(eq(jobs.dedupeKey, dedupeKey))
    .limit(1);
  return rows[0] ?? null;
}

/** A job a caller took out of the queue to run itself; finish or release it. */
export interface TakenJob {
  id: string;
  /** Marks it done. */
  finish(): Promise<void>;
  /** Puts it back in the queue for a worker (the caller could not finish it). */
  release(error: Error): Promise<void>;
}

/**
 * Takes the queued job with this key for the caller to run now, as a worker would claim it (a
 * request that needs the job's result at once runs it itself instead of waiting for a worker).
 * Null when the job is not waiting: running elsewhere, done, failed, or never queued.
 */
export async function takeQueuedJob(
  db: Db,
  dedupeKey: string,
  opts: { holder: string; leaseMs?: number },
): Promise<TakenJob | null> {
  const leaseMs = opts.leaseMs ?? DEFAULT_LEASE_MS;
  const rows = await db
    .update(jobs)
    .set({
      status: 'running',
      attempts: sql`${jobs.attempts} + 1`,
      lockedBy: opts.holder,
      lockedUntil: new Date(Date.now() + leaseMs),
      startedAt: new Date(),
    })
    .where(and(eq(jobs.dedupeKey, dedupeKey), eq(jobs.status, 'queued')))
    .returning({ id: jobs.id });
  const id = rows[0]?.id;
  if (!id) return null;
  const mine = and(eq(jobs.id, id), eq(jobs.lockedBy, opts.holder));
  return {
    id,
    finish: async () => {
      await db
        .update(jobs)
        .set({ status: 'done', finishedAt: new Date(), lockedUntil: null, lastError: null })
        .where(mine);
    },
    release: async (error) => {
      await db
        .update(jobs)
        .set({ status: 'queued', lockedUntil: null, lockedBy: null, lastError: error.message })
        .where(mine);
    },
  };
}

/** Holds a transaction-long lock for one owner, so counting and queueing its jobs is atomic. */
export async function lockOwner(db: Db, ownerKey: string): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(hashtext(${`owner:${ownerKey}`}))`);
}

/** Jobs of a kind an owner has waiting or running. */
export async function activeJobsOf(db: Db, kind: string, ownerKey: string): Promise<number> {
  const rows = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(jobs)
    .where(
      and(eq(jobs.kind, kind), eq(jobs.ownerKey, ownerKey), sql`${jobs.status} in ('queued','running')`),
    );
  return Number(rows[0]?.n ?? 0);
}

/**
 * What an owner's jobs of a kind cost since `since` (the `cost` each recorded as it started),
 * other than `exceptId`, oldest first: for an hourly budget.
 */
export async function ownerCostsSince(
  db: Db,
  kind: string,
  ownerKey: string,
  since: Date,
  exceptId: string,
): Promise<{ at: Date; cost: number }[]> {
  const rows = await db
    .select({ at: jobs.startedAt, cost: jobs.cost })
    .from(jobs)
    .where(
      and(
        eq(jobs.kind, kind),
        eq(jobs.ownerKey, ownerKey),
        sql`${jobs.cost} is not null`,
        sql`${jobs.startedAt} > ${since.toISOString()}::timestamptz`,
        sql`${jobs.id} <> ${exceptId}`,
      ),
    )
    .orderBy(jobs.startedAt);
  return rows.map((r) => ({ at: r.at!, cost: Number(r.cost) }));
}

/** Clears the owner of jobs that finished before `before` (the key is a client's pseudonym). */
export async function forgetJobOwners(db: Db, before: Date): Promise<void> {
  await db
    .update(jobs)
    .set({ ownerKey: null })
    .where(
      and(
        sql`${jobs.ownerKey} is not null`,
        sql`${jobs.status} in ('done','failed')`,
        sql`${jobs.finishedAt} < ${before.toISOString()}::timestamptz`,
      ),
    );
}

/** Records what a running job costs its owner's budget. */
export async function setJobCost(db: Db, id: string, cost: number): Promise<void> {
  await db
    .update(jobs)
    .set({ cost: Math.round(cost) })
    .where(eq(jobs.id, id));
}

export async function queueDepth(db: Db): Promise<Record<string, number>> {
  // Jobs queued for later (the daily retention run) are 'scheduled', not waiting work; a retry's
  // backoff (at most a minute) still counts as queued.
  const status = sql<string>`case when ${jobs.status} = 'queued' and ${jobs.runAt} > now() + interval '10 minutes' then 'scheduled' else ${jobs.status} end`;
  const rows = await db
    .select({ status, n: sql<number>`count(*)::int` })
    .from(jobs)
    .groupBy(status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

export interface WorkerOptions {
  /** Jobs of kinds without a lane run at once (default 1). */
  concurrency?: number;
  /** Slots of each named lane (JobKind.lane); a lane not listed gets `concurrency`. */
  lanes?: Record<string, number>;
  /**
   * Jobs of one owner (JobRow.ownerKey) running at once, over every worker (default 1): one
   * client's long recordings never take every slot. Owners take turns: the next job claimed is
   * the one whose owner was served longest ago (jobs without an owner first), then the oldest.
   */
  perOwner?: number;
  pollMs?: number;
  /** On PGlite only one process can hold the database, so jobs left running by a crash are reclaimed at once. */
  reclaimOnStart?: boolean;
  log?: { info: (o: object, m?: string) => void; error: (o: object, m?: string) => void };
}

/** Polls the jobs table and runs handlers; safe to run in many processes against PostgreSQL. */
export class JobWorker {
  readonly id = `${os.hostname()}:${process.pid}:${randomUUID().slice(0, 8)}`;
  private readonly defs = new Map<string, Registered>();
  /** Jobs running here, per lane. */
  private readonly running = new Map<string, number>();
  private stopped = true;
  private timer: NodeJS.Timeout | null = null;
  private readonly inFlight = new Map<string, { promise: Promise<void>; abort: AbortController }>();
  private wakeScheduled = false;

  constructor(
    private readonly db: Db,
    private readonly opts: WorkerOptions = {},
  ) {}

  /** Runs jobs of this kind here; its handler is given `deps` (the app context) on every run. */
  register<Payload, Deps>(kind: JobKind<Payload, Deps>, deps: Deps): this {
    this.defs.set(kind.name, { kind, deps });
    return this;
  }

  get kinds(): string[] {
    return [...this.defs.keys()];
  }

  async start(): Promise<void> {
    this.stopped = false;
    if (this.opts.reclaimOnStart) {
      await this.db
        .update(jobs)
        .set({ status: 'queued', lockedUntil: null, lockedBy: null })
        .where(eq(jobs.status, 'running'));
    }
    this.schedule(0);
  }

  /** Asks the worker to look for work now (after an enqueue in the same process). */
  wake(): void {
    if (!this.stopped) this.schedule(0);
  }

  /** Stops claiming; aborts running jobs and returns them to the queue. */
  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    const pending = [...this.inFlight.entries()];
    for (const [, f] of pending) f.abort.abort();
    await Promise.allSettled(pending.map(([, f]) => f.promise));
    if (pending.length) {
      await this.db
        .update(jobs)
        .set({ status: 'queued', lockedUntil: null, lockedBy: null })
        .where(and(eq(jobs.lockedBy, this.id), eq(jobs.status, 'running')))
        .catch(() => undefined);
    }
  }

  private schedule(ms: number) {
    if (this.stopped) return;
    if (ms === 0) {
      if (this.wakeScheduled) return;
      this.wakeScheduled = true;
      setImmediate(() => {
        this.wakeScheduled = false;
        void this.tick();
      });
      return;
    }
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => void this.tick(), ms);
  }

  private laneOf(kind: JobKind<any, any>): string {
    return kind.lane ?? '';
  }

  private slots(lane: string): number {
    return (lane ? this.opts.lanes?.[lane] : undefined) ?? this.opts.concurrency ?? 1;
  }

  /** Registered kinds whose lane has a free slot here. */
  private claimable(): string[] {
    return [...this.defs.values()]
      .filter(({ kind }) => (this.running.get(this.laneOf(kind)) ?? 0) < this.slots(this.laneOf(kind)))
      .map(({ kind }) => kind.name);
  }

  private async tick(): Promise<void> {
    if (this.stopped) return;
    try {
      while (!this.stopped) {
        const kinds = this.claimable();
        if (!kinds.length) break;
        const job = await this.claim(kinds);
        if (!job) break;
        this.run(job);
      }
    } catch (err) {
      this.opts.log?.error({ err }, 'job claim failed');
    }
    this.schedule(this.opts.pollMs ?? 500);
  }

  private async claim(kinds: string[]): Promise<JobRow | null> {
    if (!kinds.length) return null;
    const kindList = sql.join(
      kinds.map((k) => sql`${k}`),
      sql`, `,
    );
    // Each job is leased for its own kind's leaseMs, so a crashed short job comes back soon
    // even when another kind needs a long lease.
    const leaseSecs = sql.join(
      [...this.defs.values()].map(
        ({ kind: d }) => sql`when ${d.name} then ${(d.leaseMs ?? DEFAULT_LEASE_MS) / 1000}::double precision`,
      ),
      sql` `,
    );
    // Fair shares: an owner with `perOwner` jobs running (anywhere) waits; owners take turns,
    // the one served longest ago first (never served, or no owner at all: first), then by age.
    const perOwner = this.opts.perOwner ?? 1;
    const result = await this.db.execute(sql`
      update ${jobs} set status = 'running', attempts = ${jobs.attempts} + 1, locked_by = ${this.id}, started_at = now(),
        locked_until = now() + make_interval(secs => case kind ${leaseSecs} else ${DEFAULT_LEASE_MS / 1000}::double precision end)
      where ${jobs.id} = (
        select j.id from ${jobs} j
        where j.kind in (${kindList})
          and ((j.status = 'queued' and j.run_at <= now()) or (j.status = 'running' and j.locked_until < now()))
          and (j.owner_key is null or (
            select count(*) from ${jobs} r
            where r.owner_key = j.owner_key and r.status = 'running' and r.locked_until >= now() and r.id <> j.id
          ) < ${perOwner})
        order by (select max(r.started_at) from ${jobs} r where r.owner_key = j.owner_key) asc nulls first, j.run_at
        for update of j skip locked
        limit 1
      )
      returning *`);
    const rows = ((result as any).rows ?? result) as any[];
    if (!rows.length) return null;
    const r = rows[0];
    return {
      id: r.id,
      kind: r.kind,
      payload: r.payload,
      status: r.status,
      attempts: r.attempts,
      maxAttempts: r.max_attempts,
      runAt: new Date(r.run_at),
      lockedUntil: r.locked_until ? new Date(r.locked_until) : null,
      lockedBy: r.locked_by,
      lastError: r.last_error,
      dedupeKey: r.dedupe_key,
      createdAt: new Date(r.created_at),
      finishedAt: r.finished_at ? new Date(r.finished_at) : null,
      ownerKey: r.owner_key ?? null,
      startedAt: r.started_at ? new Date(r.started_at) : null,
      cost: r.cost ?? null,
      steps: (r.steps ?? {}) as Record<string, unknown>,
    };
  }

  private run(job: JobRow) {
    const { kind: def, deps } = this.defs.get(job.kind)!;
    const abort = new AbortController();
    const lane = this.laneOf(def);
    this.running.set(lane, (this.running.get(lane) ?? 0) + 1);
    const lease = def.leaseMs ?? DEFAULT_LEASE_MS;
    const heartbeat = async () => {
      await this.db
        .update(jobs)
        .set({ lockedUntil: new Date(Date.now() + lease) })
        .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.id)));
    };
    const done = new Map<string, unknown>(Object.entries(job.steps ?? {}));
    const step = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
      if (done.has(name)) return done.get(name) as T;
      const result = await fn();
      const stored = result === undefined ? null : result;
      await this.db
        .update(jobs)
        .set({
          steps: sql`${jobs.steps} || jsonb_build_object(${name}::text, ${JSON.stringify(stored)}::jsonb)`,
        })
        .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.id)));
      done.set(name, stored);
      return result;
    };
    let payload: unknown;
    const promise = (async () => {
      try {
        // A row written by an older version, or by hand, may not match the schema: it fails for
        // good with a clear error instead of reaching the handler.
        const parsed = def.schema.safeParse(job.payload);
        if (!parsed.success)
          throw new PermanentJobError(new InvalidJobPayloadError(def.name, parsed.error).message);
        payload = parsed.data;
        await def.handle(payload, { job, signal: abort.signal, heartbeat, deps, step });
        await this.db
          .update(jobs)
          .set({ status: 'done', finishedAt: new Date(), lockedUntil: null, lastError: null })
          .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.id)));
      } catch (e) {
        const err = e instanceof Error ? e : new Error(String(e));
        if (abort.signal.aborted) return; // shutting down: stop() returns the job to the queue
        if (err instanceof DeferJobError) {
          // Not a failure: back in the queue until then, the attempt not counted.
          await this.db
            .update(jobs)
            .set({
              status: 'queued',
              attempts: sql`greatest(0, ${jobs.attempts} - 1)`,
              runAt: err.until,
              lockedUntil: null,
              lockedBy: null,
              lastError: err.message,
            })
            .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.id)))
            .catch(() => undefined);
          return;
        }
        const permanent = err instanceof PermanentJobError;
        const final = permanent || job.attempts >= job.maxAttempts;
        this.opts.log?.error(
          { err: err.message, kind: job.kind, attempt: job.attempts, final },
          'job failed',
        );
        await this.db
          .update(jobs)
          .set(
            final
              ? { status: 'failed', finishedAt: new Date(), lastError: err.message, lockedUntil: null }
              : {
                  status: 'queued',
                  lastError: err.message,
                  lockedUntil: null,
                  lockedBy: null,
                  runAt: new Date(Date.now() + backoffMs(job.attempts)),
                },
          )
          .where(and(eq(jobs.id, job.id), eq(jobs.lockedBy, this.id)))
          .catch(() => undefined);
        if (final && def.onFinalFailure && payload !== undefined)
          await def.onFinalFailure(payload, err, deps).catch(() => undefined);
      } finally {
        this.running.set(lane, (this.running.get(lane) ?? 1) - 1);
        this.inFlight.delete(job.id);
        this.schedule(0);
      }
    })();
    this.inFlight.set(job.id, { promise, abort });
  }
}
