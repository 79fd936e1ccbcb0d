import { describe, expect, it } from 'vitest';
import { PushQueue } from './push-queue';

async function readAll<T>(it: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const x of it) out.push(x);
  return out;
}

describe('PushQueue', () => {
  it('gives the items pushed before and while the reader waits, in order, then ends', async () => {
    const q = new PushQueue<number>();
    q.push(1);
    const read = readAll(q);
    await Promise.resolve();
    q.push(2);
    setTimeout(() => {
      q.push(3);
      q.end();
      q.push(4);
    }, 5);
    expect(await read).toEqual([1, 2, 3]);
  });

  it('raises an error after the items before it', async () => {
    const q = new PushQueue<string>();
    const seen: string[] = [];
    q.push('a');
    q.fail(new Error('broke'));
    q.push('b');
    await expect(
      (async () => {
        for await (const x of q) seen.push(x);
      })(),
    ).rejects.toThrow('broke');
    expect(seen).toEqual(['a']);
  });

  it('stops quietly when the signal aborts, even while waiting for an item', async () => {
    const q = new PushQueue<number>();
    const controller = new AbortController();
    q.push(1);
    const seen: number[] = [];
    const read = (async () => {
      for await (const x of q.read(controller.signal)) seen.push(x);
    })();
    await new Promise((r) => setTimeout(r, 5));
    controller.abort();
    await read;
    q.push(2);
    expect(seen).toEqual([1]);
  });
});
