import { PushQueue } from '../push-queue';

/**
 * Starts reading `source` now and buffers what it yields until the returned iterable is read,
 * so a producer (a speech synthesiser) works ahead of its consumer (playback). The source must
 * stop on its own when it is no longer wanted (an abort signal); an error it throws is raised
 * to the reader after the items before it.
 */
export function readAhead<T>(source: AsyncIterable<T>): AsyncIterable<T> {
  const queue = new PushQueue<T>();
  void (async () => {
    try {
      for await (const item of source) queue.push(item);
      queue.end();
    } catch (err) {
      queue.fail(err);
    }
  })();
  return queue;
}
