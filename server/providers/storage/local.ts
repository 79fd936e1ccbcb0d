import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Readable } from 'node:stream';
import type { FileStore } from './types';
import { ownerTag } from '../../temp';

const KEY_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9_-]{7,127}$/;

/** Files in a private folder under DATA_DIR (never served directly). */
export class LocalFileStore implements FileStore {
  readonly id = 'local';
  readonly label: string;

  constructor(private readonly root: string) {
    fs.mkdirSync(root, { recursive: true });
    this.label = `Local folder ${root}`;
  }

  localPath(key: string): string {
    if (!KEY_PATTERN.test(key)) throw new Error('Invalid storage key');
    return path.join(this.root, key);
  }

  async put(key: string, body: Readable): Promise<{ bytes: number }> {
    const target = this.localPath(key);
    // The writer (pid_host) marks whose partial file this is, so a crash's leftovers are found at start.
    const tmp = `${target}.${ownerTag()}.part`;
    let bytes = 0;
    body.on('data', (chunk: Buffer) => {
      bytes += chunk.length;
    });
    try {
      await pipeline(body, fs.createWriteStream(tmp, { flags: 'wx' }));
      await fsp.rename(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    return { bytes };
  }

  async get(key: string): Promise<Readable> {
    return fs.createReadStream(this.localPath(key));
  }

  async stat(key: string): Promise<{ bytes: number } | null> {
    try {
      const s = await fsp.stat(this.localPath(key));
      return { bytes: s.size };
    } catch {
      return null;
    }
  }

  async remove(key: string): Promise<void> {
    await fsp.rm(this.localPath(key), { force: true });
  }
}
