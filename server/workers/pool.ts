import { createRequire } from 'node:module';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { HttpError } from '../errors';

/**
 * A fixed set of worker threads with a bounded queue, for CPU-heavy work that must not run on
 * the event loop that serves every request and live call (coaching a long transcript, say).
 *
 * Worker files are TypeScript, loaded through tsx in each worker (workerEntry).
 */

/** Messages a worker answers with (see runWorker in worker-main.ts). */
export type WorkerReply<R> =
  { id: number; ok: true; value: R } | { id: number; ok: false; error: WorkerError };

export interface WorkerError {
  name: string;
  message: string;
  statusCode?: number;
  code?: string;
}

interface Task<T, R> {
  id: number;
  payload: T;
  resolve(value: R): void;
  reject(err: Error): void;
  signal?: AbortSignal;
  onAbort?: () => void;
}

interface Slot {
  worker: Worker;
  task: Task<unknown, unknown> | null;
  startedAt: number;
}

export interface WorkerPoolOptions {
  /** The worker's module (a .ts or .js file URL). */
  file: URL;
  /** Passed to every worker as workerData (structured-cloned). */
  workerData?: unknown;
  /** Worker threads (at least 1). */
  size: number;
  /** Tasks that may wait for a free worker; one more is refused with a 503 and Retry-After. */
  maxQueue: number;
  /** What the refusal calls the work, e.g. "coaching". */
  what: string;
}

/**
 * How to start a worker for `file`: a .js file directly; a .ts file through a bootstrap that
 * registers tsx's loader in the worker and then imports it. Workers do not inherit the
 * parent's loader on Node 20, so this holds under `tsx` (npm start, dev, scripts) and under
 * vitest alike.
 */
export function workerEntry(file: URL): { target: URL | string; eval: boolean } {
  if (!/\.[cm]?ts$/.test(file.pathname)) return { target: file, eval: false };
  const tsxDir = path.dirname(createRequire(import.meta.url).resolve('tsx/package.json'));
  // tsx's ESM API ("tsx/esm/api", import condition).
  const api = pathToFileURL(path.join(tsxDir, 'dist/esm/api/index.mjs')).href;
  const code =
    `import(${JSON.stringify(api)})` +
    `.then((tsx) => { tsx.register(); return import(${JSON.stringify(file.href)}); })`;
  return { target: code, eval: true };
}

export class WorkerPool<T, R> {
  private readonly slots: Slot[] = [];
  private readonly queue: Task<T, R>[] = [];
  private nextId = 1;
  private closed = false;
  /** Recent task duration (ms), for Retry-After. */
  private averageMs = 1000;

  constructor(private readonly opts: WorkerPoolOptions) {}

  get size(): number {
    return Math.max(1, this.opts.size);
  }

  /** Tasks running and waiting, for /api/status. */
  stats(): { size: number; started: number; running: number; queued: number; maxQueue: number } {
    return {
      size: this.size,
      started: this.slots.length,
      running: this.slots.filter((s) => s.task).length,
      queued: this.queue.length,
      maxQueue: this.opts.maxQueue,
    };
  }

  /** Runs one task on a worker; a 503 with Retry-After when every worker is busy and the queue is full. */
  run(payload: T, opts: { signal?: AbortSignal } = {}): Promise<R> {
    if (this.closed) return Promise.reject(new HttpError(503, 'unavailable', 'The server is shutting down.'));
    opts.signal?.throwIfAborted();
    const free = this.freeSlot();
    if (!free && this.queue.length >= this.opts.maxQueue) {
      const seconds = Math.max(1, Math.ceil(((this.queue.length / this.size + 1) * this.averageMs) / 1000));
      return Promise.reject(
        new HttpError(
          503,
          'busy',
          `The server is busy with other ${this.opts.what} requests. Please try again in ${seconds} seconds.`,
          { 'retry-after': String(seconds) },
        ),
      );
    }
    return new Promise<R>((resolve, reject) => {
      const task: Task<T, R> = { id: this.nextId++, payload, resolve, reject, signal: opts.signal };
      if (opts.signal) {
        task.onAbort = () => {
          const queued = this.queue.indexOf(task);
          if (queued >= 0) this.queue.splice(queued, 1);
          const slot = this.slots.find((s) => s.task === task);
          slot?.worker.postMessage({ abort: task.id });
          reject(opts.signal!.reason instanceof Error ? opts.signal!.reason : new Error('Aborted'));
        };
        opts.signal.addEventListener('abort', task.onAbort, { once: true });
      }
      if (free) this.start(free, task);
      else this.queue.push(task);
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const task of this.queue.splice(0)) {
      task.reject(new HttpError(503, 'unavailable', 'The server is shutting down.'));
    }
    await Promise.all(this.slots.splice(0).map((s) => s.worker.terminate()));
  }

  private freeSlot(): Slot | null {
    const idle = this.slots.find((s) => !s.task);
    if (idle) return idle;
    if (this.slots.length < this.size) return this.spawn();
    return null;
  }

  private spawn(): Slot {
    const entry = workerEntry(this.opts.file);
    const worker = new Worker(entry.target, { workerData: this.opts.workerData, eval: entry.eval });
    worker.unref();
    const slot: Slot = { worker, task: null, startedAt: 0 };
    worker.on('message', (reply: WorkerReply<R>) => {
      const task = slot.task as Task<T, R> | null;
      if (!task || reply.id !== task.id) return;
      this.finish(slot);
      if (reply.ok) task.resolve(reply.value);
      else task.reject(toError(reply.error));
    });
    const fail = (err: Error) => {
      // A crashed worker takes only its own task down; the next task starts a fresh worker.
      const task = slot.task;
      const i = this.slots.indexOf(slot);
      if (i >= 0) this.slots.splice(i, 1);
      slot.task = null;
      if (task) {
        this.detach(task);
        task.reject(err);
      }
      this.drain();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => {
      if (!this.closed) fail(new Error(`A ${this.opts.what} worker stopped (exit code ${code}).`));
    });
    this.slots.push(slot);
    return slot;
  }

  private start(slot: Slot, task: Task<T, R>) {
    slot.task = task as Task<unknown, unknown>;
    slot.startedAt = performance.now();
    slot.worker.postMessage({ id: task.id, payload: task.payload });
  }

  private finish(slot: Slot) {
    const task = slot.task;
    if (task) this.detach(task);
    this.averageMs = this.averageMs * 0.8 + (performance.now() - slot.startedAt) * 0.2;
    slot.task = null;
    this.drain();
  }

  private detach(task: Task<unknown, unknown> | Task<T, R>) {
    if (task.signal && task.onAbort) task.signal.removeEventListener('abort', task.onAbort);
  }

  private drain() {
    while (this.queue.length && !this.closed) {
      const slot = this.freeSlot();
      if (!slot) return;
      this.start(slot, this.queue.shift()!);
    }
  }
}

function toError(e: WorkerError): Error {
  if (typeof e.statusCode === 'number') return new HttpError(e.statusCode, e.code ?? 'error', e.message);
  const err = new Error(e.message);
  err.name = e.name;
  return err;
}
