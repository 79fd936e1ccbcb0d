import { nlp } from '../../nlp';
import { COUNTING_WORDS } from '../entities/numbers';

/**
 * Word matching for text from a weak recogniser: lowercase, accents and punctuation dropped,
 * contractions split, stems and a one-letter tolerance for longer words; and dollar amounts
 * read from digits or words.
 */
/** Lowercases, strips accents and punctuation, joins contractions so "won't" and "wont" match alike. */
/**
 * "-in'" for "-ing" as people say it ("talkin'", "spendin'"), and the common ones a recogniser
 * writes without the apostrophe ("lookin", "comin").
 */
const DROPPED_G = new Set(
  'lookin comin goin doin talkin gettin thinkin wantin spendin leakin runnin workin fixin havin sayin makin takin tryin kiddin wonderin askin plannin hopin figurin guessin payin puttin sittin waitin leavin livin movin cookin drivin freezin drippin crackin saggin stickin creakin actin blowin kickin shuttin bangin rattlin hearin seein'.split(
    ' ',
  ),
);

export function normalise(text: string): string[] {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/\b([a-z]{2,}in)['’](?![a-z])/g, '$1g')
    .replace(/\b[a-z]+in\b/g, (w) => (DROPPED_G.has(w) ? `${w}g` : w))
    .replace(/(\d),(\d{3})/g, '$1$2')
    .replace(/[’']/g, ' ')
    .replace(/\$/g, ' $ ')
    .replace(/[^a-z0-9$ ]+/g, ' ')
    .split(/\s+/)
    .filter(Boolean);
}

function editDistanceAtMostOne(a: string, b: string): boolean {
  if (a === b) return true;
  if (Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  let j = 0;
  let edits = 0;
  while (i < a.length && j < b.length) {
    if (a[i] === b[j]) {
      i++;
      j++;
      continue;
    }
    if (++edits > 1) return false;
    if (a.length > b.length) i++;
    else if (b.length > a.length) j++;
    else {
      i++;
      j++;
    }
  }
  return edits + (a.length - i) + (b.length - j) <= 1;
}

/**
 * Endings that keep a word's meaning (plural, tense, comparison, "-y", "-ly"...), with the
 * doubled consonant of "stopped"; anything else after a key is a different word
 * ("listen" is not "list").
 */
const INFLECTION = /^(s|es|ed|d|ing|ings|er|ers|est|ly|y|ies|ied|ier|iest|ful|less|able|ment|ments|ness)$/;

function inflects(word: string, key: string): boolean {
  let rest = word.slice(key.length);
  // "stopped", "planning": the key's last consonant doubled before the ending.
  if (rest[0] === key[key.length - 1] && !'aeiou'.includes(rest[0])) rest = rest.slice(1);
  return INFLECTION.test(rest);
}
/** Different words that happen to look like a key plus an inflection. */
const FALSE_FRIENDS = new Set([
  'bother',
  'bothers',
  'bothered',
  'bothering',
  'signal',
  'needles',
  'needle',
  'planet',
  'planets',
]);

/** One word matches a keyword word: the key inflected, or one edit apart for words of 6+ letters. */
function wordMatches(word: string, key: string): boolean {
  if (word === key) return true;
  if (
    key.length >= 4 &&
    word.startsWith(key) &&
    word.length - key.length <= 4 &&
    !FALSE_FRIENDS.has(word) &&
    inflects(word, key)
  )
    return true;
  if (key.length < 6 || word.length < 6) return false;
  // One edit leaves one of the first two letters in place: a cheap test before the real one.
  if (word[0] !== key[0] && word[1] !== key[1] && word[0] !== key[1] && word[1] !== key[0]) return false;
  // One slip in the word itself, or in its stem before an ending ("insurence", "licenced"); not
  // any longer word that starts like the key ("neighborhood" is no "neighbor").
  if (editDistanceAtMostOne(word, key)) return true;
  const ending = /(ing|ed|es|er|s|d)$/.exec(word)?.[0];
  return ending !== undefined && editDistanceAtMostOne(word.slice(0, -ending.length), key);
}

const keyCache = new Map<string, string[]>();
function keyParts(key: string): string[] {
  let parts = keyCache.get(key);
  if (!parts) {
    parts = normalise(key);
    keyCache.set(key, parts);
  }
  return parts;
}

function matchCount(words: string[], key: string): number {
  const parts = keyParts(key);
  if (parts.length === 0) return 0;
  let n = 0;
  for (let i = 0; i + parts.length <= words.length; i++) {
    let ok = true;
    for (let k = 0; k < parts.length; k++) {
      if (!wordMatches(words[i + k], parts[k])) {
        ok = false;
        break;
      }
    }
    if (ok) n++;
  }
  return n;
}

export function containsAny(words: string[], keys: string[]): boolean {
  for (const key of keys) if (matchCount(words, key) > 0) return true;
  return false;
}

/**
 * Every key phrase asked about so far, indexed by its first word, and for each word seen the key
 * words it matches: a turn is matched against all phrases in one pass over its words instead of
 * one pass per phrase.
 */
interface Entry {
  key: string;
  parts: string[];
}
const byFirst = new Map<string, Entry[]>();
const registered = new Set<string>();
const registeredLists = new WeakSet<readonly string[]>();
const allParts = new Set<string>();
const partsCache = new Map<string, Set<string>>();
const seqCache = new WeakMap<readonly string[], { version: number; matched: Set<string> }>();
let version = 0;

function register(keys: readonly string[]): void {
  if (registeredLists.has(keys)) return;
  // A one-key list made for the call (`has(seqs, [key])`): its key is known, and remembering
  // each such throwaway array costs the garbage collector more than the lookup saves.
  if (keys.length === 1 && registered.has(keys[0])) return;
  for (const key of keys) {
    if (registered.has(key)) continue;
    registered.add(key);
    const parts = keyParts(key);
    if (parts.length === 0) continue;
    const list = byFirst.get(parts[0]) ?? [];
    list.push({ key, parts });
    byFirst.set(parts[0], list);
    for (const part of parts) {
      if (allParts.has(part)) continue;
      allParts.add(part);
      partsCache.clear();
    }
    version++;
  }
  registeredLists.add(keys);
}

function partsMatching(word: string): Set<string> {
  let set = partsCache.get(word);
  if (!set) {
    if (partsCache.size > 20_000) partsCache.clear();
    set = new Set();
    for (const part of allParts) if (wordMatches(word, part)) set.add(part);
    partsCache.set(word, set);
  }
  return set;
}

function matchedKeys(words: readonly string[]): Set<string> {
  const cached = seqCache.get(words);
  if (cached && cached.version === version) return cached.matched;
  const matched = new Set<string>();
  const sets = words.map(partsMatching);
  for (let i = 0; i < words.length; i++) {
    for (const part of sets[i]) {
      for (const entry of byFirst.get(part) ?? []) {
        if (matched.has(entry.key) || i + entry.parts.length > words.length) continue;
        let ok = true;
        for (let k = 1; k < entry.parts.length; k++) {
          if (!sets[i + k].has(entry.parts[k])) {
            ok = false;
            break;
          }
        }
        if (ok) matched.add(entry.key);
      }
    }
  }
  seqCache.set(words, { version, matched });
  return matched;
}

/** Whether any of the word sequences (surface words, lemmas...) contains any of the key phrases. */
export function has(seqs: readonly (readonly string[])[], keys: readonly string[]): boolean {
  register(keys);
  for (const seq of seqs) {
    const matched = matchedKeys(seq);
    for (const key of keys) if (matched.has(key)) return true;
  }
  return false;
}

/** Which of the key phrases any of the word sequences contains (one pass for a whole list). */
export function matching(seqs: readonly (readonly string[])[], keys: readonly string[]): Set<string> {
  register(keys);
  const found = new Set<string>();
  for (const seq of seqs) {
    const matched = matchedKeys(seq);
    for (const key of keys) if (matched.has(key)) found.add(key);
  }
  return found;
}

export function lemmatise(words: string[]): string[] {
  if (words.length === 0) return [];
  const doc = nlp().readDoc(words.join(' '));
  return (
    doc
      .tokens()
      // The typings miss that lemma is a token property; it is at runtime.
      .out(nlp().its.lemma as never)
      .map((l) => String(l).toLowerCase())
  );
}

/** Number words one to ninety with their values (the shared table, entities/numbers.ts). */
const UNITS: Readonly<Record<string, number>> = COUNTING_WORDS;

/** A dollar amount the rep states ("$13,000", "thirteen thousand", "7.5k", "seven grand"). */
const PRICE_CONTEXT = new Set([
  'for',
  'around',
  'about',
  'roughly',
  'approximately',
  'cost',
  'costs',
  'run',
  'runs',
  'to',
  'price',
  'total',
  'investment',
  'at',
  'only',
  'just',
  'under',
]);
const NOT_MONEY_UNITS = new Set([
  'square',
  'sq',
  'feet',
  'foot',
  'ft',
  'homes',
  'houses',
  'installs',
  'installations',
  'jobs',
  'customers',
  'families',
  'people',
  'reviews',
  'miles',
  'btu',
  'btus',
  'pounds',
  'degrees',
  'watts',
  'hours',
  'windows',
  'shingles',
  'squares',
]);

export function parsePrice(words: string[]): number | null {
  const all = parsePrices(words);
  return all.length ? Math.max(...all) : null;
}

/**
 * Every price named in a turn, in order: "patch it for about nine hundred or a full tear-off
 * around fourteen thousand" names two.
 */
/** Words that make a turn about money, so a bare amount in it is a price ("twenty-two fifty"). */
const MONEY_TALK = new Set([
  'price',
  'priced',
  'pricing',
  'charge',
  'cost',
  'costs',
  'quote',
  'waive',
  'discount',
  'bundle',
  'labour',
  'labor',
  'installed',
  'deposit',
  'budget',
]);
const TENS = new Set(Object.keys(UNITS).filter((w) => UNITS[w] >= 20));

export function parsePrices(words: string[]): number[] {
  const found: number[] = [];
  const talksMoney = words.some((w) => MONEY_TALK.has(w));
  for (let i = 0; i < words.length; i++) {
    let value = 0;
    let current = 0;
    let j = i;
    let money = words[i - 1] === '$';
    let numeric = false;
    while (j < words.length) {
      const w = words[j];
      const k = /^(\d+(?:\.\d+)?)k$/.exec(w);
      if (k) {
        current += parseFloat(k[1]) * 1000;
        money = numeric = true;
      } else if (/^\d+$/.test(w)) current += parseInt(w, 10);
      else if (
        w in UNITS &&
        UNITS[w] < 10 &&
        current >= 10 &&
        current < 20 &&
        value === 0 &&
        !['hundred', 'thousand', 'grand'].includes(words[j + 1] ?? '')
      ) {
        // "eleven five", "thirteen four": sales shorthand for 11,500 and 13,400 (a teen and a
        // digit is no English number otherwise); it still needs a price word before it.
        current = current * 1000 + UNITS[w] * 100;
      } else if (
        TENS.has(w) &&
        current >= 11 &&
        current <= 99 &&
        current % 10 !== 0 &&
        value === 0 &&
        j > i &&
        !['hundred', 'thousand', 'grand'].includes(words[j + 1] ?? '')
      ) {
        // "twenty-two fifty", "eighteen seventy-five": hundreds said in pairs, 2,250 and 1,875.
        current = current * 100 + UNITS[w];
      } else if (w in UNITS) current += UNITS[w];
      else if (w === 'hundred') current = (current || 1) * 100;
      else if (w === 'thousand' || w === 'grand') {
        value += (current || 1) * 1000;
        current = 0;
        money = true;
      } else if (w === 'and' && j > i) {
        j++;
        continue;
      } else break;
      numeric = true;
      j++;
    }
    if (!numeric) continue;
    // "a hundred and twenty-five, and that alone...": a trailing "and" belongs to the sentence.
    while (j > i + 1 && words[j - 1] === 'and') j--;
    const total = value + current;
    const next = words[j] ?? '';
    if (['dollar', 'dollars', 'bucks', 'buck'].includes(next)) money = true;
    // "for around seventy eight hundred", "it runs about 9500": a four-figure amount put as a
    // price, unless a unit follows ("fifteen hundred square feet", "1200 installs").
    // A hundreds amount after a price word counts when the sentence ends or another option
    // follows ("for about nine hundred or ..."), never before a noun ("about two hundred homes").
    const ends =
      next === '' ||
      ['or', 'and', 'installed', 'total', 'all', 'plus', 'out', 'give', 'tops', 'flat', 'even'].includes(
        next,
      ) ||
      // "about nine hundred, parts and labour"
      (next === 'parts' && words[j + 1] === 'and');
    if (
      !money &&
      (total >= 1000 || ends) &&
      (words.slice(Math.max(0, i - 3), i).some((w) => PRICE_CONTEXT.has(w)) ||
        // "twelve nine for a full tear-off", or an amount in a turn about the price.
        (next === 'for' && ['a', 'the', 'all', 'everything', 'both'].includes(words[j + 1] ?? '')) ||
        talksMoney) &&
      !NOT_MONEY_UNITS.has(next)
    )
      money = true;
    if (['percent', 'year', 'years', 'month', 'months', 'day', 'days', 'minutes'].includes(next)) continue;
    if (money && total >= 100) found.push(total);
    i = j;
  }
  return found;
}
