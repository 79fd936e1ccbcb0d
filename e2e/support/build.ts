import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const rootDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const clientDistDir = path.join(rootDir, 'dist/client');
const lockDir = path.join(rootDir, 'dist/.client-build.lock');

const SOURCES = ['client', 'core', 'vite.config.ts', 'package.json'];

function newestMtime(p: string): number {
  const full = path.join(rootDir, p);
  if (!fs.existsSync(full)) return 0;
  const stat = fs.statSync(full);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(full, { withFileTypes: true })) {
    if (entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    // Unit tests do not end up in the bundle.
    if (/\.test\.tsx?$/.test(entry.name)) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry.name)));
  }
  return newest;
}

/** True when dist/client is missing or older than any client source. */
export function clientBuildIsStale(): boolean {
  const index = path.join(clientDistDir, 'index.html');
  if (!fs.existsSync(index)) return true;
  const builtAt = fs.statSync(index).mtimeMs;
  return SOURCES.some((s) => newestMtime(s) > builtAt);
}

const ASSET_KEEP_MS = 30 * 60_000;

/** Removes built assets older than half an hour, so keeping old builds does not pile up. */
function pruneOldAssets(): void {
  const dir = path.join(clientDistDir, 'assets');
  if (!fs.existsSync(dir)) return;
  const cutoff = Date.now() - ASSET_KEEP_MS;
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    if (fs.statSync(file).mtimeMs < cutoff) fs.rmSync(file, { force: true });
  }
}

function sleep(ms: number) {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Builds the client once (vite build -> dist/client) unless the build is already fresh.
 * A lock folder keeps two test runs from building into the same folder at once.
 * Set E2E_SKIP_BUILD=1 to use whatever dist/client holds.
 */
export function ensureClientBuilt(): void {
  if (process.env.E2E_SKIP_BUILD === '1' && fs.existsSync(path.join(clientDistDir, 'index.html'))) return;
  if (!clientBuildIsStale()) return;
  fs.mkdirSync(path.dirname(lockDir), { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      fs.mkdirSync(lockDir);
      break;
    } catch {
      // Someone else is building; a lock older than two minutes is from a crashed run.
      const age = Date.now() - (fs.statSync(lockDir, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 120_000) fs.rmSync(lockDir, { recursive: true, force: true });
      if (Date.now() > deadline) throw new Error('Timed out waiting for another client build to finish');
      sleep(250);
    }
  }
  try {
    if (!clientBuildIsStale()) return;
    pruneOldAssets();
    // Old hashed assets stay in place: a server started earlier (another test file) knows only
    // the files that existed when it started, and its open pages may still lazy-load them.
    execFileSync(
      process.execPath,
      [
        path.join(rootDir, 'node_modules/vite/bin/vite.js'),
        'build',
        '--logLevel',
        'warn',
        '--emptyOutDir',
        'false',
      ],
      {
        cwd: rootDir,
        stdio: 'inherit',
      },
    );
  } finally {
    fs.rmSync(lockDir, { recursive: true, force: true });
  }
}
