import { countWords } from '../../../core/transcript';
import { normalizeText, splitSentences } from './normalise';

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

/**
 * A short quotable piece of a line: the sentence in which `re` matches (read normalized), else, in
 * a line of one sentence, the words around the match (six before, fourteen from it), else the
 * first sentence; cut at thirty words when it runs past thirty-two. `norm` is the line normalized.
 */
export function quoteMatching(text: string, norm: string, re?: RegExp): string {
  const sentences = splitSentences(text);
  let pick = sentences[0] ?? text;
  if (re) {
    const hit = sentences.find((s) => re.test(normalizeText(s)));
    if (hit) pick = hit;
    else if (sentences.length === 1) {
      const m = norm.match(re);
      if (m && m.index !== undefined) {
        const said = text.split(/\s+/);
        const words = said.length === norm.split(' ').length ? said : norm.split(' ');
        const at = norm.slice(0, m.index).split(' ').length - 1;
        pick = words.slice(Math.max(0, at - 6), at + 14).join(' ');
      }
    }
  }
  const words = pick.split(/\s+/);
  return words.length > 32 ? `${words.slice(0, 30).join(' ')}...` : pick;
}
