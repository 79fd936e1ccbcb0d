import type { Readable } from 'node:stream';

/** Where uploaded recordings live. Keys are random; user file names are never paths. */
export interface FileStore {
  readonly id: string;
  readonly label: string;
  /** Streams into storage; rejects (and removes the partial file) if the stream errors. */
  put(key: string, body: Readable): Promise<{ bytes: number }>;
  get(key: string): Promise<Readable>;
  /** Local path when the store is a folder (for decoders that need a file). */
  localPath?(key: string): string;
  /** Bytes start..end (inclusive) when the store is remote, for the player's range requests. */
  getRange?(key: string, start: number, end: number): Promise<Readable>;
  stat(key: string): Promise<{ bytes: number } | null>;
  remove(key: string): Promise<void>;
}
