/**
 * Working with the homeowner's own lines as text: sentences, templates with `{placeholders}`,
 * capitals, and whether a line names given words. The homeowner composes its replies with these
 * and holds no pattern of its own (docs/ARCHITECTURE.md, "The shared reading").
 */

/** The sentences of a line, each with its closing mark and trailing space (for streaming). */
export function sentencesOf(text: string): string[] {
  return text.match(/[^.!?]+[.!?]*\s*/g) ?? [text];
}

/** The sentences of a line, trimmed, without empty ones. */
export function trimmedSentences(text: string): string[] {
  return (text.match(/[^.!?]+[.!?]*/g) ?? []).map((s) => s.trim()).filter(Boolean);
}

/** The first sentence of a line, without its closing mark. */
export function firstSentence(text: string): string {
  return text.split(/[.!?]/)[0] ?? text;
}

/** Sentences compare by their words, ignoring case and punctuation. */
export function sentenceKey(sentence: string): string {
  return sentence
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The words of a line, split on spaces and punctuation. */
export function wordsOf(text: string): string[] {
  return text.split(/[\s,.?!]+/).filter(Boolean);
}

/**
 * Fills `{key}` placeholders; `{Key}` gives the value with a capital. Unknown keys stay as they are.
 */
export function fillTemplate(text: string, vars: Readonly<Record<string, string>>): string {
  return text.replace(/\{(\w+)\}/g, (m, key: string) => {
    const lower = key[0].toLowerCase() + key.slice(1);
    const value = vars[lower];
    if (value === undefined) return m;
    return key[0] === key[0].toUpperCase() ? value[0].toUpperCase() + value.slice(1) : value;
  });
}

/** A capital at the start of the line and of each sentence in it. */
export function capitaliseSentences(text: string): string {
  return text.replace(/(^|[.!?]\s+)([a-z])/g, (_m, pre: string, c: string) => pre + c.toUpperCase());
}

/**
 * A sentence put after "Like I said," starts in lower case, unless it opens with "I" or a name
 * ("Like I said, I want it warm", "Like I said, Susan has to shoulder it open").
 */
export function lowerFirst(text: string, names: ReadonlySet<string> = new Set()): string {
  const first = /^[A-Za-z]+/.exec(text)?.[0] ?? '';
  if (first === 'I' || names.has(first)) return text;
  return text.replace(/^[A-Z](?![A-Z])/, (c) => c.toLowerCase());
}

/** Capitalised words that follow a lower-case word or a comma: the names in a persona's lines. */
export function capitalisedNames(text: string): string[] {
  return [...text.matchAll(/[a-z,] ([A-Z][a-z]+)/g)].map((m) => m[1]);
}

const escape = (word: string) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const wordSets = new Map<string, RegExp>();
function anyWord(words: readonly string[]): RegExp {
  const key = words.join('|');
  let re = wordSets.get(key);
  if (!re) {
    re = new RegExp(`\\b(${words.map(escape).join('|')})\\b`, 'i');
    wordSets.set(key, re);
  }
  return re;
}

/** Whether the text names any of the words or phrases, as whole words (case-insensitive). */
export function namesAny(text: string, words: readonly string[]): boolean {
  return words.length > 0 && anyWord(words).test(text);
}

/** Whether the line opens with any of the words ("And", "Yep"), as a whole word. */
export function opensWith(text: string, words: readonly string[]): boolean {
  return new RegExp(`^(${words.map(escape).join('|')})\\b`, 'i').test(text.trim());
}

/** The part of the text before the first of the words ("...attic first, then I'll go up" -> before "then"). */
export function before(text: string, words: readonly string[]): string {
  return text.split(anyWord(words))[0] ?? text;
}

/** The words of the list the text names, in the order they appear in it. */
export function wordsNamed(text: string, words: readonly string[]): string[] {
  return [...text.matchAll(new RegExp(anyWord(words).source, 'gi'))].map((m) => m[0].toLowerCase());
}

/** The sentences of a line without their closing marks ("Upstairs. Mostly." -> ["Upstairs", "Mostly"]). */
export function sentencesWithoutMarks(text: string): string[] {
  return (text.match(/[^.!?]+/g) ?? [text]).map((p) => p.trim());
}
