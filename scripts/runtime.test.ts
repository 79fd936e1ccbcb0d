import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { projectRoot } from './lib/server-process';

/**
 * The runtime the project ships and supports: the container on a Node release line that still
 * gets security fixes, installed exactly from the lock, and the same versions named in the
 * README and package.json.
 */
const read = (file: string) => fs.readFileSync(path.join(projectRoot, file), 'utf8');

/** Node release lines with security support (LTS), by major version. */
const SUPPORTED_LTS = [22, 24];

describe('the supported runtime', () => {
  it('the container runs a supported Node LTS in every stage', () => {
    const images = [...read('Dockerfile').matchAll(/^FROM\s+(\S+)/gm)].map((m) => m[1]);
    expect(images.length).toBeGreaterThanOrEqual(2);
    for (const image of images) {
      const m = /^node:(\d+)-bookworm-slim(?:\s|$)/.exec(image);
      expect(m, image).not.toBeNull();
      expect(SUPPORTED_LTS, image).toContain(Number(m![1]));
    }
  });

  it('the container installs exactly what the lock says (npm ci, never npm install)', () => {
    // Each instruction on one line (continuations joined), comments left out: the RUN ones.
    const runs = read('Dockerfile')
      .replace(/\\\n/g, ' ')
      .split('\n')
      .filter((l) => /^RUN\s/.test(l))
      .join('\n');
    expect(runs).toMatch(/\bnpm ci\b/);
    expect(runs).not.toMatch(/\bnpm (install|i)\b/);
  });

  it('the lock lists every optional platform package it names, so npm ci accepts it', () => {
    const lock = JSON.parse(read('package-lock.json')) as {
      packages: Record<string, { optionalDependencies?: Record<string, string> }>;
    };
    const missing: string[] = [];
    for (const [where, pkg] of Object.entries(lock.packages)) {
      for (const dep of Object.keys(pkg.optionalDependencies ?? {})) {
        // Resolved like Node does: the package's own node_modules, then each folder above it.
        const candidates: string[] = [];
        let dir = where;
        for (;;) {
          candidates.push(`${dir ? `${dir}/` : ''}node_modules/${dep}`);
          if (!dir) break;
          const at = dir.lastIndexOf('node_modules/');
          dir = at <= 0 ? '' : dir.slice(0, at - 1);
        }
        if (!candidates.some((c) => lock.packages[c])) missing.push(`${where || '(root)'} -> ${dep}`);
      }
    }
    expect(missing).toEqual([]);
  });

  it('package.json and the README name the same supported versions', () => {
    const pkg = JSON.parse(read('package.json')) as { engines: { node: string } };
    expect(pkg.engines.node).toBe('>=20.19');
    const readme = read('README.md');
    expect(readme).toMatch(/Node\.js 22 or 24 \(LTS\)/);
    expect(readme).toMatch(/20\.19/);
  });
});
