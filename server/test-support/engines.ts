import fs from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { it } from 'vitest';
import { builtHelper } from '../native-helpers';
import { pocketSphinxModelDir } from '../providers/stt/pocketsphinx';

/**
 * System engines some tests need: Debian packages and the helpers `npm install` builds.
 * A test file that needs one calls `skipWithout(...)` at its top level:
 *  - present: the tests run;
 *  - absent and CI unset: the tests are skipped and the reason is printed once;
 *  - absent under CI=true: one failing test names what is missing (CI never goes green by skipping).
 * `TEST_ENGINE_PATH_<NAME>` (e.g. TEST_ENGINE_PATH_ESPEAK_LIVE=/nonexistent) points the check at
 * another binary, to try the skip path without removing packages.
 */
export type SystemEngine =
  | 'espeak-live'
  | 'sphinx-live'
  | 'sphinx-batch'
  | 'espeak-ng'
  | 'flite'
  | 'pocketsphinx'
  | 'pdftotext'
  | 'chromium';

const HOW_TO_ADD: Record<SystemEngine, string> = {
  'espeak-live': 'npm install builds it when espeak-ng and its headers are installed (npm run setup)',
  'sphinx-live': 'npm install builds it when PocketSphinx and its headers are installed (npm run setup)',
  'sphinx-batch': 'npm install builds it when PocketSphinx and its headers are installed (npm run setup)',
  'espeak-ng': 'Debian package espeak-ng (npm run setup)',
  flite: 'Debian package flite (npm run setup)',
  pocketsphinx: 'Debian packages pocketsphinx and pocketsphinx-en-us (npm run setup)',
  pdftotext: 'Debian package poppler-utils (npm run setup)',
  chromium: 'Debian package chromium (npm run setup)',
};

function override(name: SystemEngine): string | undefined {
  return process.env[`TEST_ENGINE_PATH_${name.toUpperCase().replace(/-/g, '_')}`] || undefined;
}

/** True when the command runs (found on PATH or at the given path). */
function runs(command: string, args: string[]): boolean {
  const r = spawnSync(command, args, { stdio: 'ignore', timeout: 10_000 });
  return !r.error;
}

/** Why the engine cannot be used here, or null when it can. */
export function engineMissing(name: SystemEngine): string | null {
  const file = override(name);
  const missing = (what: string) => `${what} is missing (${HOW_TO_ADD[name]})`;
  switch (name) {
    case 'espeak-live':
    case 'sphinx-live':
    case 'sphinx-batch': {
      const found = file ? builtHelper(name, file) : builtHelper(name);
      if (!found) return missing(file ?? `build/${name}`);
      if (name !== 'espeak-live' && !pocketSphinxModelDir()) return missing('the PocketSphinx en-us model');
      return null;
    }
    case 'espeak-ng':
      return runs(file ?? 'espeak-ng', ['--version']) ? null : missing(file ?? 'espeak-ng');
    case 'flite':
      return runs(file ?? 'flite', ['--version']) ? null : missing(file ?? 'flite');
    case 'pocketsphinx':
      if (!runs(file ?? 'pocketsphinx_continuous', ['-h'])) return missing(file ?? 'pocketsphinx_continuous');
      return pocketSphinxModelDir() ? null : missing('the PocketSphinx en-us model');
    case 'pdftotext':
      return runs(file ?? 'pdftotext', ['-v']) ? null : missing(file ?? 'pdftotext');
    case 'chromium': {
      const bin = file ?? process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
      return fs.existsSync(bin) && path.isAbsolute(bin) ? null : missing(bin);
    }
  }
}

const isCi = () => Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';

const reported = new Set<string>();

/**
 * Call at the top level of a test file. Returns true when its tests should be skipped
 * (an engine is missing and CI is not set); use it with `describe.skipIf(...)`.
 */
export function skipWithout(...names: SystemEngine[]): boolean {
  const reasons = names.map(engineMissing).filter((r): r is string => r !== null);
  if (reasons.length === 0) return false;
  const why = reasons.join('; ');
  if (isCi()) {
    it(`has the system engines it needs (${names.join(', ')})`, () => {
      throw new Error(`CI=true and ${why}`);
    });
    return true;
  }
  if (!reported.has(why)) {
    reported.add(why);
    console.warn(`Skipping tests that need ${names.join(', ')}: ${why}.`);
  }
  return true;
}
