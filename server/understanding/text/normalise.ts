import { countWords } from '../../../core/transcript';

/** Lowercase, apostrophes removed, punctuation collapsed: the form every phrase rule is written against. */
export function normalizeText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[’‘`]/g, "'")
    .replace(/'/g, '')
    .replace(/[^\p{L}\p{N}$%\s-]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/**
 * Rules are written with contractions spaced ("that s", "you d"); normalized text fuses them
 * ("thats", "youd"), while some recognisers split them. This makes the space optional.
 */
export function looseContractions(re: RegExp): RegExp {
  const source = re.source.replace(/([a-z]) (s|d|re|ve|t|ll|m)(?=[\s|)\\?]|$)/g, '$1 ?$2');
  return new RegExp(source, re.flags);
}

/** Splits on sentence punctuation; text from a recogniser without punctuation comes back whole. */
export function splitSentences(text: string): string[] {
  return text
    .split(/(?<=[.?!…])\s+|(?<=[—–])\s*|\s+(?=-{2})/u)
    .map((s) => s.trim())
    .filter((s) => countWords(s) > 0);
}
