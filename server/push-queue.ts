/**
 * A queue that one side pushes to and the other reads with `for await`: the items in order,
 * then the end, or an error raised after the items before it. The bridge between a producer
 * that calls back (a child process's output, a model's token callback, a source read ahead)
 * and a consumer that iterates.
 */
export class PushQueue<T> implements AsyncIterable<T> {
  private readonly items: T[] = [];
  private ended = false;
  private failed = false;
  private error: unknown;
  private wake: (() => void) | null = null;

  push(item: T): void {
    if (this.ended) return;
    this.items.push(item);
    this.notify();
  }

  /** No more items. */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.notify();
  }

  /** No more items: the reader gets `error` once it has read the items before it. */
  fail(error: unknown): void {
    if (this.ended) return;
    this.failed = true;
    this.error = error;
    this.end();
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return this.read();
  }

  /** Reads to the end; once `signal` aborts it stops quietly, without the items left. */
  async *read(signal?: AbortSignal): AsyncGenerator<T> {
    const onAbort = () => this.notify();
    signal?.addEventListener('abort', onAbort);
    try {
      for (;;) {
        if (signal?.aborted) return;
        if (this.items.length) {
          yield this.items.shift() as T;
          continue;
        }
        if (this.ended) break;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
      if (this.failed) throw this.error;
    } finally {
      signal?.removeEventListener('abort', onAbort);
    }
  }

  private notify(): void {
    const w = this.wake;
    this.wake = null;
    w?.();
  }
}
