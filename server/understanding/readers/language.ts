import { normalizeText } from '../text/normalise';
import language from '../cues/language.json';

/** Whether a call is in English at all, read from its words. */

const FUNCTION_WORDS = new Set<string>(language.ENGLISH_FUNCTION_WORDS.cues);

/** Share of the words that are common English function words; English speech sits near 0.4. */
export function englishShare(texts: readonly string[]): number {
  const words = texts
    .map((t) => normalizeText(t))
    .join(' ')
    .split(' ')
    .filter(Boolean);
  if (!words.length) return 1;
  return words.filter((w) => FUNCTION_WORDS.has(w)).length / words.length;
}
