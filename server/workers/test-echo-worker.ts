import { threadId } from 'node:worker_threads';
import { runWorker } from './worker-main';

/** A pool worker for the pool's own tests: waits `ms`, then answers with its thread id. */
runWorker<{ ms: number; fail?: string }, { threadId: number }>(async ({ ms, fail }, signal) => {
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(new Error('aborted'));
    });
  });
  if (fail) throw new Error(fail);
  return { threadId };
});
