import fs from 'node:fs';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { waitFor } from './test-support/harness';
import { childrenTiedByKernel, spawnTied } from './child-process';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

function alive(pid: number): boolean {
  try {
    // A zombie (killed, not yet reaped) counts as gone.
    return !/^\S+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
}

describe('child processes die with the server', () => {
  it.runIf(process.platform === 'linux')(
    'a SIGKILLed parent takes its recogniser children with it',
    async () => {
      expect(childrenTiedByKernel).toBe(true);
      // A stand-in server: starts a long child the way the engines do, prints its pid, waits.
      const parent = spawn(
        process.execPath,
        [
          '--import',
          'tsx',
          '-e',
          "import('./server/child-process.ts').then(({ spawnTied }) => { const c = spawnTied('sleep', ['120'], { stdio: 'ignore' }); console.log(c.pid); setInterval(() => {}, 1000); })",
        ],
        { cwd: root, stdio: ['ignore', 'pipe', 'inherit'] },
      );
      const pid = await new Promise<number>((resolve, reject) => {
        parent.stdout.once('data', (d: Buffer) => resolve(Number(String(d).trim())));
        parent.once('exit', () => reject(new Error('the parent exited early')));
      });
      expect(alive(pid)).toBe(true);
      parent.kill('SIGKILL');
      await waitFor(() => !alive(pid), 'the child to die with its parent', 5000);
    },
  );

  it('still reports a missing command as an error event', async () => {
    const child = spawnTied('/nonexistent/recogniser', [], { stdio: 'ignore' });
    const err = await new Promise<NodeJS.ErrnoException>((resolve) => child.once('error', resolve));
    expect(err.code).toBe('ENOENT');
  });

  it('runs the command itself (same pid, same output)', async () => {
    const child = spawnTied('sh', ['-c', 'echo $$'], { stdio: ['ignore', 'pipe', 'ignore'] });
    const out = await new Promise<string>((resolve) => child.stdout!.once('data', (d) => resolve(String(d))));
    expect(Number(out.trim())).toBe(child.pid);
  });
});
