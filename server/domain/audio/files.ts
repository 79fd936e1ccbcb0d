import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { AppContext } from '../../context';

export function newStorageKey(): string {
  return `audio-${randomBytes(16).toString('hex')}`;
}

/** Stores an upload stream under a random key; returns the key and size. */
export async function storeUpload(ctx: AppContext, body: Readable): Promise<{ key: string; bytes: number }> {
  const key = newStorageKey();
  const { bytes } = await ctx.providers.get('storage').put(key, body);
  return { key, bytes };
}

export async function discardUpload(ctx: AppContext, key: string): Promise<void> {
  await ctx.providers
    .get('storage')
    .remove(key)
    .catch(() => undefined);
}
