import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';

const repo = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');

/** Tools the script may use; cc and pkg-config are left out so no helper is compiled. */
const TOOLS = [
  'bash',
  'dirname',
  'mktemp',
  'rm',
  'grep',
  'timeout',
  'env',
  'cat',
  'mkdir',
  'printf',
  'sleep',
  'true',
];

interface Sandbox {
  root: string;
  calls: string;
  run(env?: Record<string, string>): {
    status: number | null;
    stdout: string;
    stderr: string;
    calls: string[];
  };
}

const sandboxes: string[] = [];
afterEach(() => {
  for (const dir of sandboxes.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

/**
 * A copy of the scripts in a scratch folder with stand-ins for dpkg, apt-get, sudo and id,
 * so each path of the install step runs without touching this machine's packages.
 */
function sandbox(stubs: {
  uid: number;
  sudo: 'none' | 'passwordless' | 'prompt';
  apt: 'ok' | 'hang' | 'fail';
}) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-postinstall-'));
  sandboxes.push(root);
  fs.mkdirSync(path.join(root, 'scripts'));
  fs.mkdirSync(path.join(root, 'native'));
  for (const f of ['postinstall.sh', 'system-packages.sh', 'build-native.sh']) {
    fs.copyFileSync(path.join(repo, 'scripts', f), path.join(root, 'scripts', f));
  }
  for (const f of fs.readdirSync(path.join(repo, 'native'))) {
    fs.copyFileSync(path.join(repo, 'native', f), path.join(root, 'native', f));
  }
  const bin = path.join(root, 'bin');
  fs.mkdirSync(bin);
  for (const tool of TOOLS) {
    const found = ['/usr/bin', '/bin'].map((d) => path.join(d, tool)).find((p) => fs.existsSync(p));
    if (found) fs.symlinkSync(found, path.join(bin, tool));
  }
  const calls = path.join(root, 'calls.log');
  const script = (name: string, body: string) =>
    fs.writeFileSync(path.join(bin, name), `#!/bin/bash\necho "${name} $*" >> ${calls}\n${body}\n`, {
      mode: 0o755,
    });
  script('dpkg', 'exit 1');
  script('id', `echo ${stubs.uid}`);
  script(
    'apt-get',
    stubs.apt === 'hang'
      ? 'sleep 30'
      : stubs.apt === 'fail'
        ? 'echo "E: Unable to locate" >&2; exit 100'
        : 'exit 0',
  );
  if (stubs.sudo !== 'none') {
    script(
      'sudo',
      stubs.sudo === 'passwordless'
        ? '[ "$1" = "-n" ] && shift; exec "$@"'
        : 'read -r -t 20 password; echo "sudo: a password is required" >&2; exit 1',
    );
  }
  const box: Sandbox = {
    root,
    calls,
    run(env = {}) {
      const r = spawnSync(bin + '/bash', [path.join(root, 'scripts/postinstall.sh')], {
        env: { PATH: bin, TMPDIR: root, ...env },
        encoding: 'utf8',
        timeout: 15_000,
      });
      const log = fs.existsSync(calls) ? fs.readFileSync(calls, 'utf8').trim().split('\n') : [];
      return { status: r.status, stdout: r.stdout, stderr: r.stderr, calls: log };
    },
  };
  return box;
}

describe('npm install set-up step (scripts/postinstall.sh)', () => {
  it('without root or passwordless sudo prints one line naming the command and succeeds', () => {
    const r = sandbox({ uid: 1000, sudo: 'prompt', apt: 'ok' }).run();
    expect(r.status).toBe(0);
    const lines = r.stdout.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/pocketsphinx.*npm run setup/);
    expect(r.calls.some((c) => c.startsWith('apt-get'))).toBe(false);
    // sudo was only asked non-interactively.
    expect(r.calls.filter((c) => c.startsWith('sudo'))).toEqual(['sudo -n true']);
  });

  it('with passwordless sudo updates once and installs the missing engine packages noninteractively', () => {
    const r = sandbox({ uid: 1000, sudo: 'passwordless', apt: 'ok' }).run();
    expect(r.status).toBe(0);
    const apt = r.calls.filter((c) => c.startsWith('apt-get'));
    expect(apt.filter((c) => / update\b/.test(c))).toHaveLength(1);
    const install = apt.find((c) => / install /.test(c)) ?? '';
    expect(install).toMatch(/-y/);
    expect(install).toMatch(/pocketsphinx-en-us/);
    expect(install).toMatch(/libespeak-ng-dev/);
    expect(install).not.toMatch(/chromium/);
    // No compiler in this sandbox: the helpers are not built, said in one line.
    expect(r.stdout).toMatch(/not built/);
  });

  it('as root installs without sudo', () => {
    const r = sandbox({ uid: 0, sudo: 'none', apt: 'ok' }).run();
    expect(r.status).toBe(0);
    expect(r.calls.some((c) => / install .*espeak-ng/.test(c))).toBe(true);
  });

  it('gives up on a hanging apt-get within its time limit and still succeeds', () => {
    const r = sandbox({ uid: 0, sudo: 'none', apt: 'hang' }).run({ DOORSTEP_APT_UPDATE_TIMEOUT: '1' });
    expect(r.status).toBe(0);
    expect(r.stdout).toMatch(/could not install .*npm run setup/);
  });

  it('a failing apt-get does not fail the install', () => {
    const r = sandbox({ uid: 0, sudo: 'none', apt: 'fail' }).run();
    expect(r.status).toBe(0);
    expect(r.stdout.trim().split('\n').at(-1)).toMatch(/could not install/);
  });

  it('DOORSTEP_POSTINSTALL=off does nothing', () => {
    const r = sandbox({ uid: 0, sudo: 'none', apt: 'ok' }).run({ DOORSTEP_POSTINSTALL: 'off' });
    expect(r.status).toBe(0);
    expect(r.stdout).toBe('');
    expect(r.calls).toEqual([]);
  });
});
