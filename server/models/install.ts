/**
 * Downloads, verifies and installs one catalogue entry into MODELS_DIR.
 *
 * The download goes to MODELS_DIR/.partial/<id>.part (resumed with a Range request when a
 * previous attempt was cut off), is hashed as it arrives, and is unpacked and renamed into the
 * engines' folder only after the SHA-256 matches, so an interrupted or tampered download never
 * leaves a half-model the engines would load. A pinned checksum that does not match deletes the
 * part file.
 */
import { createHash } from 'node:crypto';
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import { installedPath, modelUrl, type ModelEntry } from './catalogue';

const execFileAsync = promisify(execFile);

export class ModelDownloadError extends Error {
  constructor(
    message: string,
    /** Network trouble (host unreachable, timeout): worth another try later. */
    readonly transient = false,
    /** Another process is installing it: not a network problem. */
    readonly busy = false,
  ) {
    super(message);
  }
}

export type InstallStep = 'downloading' | 'verifying' | 'unpacking';

export interface InstallOptions {
  /** MODELS_BASE_URL: fetch the release asset's file name from this base instead. */
  baseUrl?: string;
  log?: (line: string) => void;
  onStep?: (step: InstallStep) => void;
  onProgress?: (bytesDone: number, bytesTotal: number | null) => void;
  /** Give up when the host has not answered (connected and sent headers) within this time. */
  connectTimeoutMs?: number;
  /** Give up when no bytes arrive for this long mid-download. */
  stallTimeoutMs?: number;
  signal?: AbortSignal;
  /** The pinned size: a host offering another size is refused before any byte is fetched. */
  expectedBytes?: number;
  /** Free bytes on the models disk (tests); default from statfs. */
  freeBytes?: (dir: string) => number | null;
  /**
   * The checksum and size an operator gives for a catalogue entry that has none pinned
   * (`npm run models -- <id> --sha256=<hex> --bytes=<n>`): without one such an entry is refused.
   */
  pin?: { sha256: string; sizeBytes: number };
}

/** At most this many redirects are followed to reach a model file. */
const MAX_REDIRECTS = 5;

/**
 * Whether a download may follow a redirect to `target`: only to https (or within the origin
 * the operator configured, such as an http mirror in MODELS_BASE_URL), so a hop cannot move
 * the fetch to plain http where anyone on the path could swap the file.
 */
export function redirectAllowed(from: string, target: string): boolean {
  try {
    const to = new URL(target);
    return to.protocol === 'https:' || to.origin === new URL(from).origin;
  } catch {
    return false;
  }
}

export const MARKER = '.doorstep-model.json';
const PARTIAL = '.partial';

export function isInstalled(modelsDir: string, entry: ModelEntry): boolean {
  return fs.existsSync(installedPath(modelsDir, entry));
}

export function partFile(modelsDir: string, entry: ModelEntry): string {
  return path.join(modelsDir, PARTIAL, `${entry.id}.part`);
}

function diskFree(dir: string): number | null {
  try {
    const s = fs.statfsSync(dir);
    return Number(s.bavail) * Number(s.bsize);
  } catch {
    return null;
  }
}

/** Bytes the install needs free: the download, plus the unpacked files for an archive. */
export function bytesNeeded(entry: ModelEntry, alreadyDownloaded = 0): number {
  const size = entry.sizeBytes ?? entry.approxMb * 1024 * 1024;
  // bzip2'd ONNX weights unpack to about 1.2x; keep margin for the engines' own files.
  return size - alreadyDownloaded + (entry.kind === 'tar.bz2' ? Math.ceil(size * 1.5) : 0);
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** One process at a time downloads an entry into a models folder (web and worker may share it). */
async function takeLock(file: string): Promise<() => Promise<void>> {
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await fsp.writeFile(file, String(process.pid), { flag: 'wx' });
      return () => fsp.rm(file, { force: true });
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(await fsp.readFile(file, 'utf8').catch(() => ''));
      if (pid && pid !== process.pid && isAlive(pid)) {
        throw new ModelDownloadError(`another process (pid ${pid}) is downloading it`, true, true);
      }
      await fsp.rm(file, { force: true });
    }
  }
  throw new ModelDownloadError('could not take the download lock', true);
}

async function hashExisting(file: string, hash: ReturnType<typeof createHash>): Promise<number> {
  let bytes = 0;
  for await (const chunk of fs.createReadStream(file)) {
    hash.update(chunk as Buffer);
    bytes += (chunk as Buffer).length;
  }
  return bytes;
}

/**
 * Streams the URL into `part`, resuming from its current length when the server honours Range.
 * Returns the SHA-256 of the whole file.
 */
async function download(url: string, part: string, opts: InstallOptions): Promise<string> {
  const connectTimeoutMs = opts.connectTimeoutMs ?? 5000;
  const stallTimeoutMs = opts.stallTimeoutMs ?? 60_000;
  const have = fs.existsSync(part) ? fs.statSync(part).size : 0;
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  opts.signal?.addEventListener('abort', onAbort, { once: true });
  let timedOut = '';
  let timer = setTimeout(() => {
    timedOut = `no answer within ${connectTimeoutMs / 1000} s`;
    controller.abort();
  }, connectTimeoutMs);
  const host = (() => {
    try {
      return new URL(url).host;
    } catch {
      return url;
    }
  })();
  try {
    let res: Response;
    let at = url;
    for (let hop = 0; ; hop++) {
      try {
        res = await fetch(at, {
          redirect: 'manual',
          signal: controller.signal,
          headers: have > 0 ? { range: `bytes=${have}-` } : {},
        });
      } catch (err) {
        const why =
          timedOut || (err instanceof Error ? ((err.cause as Error)?.message ?? err.message) : String(err));
        throw new ModelDownloadError(`could not reach ${host}: ${why}`, true);
      }
      if (res.status < 300 || res.status >= 400 || res.status === 304) break;
      await res.body?.cancel().catch(() => undefined);
      const location = res.headers.get('location');
      const next = location ? new URL(location, at).toString() : null;
      if (!next) throw new ModelDownloadError(`${host} answered ${res.status} without a location for ${url}`);
      if (!redirectAllowed(url, next)) {
        throw new ModelDownloadError(
          `${host} redirected ${url} to ${next}, which is not https; nothing was downloaded`,
        );
      }
      if (hop >= MAX_REDIRECTS) throw new ModelDownloadError(`too many redirects for ${url}`);
      at = next;
    }
    clearTimeout(timer);
    if (res.status === 416 && have > 0) {
      // The part file is not a prefix the server recognises: start over.
      await res.body?.cancel();
      await fsp.rm(part, { force: true });
      return download(url, part, opts);
    }
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => undefined);
      throw new ModelDownloadError(`${host} answered ${res.status} for ${url}`, res.status >= 500);
    }
    const resumed = res.status === 206 && have > 0;
    const hash = createHash('sha256');
    let bytes = resumed ? await hashExisting(part, hash) : 0;
    if (resumed) opts.log?.(`resuming at ${bytes} bytes`);
    const length = Number(res.headers.get('content-length'));
    const total = length > 0 ? length + bytes : null;
    if (total !== null && opts.expectedBytes && total !== opts.expectedBytes) {
      // Not the pinned file (moved, replaced, or a mirror's error page): fetch none of it.
      await res.body.cancel().catch(() => undefined);
      if (resumed) await fsp.rm(part, { force: true });
      throw new ModelDownloadError(
        `${host} offers ${total} bytes for ${url}, not the pinned ${opts.expectedBytes}; nothing was downloaded`,
      );
    }
    opts.onProgress?.(bytes, total);
    const restartStall = () => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        timedOut = `no data for ${stallTimeoutMs / 1000} s`;
        controller.abort();
      }, stallTimeoutMs);
    };
    restartStall();
    let oversize = false;
    const limit = opts.expectedBytes;
    const tap = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        // More than the pinned size (a reply without a length, or a lying one): stop now.
        if (limit && bytes + chunk.length > limit) {
          oversize = true;
          return cb(new Error(`more than the pinned ${limit} bytes`));
        }
        hash.update(chunk);
        bytes += chunk.length;
        restartStall();
        opts.onProgress?.(bytes, total);
        cb(null, chunk);
      },
    });
    try {
      await pipeline(
        Readable.fromWeb(res.body as import('node:stream/web').ReadableStream),
        tap,
        fs.createWriteStream(part, { flags: resumed ? 'a' : 'w' }),
      );
    } catch (err) {
      if (oversize) {
        await fsp.rm(part, { force: true });
        throw new ModelDownloadError(
          `${host} sent more than the pinned ${limit} bytes for ${url}; the download was deleted and nothing was installed`,
        );
      }
      // What arrived stays in the part file for the next attempt to resume.
      const why = timedOut || (err instanceof Error ? err.message : String(err));
      throw new ModelDownloadError(`download from ${host} was cut off at ${bytes} bytes: ${why}`, true);
    }
    if (total !== null && bytes !== total) {
      throw new ModelDownloadError(`download from ${host} ended early (${bytes} of ${total} bytes)`, true);
    }
    return hash.digest('hex');
  } finally {
    clearTimeout(timer);
    opts.signal?.removeEventListener('abort', onAbort);
  }
}

/** The sha256 and size an entry is checked against: pinned in the catalogue, or given by the operator. */
function pinOf(entry: ModelEntry, given?: InstallOptions['pin']): { sha256: string; sizeBytes: number } {
  if (entry.sha256 && entry.sizeBytes)
    return { sha256: entry.sha256.toLowerCase(), sizeBytes: entry.sizeBytes };
  if (
    given &&
    /^[0-9a-fA-F]{64}$/.test(given.sha256) &&
    Number.isInteger(given.sizeBytes) &&
    given.sizeBytes > 0
  )
    return { sha256: given.sha256.toLowerCase(), sizeBytes: given.sizeBytes };
  throw new ModelDownloadError(
    `${entry.id} has no pinned checksum and size, so it is not downloaded; pin it yourself with ` +
      `npm run models -- ${entry.id} --sha256=<hex> --bytes=<size> (from a copy you trust)`,
  );
}

/**
 * The first symbolic link, hard-linked file or other special file under `dir` (relative path),
 * or null when it holds only folders and plain files.
 */
async function findLink(dir: string, rel = ''): Promise<string | null> {
  for (const e of await fsp.readdir(path.join(dir, rel), { withFileTypes: true })) {
    const name = path.join(rel, e.name);
    const st = await fsp.lstat(path.join(dir, name));
    if (st.isSymbolicLink()) return `${name} is a symbolic link`;
    if (st.isDirectory()) {
      const inner = await findLink(dir, name);
      if (inner) return inner;
    } else if (!st.isFile()) return `${name} is not a plain file`;
    else if (st.nlink > 1) return `${name} is a hard link`;
  }
  return null;
}

let unpackable: Promise<boolean> | null = null;

/** Whether tar can unpack .tar.bz2 here (bzip2 on PATH); checked once per process. */
function canUnpack(): Promise<boolean> {
  unpackable ??= Promise.all([execFileAsync('tar', ['--version']), execFileAsync('bzip2', ['--help'])]).then(
    () => true,
    () => false,
  );
  return unpackable;
}

/**
 * Downloads, verifies and installs one entry; a no-op when it is already installed.
 * Throws ModelDownloadError (with `transient` for network trouble worth retrying).
 */
export async function installModel(
  modelsDir: string,
  entry: ModelEntry,
  opts: InstallOptions = {},
): Promise<{ status: 'installed' | 'present'; sha256?: string; path: string }> {
  const finalPath = installedPath(modelsDir, entry);
  if (fs.existsSync(finalPath)) return { status: 'present', path: finalPath };
  const pinned = pinOf(entry, opts.pin);
  const partialDir = path.join(modelsDir, PARTIAL);
  await fsp.mkdir(partialDir, { recursive: true });
  const release = await takeLock(path.join(partialDir, `${entry.id}.lock`));
  const part = partFile(modelsDir, entry);
  const unpacked = path.join(partialDir, `${entry.id}.unpack-${process.pid}`);
  try {
    if (entry.kind === 'tar.bz2' && !(await canUnpack())) {
      // Said before the download, not after 200 MB of it.
      throw new ModelDownloadError(
        `unpacking ${entry.id} needs tar and bzip2, which are not installed (npm run setup, or apt-get install bzip2)`,
      );
    }
    const have = fs.existsSync(part) ? fs.statSync(part).size : 0;
    const free = (opts.freeBytes ?? diskFree)(modelsDir);
    const needed = bytesNeeded(entry, have);
    if (free !== null && free < needed) {
      throw new ModelDownloadError(
        `not enough disk space in ${modelsDir}: ${Math.ceil(needed / 1048576)} MB needed, ${Math.floor(free / 1048576)} MB free`,
      );
    }
    opts.onStep?.('downloading');
    const sha256 = await download(modelUrl(entry, opts.baseUrl), part, {
      ...opts,
      expectedBytes: pinned.sizeBytes,
    });
    opts.onStep?.('verifying');
    const size = fs.statSync(part).size;
    if (sha256 !== pinned.sha256) {
      await fsp.rm(part, { force: true });
      throw new ModelDownloadError(
        `checksum mismatch for ${entry.id}: expected ${pinned.sha256}, got ${sha256}; the download was deleted and nothing was installed`,
      );
    }
    if (size !== pinned.sizeBytes) {
      await fsp.rm(part, { force: true });
      throw new ModelDownloadError(
        `size mismatch for ${entry.id}: expected ${pinned.sizeBytes} bytes, got ${size}; nothing was installed`,
      );
    }
    await fsp.mkdir(path.dirname(finalPath), { recursive: true });
    if (entry.kind === 'file') {
      await fsp.rename(part, finalPath);
    } else {
      opts.onStep?.('unpacking');
      await fsp.rm(unpacked, { recursive: true, force: true });
      await fsp.mkdir(unpacked);
      try {
        // Asynchronous: unpacking a large archive must not hold up the server's requests.
        await execFileAsync('tar', ['-xjf', part, '-C', unpacked, '--no-same-owner'], {
          maxBuffer: 1024 * 1024,
        });
      } catch (err) {
        const msg = String((err as { stderr?: string }).stderr ?? '').trim();
        await fsp.rm(part, { force: true });
        throw new ModelDownloadError(
          `could not unpack ${entry.id} (needs tar and bzip2): ${msg || (err instanceof Error ? err.message : String(err))}`,
        );
      }
      // Only folders and plain files: a link could point the install (and the marker written
      // next) anywhere on the disk, outside MODELS_DIR.
      const link = await findLink(unpacked);
      if (link) {
        await fsp.rm(part, { force: true });
        throw new ModelDownloadError(
          `the ${entry.id} archive holds a link (${link}); archives with links are refused and nothing was installed`,
        );
      }
      const made = entry.creates ?? entry.id;
      const produced = path.join(unpacked, made);
      if (!fs.existsSync(produced)) {
        await fsp.rm(part, { force: true });
        throw new ModelDownloadError(`the ${entry.id} archive did not contain the folder ${made}/`);
      }
      await fsp.writeFile(
        path.join(produced, MARKER),
        JSON.stringify(
          { id: entry.id, url: entry.url, sha256, installedAt: new Date().toISOString() },
          null,
          2,
        ),
      );
      // The rename is the moment the engines can see it: all or nothing.
      await fsp.rename(produced, finalPath);
      await fsp.rm(part, { force: true });
    }
    return { status: 'installed', sha256, path: finalPath };
  } finally {
    await fsp.rm(unpacked, { recursive: true, force: true });
    await release();
    await fsp.rmdir(partialDir).catch(() => undefined);
  }
}
