/**
 * Starts reading `source` now and buffers what it yields until the returned iterable is read,
 * so a producer (a speech synthesiser) works ahead of its consumer (playback). The source must
 * stop on its own when it is no longer wanted (an abort signal); an error it throws is raised
 * to the reader after the items before it.
 */
export function readAhead<T>(source: AsyncIterable<T>): AsyncIterable<T> {
  const items: T[] = [];
  let done = false;
  let failed = false;
  let error: unknown;
  let wake: (() => void) | null = null;
  const notify = () => {
    const w = wake;
    wake = null;
    w?.();
  };
  void (async () => {
    try {
      for await (const item of source) {
        items.push(item);
        notify();
      }
    } catch (err) {
      failed = true;
      error = err;
    } finally {
      done = true;
      notify();
    }
  })();
  return {
    async *[Symbol.asyncIterator]() {
      for (;;) {
        if (items.length) {
          yield items.shift() as T;
          continue;
        }
        if (done) break;
        await new Promise<void>((resolve) => (wake = resolve));
      }
      if (failed) throw error;
    },
  };
}
