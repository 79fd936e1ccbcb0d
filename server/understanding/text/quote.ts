import { countWords } from '../../../core/transcript';

/**
 * Quoting a speaker's words back to them: the words as said, trimmed to a readable length, and
 * whether a span recognised from speech reads clearly enough to quote at all.
 */

/** At most `maxWords` of the words as said, spaces collapsed, double quotes made single. */
export function quotable(text: string, maxWords = 30): string {
  const words = text
    .replace(/^\s*>+\s*/, '')
    .replace(/"/g, "'")
    .split(/\s+/)
    .filter(Boolean);
  return words.length > maxWords ? `${words.slice(0, maxWords).join(' ')}...` : words.join(' ');
}

/** Letters a recogniser leaves alone when it loses a word: "you d c", "is it a b". */
const STRAY = /^[b-hj-z]$/i;

/**
 * Whether a span reads as words a person said: long enough to stand alone and with no stray
 * letters a weak recogniser leaves where it lost a word ("you d c the downspout").
 */
export function readsClearly(text: string, minWords = 5): boolean {
  if (countWords(text) < minWords) return false;
  const tokens = text
    .toLowerCase()
    .split(/[^a-z0-9']+/)
    .filter(Boolean);
  return !tokens.some((t) => STRAY.test(t));
}
