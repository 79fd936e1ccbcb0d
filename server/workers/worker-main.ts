import { parentPort } from 'node:worker_threads';
import type { WorkerError } from './pool';

/**
 * The message loop of a pool worker: runs `handle` for each task and answers with its value or
 * its error (name, message, and the HTTP status when it has one).
 */
export function runWorker<T, R>(handle: (payload: T, signal: AbortSignal) => Promise<R>): void {
  const port = parentPort;
  if (!port) throw new Error('runWorker must run in a worker thread');
  const running = new Map<number, AbortController>();
  port.on('message', (msg: { id: number; payload: T } | { abort: number }) => {
    if ('abort' in msg) {
      running.get(msg.abort)?.abort();
      return;
    }
    const abort = new AbortController();
    running.set(msg.id, abort);
    handle(msg.payload, abort.signal)
      .then(
        (value) => port.postMessage({ id: msg.id, ok: true, value }),
        (err: unknown) => port.postMessage({ id: msg.id, ok: false, error: describe(err) }),
      )
      .finally(() => running.delete(msg.id));
  });
}

function describe(err: unknown): WorkerError {
  if (!(err instanceof Error)) return { name: 'Error', message: String(err) };
  const e = err as Error & { statusCode?: unknown; code?: unknown };
  return {
    name: e.name,
    message: e.message,
    ...(typeof e.statusCode === 'number' ? { statusCode: e.statusCode } : {}),
    ...(typeof e.code === 'string' ? { code: e.code } : {}),
  };
}
