import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Scratch files live under DATA_DIR/tmp (set at start), never in the system temp folder, so
 * they count against the data volume and what a crash leaves behind is found and removed at the
 * next start. Names carry the owning process: `<prefix><pid>@<host>-<random>`.
 */
let root = path.join(os.tmpdir(), 'doorstep');

export function setTempRoot(dir: string): void {
  root = dir;
}

export function tempRoot(): string {
  return root;
}

/**
 * Who owns a scratch name: `<pid>_<host>` (letters, digits, `_` and `-` only, like every stored name). Several hosts (containers sharing a volume) may
 * share DATA_DIR, and a pid only means something on its own host.
 */
const HOST =
  os
    .hostname()
    .replace(/[^A-Za-z0-9-]/g, '-')
    .slice(0, 63) || 'host';

export function ownerTag(pid = process.pid): string {
  return `${pid}_${HOST}`;
}

/** A fresh private folder for one job's scratch files; the caller removes it. */
export async function makeTempDir(prefix: string): Promise<string> {
  await fsp.mkdir(root, { recursive: true, mode: 0o700 });
  return fsp.mkdtemp(path.join(root, `${prefix}${ownerTag()}-`));
}

/** The owner a scratch or partial-upload name records, if any. */
export function ownerOf(name: string): { pid: number; host: string } | null {
  const m =
    /\.(\d+)_([A-Za-z0-9-]+)\.part$/.exec(name) ?? /^doorstep-[a-z]+-(\d+)_([A-Za-z0-9-]+)-/.exec(name);
  return m ? { pid: Number(m[1]), host: m[2] } : null;
}

/** True when no process with this id runs (EPERM means one does, owned by someone else). */
export function processGone(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return false;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/** Names written before this process started cannot belong to it, even when its pid was reused. */
const startedAt = Date.now() - process.uptime() * 1000;

/** Another host's files are judged by age: uploads and scratch folders are written to as they grow. */
export const OTHER_HOST_STALE_MS = 3600_000;

/**
 * Whether a scratch folder or `.part` upload was left by a process that no longer runs: its
 * owner on this host is gone, or it names this process but predates it (a container restarted
 * with the same pid), or another host has not touched it for an hour, or it has no owner (an
 * older version's name).
 */
export function isDebris(name: string, mtimeMs: number, now = Date.now()): boolean {
  const owner = ownerOf(name);
  if (!owner) return true;
  if (owner.host !== HOST) return mtimeMs < now - OTHER_HOST_STALE_MS;
  if (owner.pid === process.pid) return mtimeMs < startedAt;
  return processGone(owner.pid);
}

/**
 * Removes what crashed processes left: `.part` uploads in the uploads folder and scratch
 * folders in DATA_DIR/tmp. Returns what was removed (count and bytes) for the start log.
 */
export async function cleanDebris(opts: { uploadsDir?: string; tempDir: string }): Promise<{
  files: number;
  bytes: number;
}> {
  let files = 0;
  let bytes = 0;
  const sweep = async (dir: string, match: (name: string) => boolean) => {
    let names: string[];
    try {
      names = await fsp.readdir(dir);
    } catch {
      return;
    }
    for (const name of names) {
      if (!match(name)) continue;
      const full = path.join(dir, name);
      try {
        const st = await fsp.lstat(full);
        if (!isDebris(name, st.mtimeMs)) continue;
        bytes += st.isDirectory() ? dirBytes(full) : st.size;
        await fsp.rm(full, { recursive: true, force: true });
        files++;
      } catch {
        // Removed meanwhile by its owner.
      }
    }
  };
  if (opts.uploadsDir) await sweep(opts.uploadsDir, (n) => n.endsWith('.part'));
  await sweep(opts.tempDir, (n) => n.startsWith('doorstep-'));
  return { files, bytes };
}

function dirBytes(dir: string): number {
  let total = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    total += entry.isDirectory() ? dirBytes(full) : fs.lstatSync(full).size;
  }
  return total;
}
