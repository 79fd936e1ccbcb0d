import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Where `npm run setup` (scripts/build-native.sh) compiles native/*.c. */
const BUILD_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../build');

/** A helper from native/ (or the file given instead), when it has been built and can be run. */
export function builtHelper(
  name: 'sphinx-live' | 'espeak-live' | 'sphinx-batch',
  file = path.join(BUILD_DIR, name),
): string | null {
  try {
    fs.accessSync(file, fs.constants.X_OK);
    return file;
  } catch {
    return null;
  }
}
