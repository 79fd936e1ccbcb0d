import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawn, spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { cleanDebris, isDebris, makeTempDir, ownerOf, ownerTag, setTempRoot, tempRoot } from './temp';

const dirs: string[] = [];
const children: { kill(): void }[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  for (const c of children.splice(0)) c.kill();
});

function scratch(): string {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-debris-test-'));
  dirs.push(d);
  return d;
}

/** The pid of a process that has already exited. */
function deadPid(): number {
  return spawnSync('true').pid!;
}

describe('scratch files and partial uploads', () => {
  it('makes scratch folders under the configured root, named with this process id', async () => {
    const previous = tempRoot();
    const root = path.join(scratch(), 'tmp');
    setTempRoot(root);
    try {
      const dir = await makeTempDir('doorstep-ps-');
      expect(path.dirname(dir)).toBe(root);
      expect(ownerOf(path.basename(dir))?.pid).toBe(process.pid);
      expect(isDebris(path.basename(dir), Date.now())).toBe(false);
    } finally {
      setTempRoot(previous);
    }
  });

  it("removes a stopped process's partial uploads and scratch folders, keeping a live writer's", async () => {
    const data = scratch();
    const uploads = path.join(data, 'uploads');
    const tmp = path.join(data, 'tmp');
    fs.mkdirSync(uploads);
    fs.mkdirSync(tmp);
    const dead = deadPid();
    const live = spawn('sleep', ['30'], { stdio: 'ignore' });
    children.push(live);
    const write = (file: string, bytes: number) => fs.writeFileSync(file, Buffer.alloc(bytes));
    write(path.join(uploads, `abcdefgh1234.${ownerTag(dead)}.part`), 1000);
    write(path.join(uploads, 'abcdefgh5678.part'), 500); // an older version's name, no owner
    write(path.join(uploads, `abcdefgh9999.${ownerTag(live.pid)}.part`), 10); // still being written
    write(path.join(uploads, 'abcdefgh0000'), 10); // a stored recording
    fs.mkdirSync(path.join(tmp, `doorstep-ps-${ownerTag(dead)}-x1`));
    write(path.join(tmp, `doorstep-ps-${ownerTag(dead)}-x1`, 'chunk-0.wav'), 2000);
    fs.mkdirSync(path.join(tmp, `doorstep-audio-${ownerTag(live.pid)}-x2`));
    // This process's own name, but older than this process: a restart that reused the pid.
    const stale = path.join(uploads, `abcdefgh7777.${ownerTag()}.part`);
    write(stale, 7);
    const old = new Date(Date.now() - 3600_000 * 24 * 365);
    fs.utimesSync(stale, old, old);

    const removed = await cleanDebris({ uploadsDir: uploads, tempDir: tmp });
    expect(removed).toEqual({ files: 4, bytes: 1000 + 500 + 2000 + 7 });
    expect(fs.readdirSync(uploads).sort()).toEqual([
      'abcdefgh0000',
      `abcdefgh9999.${ownerTag(live.pid)}.part`,
    ]);
    expect(fs.readdirSync(tmp)).toEqual([`doorstep-audio-${ownerTag(live.pid)}-x2`]);
  });

  it("judges another host's files (a container sharing the volume) by age only", () => {
    const now = Date.now();
    expect(isDebris(`abcdefgh1234.${process.pid}_elsewhere.part`, now - 60_000, now)).toBe(false);
    expect(isDebris(`doorstep-ps-1_elsewhere-x`, now - 2 * 3600_000, now)).toBe(true);
  });

  it('tolerates folders that do not exist yet', async () => {
    const data = scratch();
    await expect(
      cleanDebris({ uploadsDir: path.join(data, 'u'), tempDir: path.join(data, 't') }),
    ).resolves.toEqual({
      files: 0,
      bytes: 0,
    });
  });
});
