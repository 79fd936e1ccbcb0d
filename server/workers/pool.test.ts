import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { threadId } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { HttpError } from '../errors';
import { WorkerPool, workerEntry } from './pool';

const echoWorker = new URL('./test-echo-worker.ts', import.meta.url);
const root = path.resolve(import.meta.dirname, '../..');

describe('worker pool', () => {
  let pool: WorkerPool<{ ms: number; fail?: string }, { threadId: number }> | undefined;
  afterEach(async () => {
    await pool?.close();
    pool = undefined;
  });

  it('runs tasks on other threads (a .ts worker, from a parent without tsx: vitest)', async () => {
    expect(workerEntry(echoWorker).eval).toBe(true);
    pool = new WorkerPool({ file: echoWorker, size: 2, maxQueue: 4, what: 'test' });
    const results = await Promise.all([1, 2, 3].map(() => pool!.run({ ms: 1 })));
    for (const r of results) expect(r.threadId).not.toBe(threadId);
    expect(pool.stats().started).toBeLessThanOrEqual(2);
  });

  it('refuses work beyond its queue bound with a 503 and Retry-After', async () => {
    pool = new WorkerPool({ file: echoWorker, size: 1, maxQueue: 1, what: 'test' });
    const running = pool.run({ ms: 300 });
    const queued = pool.run({ ms: 1 });
    const refused = await pool.run({ ms: 1 }).catch((err: unknown) => err);
    expect(refused).toBeInstanceOf(HttpError);
    expect((refused as HttpError).statusCode).toBe(503);
    expect(Number((refused as HttpError).headers['retry-after'])).toBeGreaterThan(0);
    await expect(running).resolves.toHaveProperty('threadId');
    await expect(queued).resolves.toHaveProperty('threadId');
    expect(pool.stats()).toMatchObject({ running: 0, queued: 0 });
  });

  it('passes a task error back and keeps serving', async () => {
    pool = new WorkerPool({ file: echoWorker, size: 1, maxQueue: 1, what: 'test' });
    await expect(pool.run({ ms: 1, fail: 'no good' })).rejects.toThrow('no good');
    await expect(pool.run({ ms: 1 })).resolves.toHaveProperty('threadId');
  });

  it('drops a queued task whose caller gave up', async () => {
    pool = new WorkerPool({ file: echoWorker, size: 1, maxQueue: 2, what: 'test' });
    const running = pool.run({ ms: 200 });
    const abort = new AbortController();
    const queued = pool.run({ ms: 1 }, { signal: abort.signal });
    abort.abort(new Error('gave up'));
    await expect(queued).rejects.toThrow('gave up');
    expect(pool.stats().queued).toBe(0);
    await running;
  });

  it('loads the same .ts worker when the parent itself runs under tsx (npm start)', () => {
    const script = [
      "import { WorkerPool } from './server/workers/pool.ts';",
      `const file = new URL('./server/workers/test-echo-worker.ts', 'file://${root}/');`,
      "const pool = new WorkerPool({ file, size: 1, maxQueue: 1, what: 'test' });",
      'pool.run({ ms: 1 }).then(async (r) => {',
      '  console.log(JSON.stringify({ ok: r.threadId > 0 }));',
      '  await pool.close();',
      '});',
    ].join('\n');
    const out = execFileSync(path.join(root, 'node_modules/.bin/tsx'), ['--eval', script], {
      cwd: root,
      encoding: 'utf8',
      timeout: 120_000,
    });
    expect(out.trim().split('\n').pop()).toBe('{"ok":true}');
  });
});
