import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';

/**
 * Scratch files live under DATA_DIR/tmp (set at start), never in the system temp folder, so
 * they count against the data volume and what a crash leaves behind is found and removed at the
 * next start. Names carry the owning process id: `<prefix><pid>-<random>`.
 */
let root = path.join(os.tmpdir(), 'doorstep');

export function setTempRoot(dir: string): void {
  root = dir;
}

export function tempRoot(): string {
  return root;
}

/** A fresh private folder for one job's scratch files; the caller removes it. */
export async function makeTempDir(prefix: string): Promise<string> {
  await fsp.mkdir(root, { recursive: true, mode: 0o700 });
  return fsp.mkdtemp(path.join(root, `${prefix}${process.pid}-`));
}

/** The process id a scratch or partial-upload name records, if any. */
export function ownerPid(name: string): number | null {
  const part = /\.(\d+)\.part$/.exec(name);
  if (part) return Number(part[1]);
  const dir = /^doorstep-[a-z]+-(\d+)-/.exec(name);
  return dir ? Number(dir[1]) : null;
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

/**
 * Whether a scratch folder or `.part` upload was left by a process that no longer runs:
 * its owner is gone, or it names this process but predates it (a container restarted with the
 * same pid), or it has no owner (written by an older version).
 */
export function isDebris(name: string, mtimeMs: number): boolean {
  const pid = ownerPid(name);
  if (pid === null) return true;
  if (pid === process.pid) return mtimeMs < startedAt;
  return processGone(pid);
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
