import { round2, signed, type Token } from './tokens';

/**
 * Numbers as people say them at a kitchen table: "twelve thousand four hundred", "a hundred and
 * twenty-five", "forty-eight hundred", "9.5k", "nine and a half grand", and the shorthand reps use
 * for prices: "ten-nine" (10,900), "eighteen five" (18,500), "twenty-two fifty" (2,250),
 * "two-fifty" (250). What the number counts (money, a time, a year, square feet) is for the
 * readers to decide; this only says what number the words make and how it was said.
 */

export type NumberForm =
  /** "12,400", "9.5k", "48 hundred": written with digits. */
  | 'digits'
  /** "twelve thousand four hundred", "a hundred and twenty-five", "forty": ordinary words. */
  | 'cardinal'
  /** "ten-nine", "eighteen five": thousands and hundreds, the way prices are read out. */
  | 'thousands-short'
  /** "twenty-two fifty", "eighteen seventy-five": hundreds said in pairs. */
  | 'pairs'
  /** "two-fifty", "three seventy-five": hundreds and the rest. */
  | 'hundreds-short';

export interface NumberPhrase {
  /** First and last token (inclusive). */
  i: number;
  j: number;
  value: number;
  form: NumberForm;
  /** The largest multiplier said: "thousand", "grand", "k", "hundred", "million", or null. */
  mult: 'thousand' | 'grand' | 'k' | 'hundred' | 'million' | null;
  /** Said in words as a plain number under 100 with no multiplier ("eight", "forty"). */
  bare: boolean;
  /** The first (tens/teens) and second parts of a two-part shorthand, for reading it as a time. */
  parts?: [number, number];
}

export const UNIT: Record<string, number> = {
  zero: 0,
  one: 1,
  two: 2,
  three: 3,
  four: 4,
  five: 5,
  six: 6,
  seven: 7,
  eight: 8,
  nine: 9,
};
export const TEEN: Record<string, number> = {
  ten: 10,
  eleven: 11,
  twelve: 12,
  thirteen: 13,
  fourteen: 14,
  fifteen: 15,
  sixteen: 16,
  seventeen: 17,
  eighteen: 18,
  nineteen: 19,
};
export const TENS: Record<string, number> = {
  twenty: 20,
  thirty: 30,
  forty: 40,
  fourty: 40,
  fifty: 50,
  sixty: 60,
  seventy: 70,
  eighty: 80,
  ninety: 90,
};

/**
 * The number words from one to ninety as they are written ("zero" and the misspelt "fourty" left
 * out), in counting order, with their values: the one table every reader that names number words
 * builds on (word patterns, price shorthand, counts a coaching text states).
 */
export const COUNTING_WORDS: Readonly<Record<string, number>> = Object.fromEntries(
  [...Object.entries(UNIT), ...Object.entries(TEEN), ...Object.entries(TENS)].filter(
    ([w]) => w !== 'zero' && w !== 'fourty',
  ),
);

/** A pattern source matching any of the given number words, in the order given: "(one|two|...)". */
export const wordAlternation = (words: readonly string[]): string => `(${words.join('|')})`;

const MULT: Record<string, NonNullable<NumberPhrase['mult']>> = {
  thousand: 'thousand',
  thousands: 'thousand',
  grand: 'grand',
  k: 'k',
  hundred: 'hundred',
  million: 'million',
  mil: 'million',
  hunnert: 'hundred',
  hunnid: 'hundred',
  hunned: 'hundred',
  hunnerd: 'hundred',
  hundrd: 'hundred',
  // Slang for thousands of dollars: "five thou", "12 G's", "twelve large".
  thou: 'grand',
  g: 'grand',
  gs: 'grand',
  large: 'grand',
};

/** Slang multipliers that are also ordinary words: a multiplier only with no noun after them. */
const SLANG_MULT = new Set(['large', 'g', 'gs']);
const AFTER_SLANG = new Set([
  'for',
  'to',
  'and',
  'or',
  'is',
  'was',
  'tops',
  'max',
  'on',
  'in',
  'down',
  'out',
  'plus',
  'with',
  'man',
  'bro',
  'dude',
  'easy',
  'cash',
]);

export function wordValue(w: string): number | undefined {
  return UNIT[w] ?? TEEN[w] ?? TENS[w];
}

export function isNumberWord(t: Token | undefined): boolean {
  if (!t) return false;
  return !!t.digits || wordValue(t.base) !== undefined || t.base === 'hundred' || t.base === 'thousand';
}

interface Small {
  value: number;
  end: number;
  /** Tens then units, "twenty-two": two words. */
  compound: boolean;
}

/** 0..99 in words at token i: "forty", "twenty-two", "twenty two", "eighteen". */
function readSmall(tokens: Token[], i: number): Small | null {
  const t = tokens[i];
  if (!t || t.digits) return null;
  const w = t.base;
  if (TENS[w] !== undefined) {
    const next = tokens[i + 1];
    const u = next && !next.digits ? UNIT[next.base] : undefined;
    // "twenty-two", "twenty two": but not "twenty, two" across a comma.
    if (u !== undefined && u > 0 && !/[,.;!?]/.test(t.after))
      return { value: TENS[w] + u, end: i + 1, compound: true };
    return { value: TENS[w], end: i, compound: false };
  }
  if (TEEN[w] !== undefined) return { value: TEEN[w], end: i, compound: false };
  if (UNIT[w] !== undefined) return { value: UNIT[w], end: i, compound: false };
  return null;
}

/** A small number written in digits (no decimal, no suffix): "8", "48". */
function readSmallDigits(tokens: Token[], i: number): Small | null {
  const d = tokens[i]?.digits;
  if (!d || d.clock || d.suffix || d.decimal || d.grouped) return null;
  return { value: d.value, end: i, compound: false };
}

/** A word that multiplies the number before it: "thousand", "grand", "k", "hunnert". */
export function isMultWord(t: Token | undefined): boolean {
  return !!t && !t.digits && MULT[t.base] !== undefined;
}

function multAt(tokens: Token[], i: number): NumberPhrase['mult'] {
  const t = tokens[i];
  if (!t || t.digits) return null;
  // "9 k": a k on its own after a number.
  const m = MULT[t.base] ?? null;
  if (m && SLANG_MULT.has(t.base)) {
    const n = tokens[i + 1];
    if (n && !/[,.;!?]/.test(t.after) && !AFTER_SLANG.has(n.base)) return null;
  }
  return m;
}

function multValue(m: NonNullable<NumberPhrase['mult']>): number {
  if (m === 'hundred') return 100;
  if (m === 'million') return 1_000_000;
  return 1000;
}

/** "and a half" at token i: returns the index of "half", or -1. */
function andAHalf(tokens: Token[], i: number): number {
  if (tokens[i]?.base === 'and' && tokens[i + 1]?.base === 'a' && tokens[i + 2]?.base === 'half')
    return i + 2;
  return -1;
}

/** Joined to the next word without a comma or full stop in between. */
function joined(t: Token | undefined): boolean {
  return !!t && !/[,.;!?]/.test(t.after);
}

/**
 * The number that starts at token i, if one does, read as far as it goes.
 */
export function readNumber(tokens: Token[], i: number): NumberPhrase | null {
  const t = tokens[i];
  if (!t) return null;
  if (t.digits) return readDigitsPhrase(tokens, i);
  return readWords(tokens, i);
}

function readDigitsPhrase(tokens: Token[], i: number): NumberPhrase | null {
  const d = tokens[i].digits!;
  if (d.clock) return null;
  // "12th", "1990s", "50/50": a date, a decade, a ratio.
  if (['st', 'nd', 'rd', 'th', 's', 'x'].includes(d.suffix)) return null;
  // "555-0142": a phone number.
  if (
    /^\d{3}$/.test(d.plain) &&
    tokens[i].after === '-' &&
    /^\d{4}$/.test(tokens[i + 1]?.digits?.plain ?? '')
  )
    return null;
  if (
    /^\d{4}$/.test(d.plain) &&
    tokens[i].before === '-' &&
    /^\d{3}$/.test(tokens[i - 1]?.digits?.plain ?? '')
  )
    return null;
  // "50/50", "24/7", "3/14": a ratio or a date; but "980 / 12,400" are two amounts.
  const small = (t: Token | undefined) => !!t?.digits && t.digits.value <= 100;
  if (tokens[i].after.includes('/') && tokens[i + 1]?.digits && small(tokens[i]) && small(tokens[i + 1]))
    return null;
  if (tokens[i].before.includes('/') && tokens[i - 1]?.digits && small(tokens[i]) && small(tokens[i - 1]))
    return null;
  let value = d.value;
  let j = i;
  // "12 000 dollars": thousands set apart by a space, as much of the world writes them.
  const group = tokens[i + 1]?.digits;
  if (
    group &&
    !d.decimal &&
    !d.suffix &&
    /^\d{1,3}$/.test(d.plain) &&
    /^\d{3}$/.test(group.plain) &&
    tokens[i].after === '' &&
    (group.plain === '000' ||
      signed(tokens[i]) ||
      ['dollars', 'bucks', 'usd', 'euros'].includes(tokens[i + 2]?.base ?? ''))
  ) {
    value = d.value * 1000 + group.value;
    j = i + 1;
  }
  let mult: NumberPhrase['mult'] = d.suffix === 'k' ? 'k' : d.suffix === 'm' ? 'million' : null;
  if (!mult && j === i && joined(tokens[i])) {
    const half = andAHalf(tokens, i + 1);
    const mAt = half > 0 ? half + 1 : i + 1;
    const m = multAt(tokens, mAt);
    // "48 hundred", "12 grand", "9 and a half k", "1.2 million".
    if (m) {
      value = (value + (half > 0 ? 0.5 : 0)) * multValue(m);
      mult = m;
      j = mAt;
    }
  }
  return { i, j, value: round2(value), form: 'digits', mult, bare: false };
}

function readWords(tokens: Token[], i: number): NumberPhrase | null {
  const w = tokens[i].base;
  // "a hundred", "a grand", "a thousand", "a couple grand", "couple hundred bucks".
  // "half a grand", "half a million".
  if (
    w === 'half' &&
    tokens[i + 1]?.base === 'a' &&
    multAt(tokens, i + 2) &&
    multAt(tokens, i + 2) !== 'hundred'
  ) {
    const card = readCardinal(tokens, i, 1, i + 2);
    if (card) return { ...card, value: round2(card.value / 2) };
  }
  if (w === 'a' || w === 'an' || w === 'couple') {
    let k = i + 1;
    let n = 1;
    if (w === 'couple' || tokens[k]?.base === 'couple') {
      n = 2;
      if (tokens[k]?.base === 'couple') k++;
      if (tokens[k]?.base === 'of') k++;
    }
    if (!multAt(tokens, k)) return null;
    // "N-O-W-A-K": letters spelled out, not "a k".
    if (tokens[k].base.length === 1) return null;
    return readCardinal(tokens, i, n, k);
  }
  // "another hundred and twenty-five", "hundred dollar": a hundred with no number before it; but
  // "a few hundred", "several thousand" say no amount.
  const vague = ['few', 'several', 'many'].includes(tokens[i - 1]?.base ?? '');
  if (w === 'hundred' && !isNumberWord(tokens[i - 1]) && !vague) return readCardinal(tokens, i, 1, i);
  // "the thousand", "our thousand-dollar deductible": one thousand, named as a known amount.
  if (w === 'thousand' && !isNumberWord(tokens[i - 1]) && !vague && theThousand(tokens, i))
    return readCardinal(tokens, i, 1, i);
  const first = readSmall(tokens, i) ?? readSmallDigits(tokens, i);
  if (!first) return null;
  // "ten-ish grand": the approximation sits between the number and its multiplier.
  if (
    tokens[first.end + 1]?.base === 'ish' &&
    joined(tokens[first.end + 1]) &&
    multAt(tokens, first.end + 2)
  ) {
    const card = readCardinal(tokens, i, first.value, first.end + 2);
    if (card) return card;
  }
  const next = first.end + 1;
  if (
    joined(tokens[first.end]) &&
    (multAt(tokens, next) || andAHalf(tokens, next) > 0 || tokens[next]?.base === 'point')
  ) {
    const card = readCardinal(tokens, i, first.value, next);
    if (card) return card;
  }
  // "three point five", "nine point nine": a decimal said with no multiplier, for the context to scale.
  const point = joined(tokens[first.end]) && !first.compound ? readPoint(tokens, first.end + 1) : null;
  if (point && !multAt(tokens, point.end + 1))
    return {
      i,
      j: point.end,
      value: round2(first.value + point.frac),
      form: 'cardinal',
      mult: null,
      bare: true,
    };
  const short = readShorthand(tokens, i, first);
  if (short) return short;
  // "four and a half" with no multiplier: a bare number the context may scale.
  const half = joined(tokens[first.end]) ? andAHalf(tokens, first.end + 1) : -1;
  if (half > 0) return { i, j: half, value: first.value + 0.5, form: 'cardinal', mult: null, bare: true };
  return { i, j: first.end, value: first.value, form: 'cardinal', mult: null, bare: true };
}

const DETERMINER = new Set(['the', 'our', 'your', 'ur', 'my', 'his', 'her', 'their', 'that', 'this']);

/** "the thousand", "a thousand-dollar deductible": a thousand with no number said before it. */
function theThousand(tokens: Token[], i: number): boolean {
  const next = tokens[i + 1];
  const dollar = !!next && ['dollar', 'dollars'].includes(next.base) && !/[,.;!?]/.test(tokens[i].after);
  return dollar || DETERMINER.has(tokens[i - 1]?.base ?? '');
}

/** "point five": the decimal part after "point", as a fraction, with the last token index. */
function readPoint(tokens: Token[], k: number): { frac: number; end: number } | null {
  if (tokens[k]?.base !== 'point') return null;
  let digits = '';
  let e = k + 1;
  while (tokens[e] && UNIT[tokens[e].base] !== undefined && digits.length < 2) {
    digits += String(UNIT[tokens[e].base]);
    e++;
  }
  if (!digits) return null;
  return { frac: Number(`0.${digits}`), end: e - 1 };
}

/**
 * A number with multipliers: `lead` is the value read before token k, which holds a multiplier,
 * "and a half" or "point". "twelve thousand four hundred", "forty-eight hundred and fifty",
 * "nine and a half grand", "nine point five k", "a hundred and twenty-five".
 */
function readCardinal(tokens: Token[], i: number, lead: number, k: number): NumberPhrase | null {
  let cur = lead;
  let total = 0;
  let top: NumberPhrase['mult'] = null;
  let j = k - 1;
  const point = readPoint(tokens, k);
  if (point) {
    cur += point.frac;
    k = point.end + 1;
    j = point.end;
  }
  const half = andAHalf(tokens, k);
  if (half > 0 && multAt(tokens, half + 1)) {
    cur += 0.5;
    k = half + 1;
  }
  for (;;) {
    const m = multAt(tokens, k);
    if (!m) break;
    if (m === 'hundred') {
      if (cur >= 100) break;
      cur = (cur || 1) * 100;
    } else {
      const scale = multValue(m);
      if (total && total < cur * scale) break;
      total += cur * scale;
      cur = 0;
    }
    if (!top || multValue(m) > multValue(top)) top = m;
    j = k;
    k++;
    // "a grand and a half", "a thousand and a half".
    const h = andAHalf(tokens, k);
    if (h > 0 && m !== 'hundred' && cur === 0) {
      total += multValue(m) / 2;
      j = h;
      break;
    }
    // The rest: "four hundred", "and fifty", "and twenty-five", "five" (hundreds after thousands).
    const rest = readRest(tokens, k, m, total, cur);
    if (!rest) break;
    if (rest.kind === 'mult-lead') {
      cur = rest.value;
      k = rest.end + 1;
      continue;
    }
    cur += rest.value;
    j = rest.end;
    k = rest.end + 1;
  }
  const value = round2(total + cur);
  if (!top) return null;
  return { i, j, value, form: 'cardinal', mult: top, bare: false };
}

/**
 * What follows a multiplier: a lead for the next multiplier ("twelve thousand FOUR hundred"), a
 * final small number ("a hundred AND TWENTY-FIVE"), or, after ten thousand or more, a single digit
 * meaning hundreds ("fourteen thousand FIVE").
 */
function readRest(
  tokens: Token[],
  k: number,
  m: NonNullable<NumberPhrase['mult']>,
  total: number,
  cur: number,
): { kind: 'mult-lead' | 'final'; value: number; end: number } | null {
  // "eleven thousand, nine hundred and ninety": a comma before the hundreds of a long number.
  const hundredsNext = m !== 'hundred' && multAt(tokens, k + 1) === 'hundred' && !!readSmall(tokens, k);
  if (!joined(tokens[k - 1]) && !(hundredsNext && /^,$/.test(tokens[k - 1].after))) return null;
  let s = k;
  if (tokens[s]?.base === 'and') s++;
  const small = readSmall(tokens, s) ?? readSmallDigits(tokens, s);
  if (!small || small.value === 0) return null;
  // "the twelve-thousand one", "the eight hundred one": "one" is the thing priced.
  if (s === k && tokens[s].base === 'one') return null;
  const after = small.end + 1;
  const nextMult = joined(tokens[small.end]) ? multAt(tokens, after) : null;
  if (nextMult === 'hundred' && m !== 'hundred' && cur === 0 && small.value < 100)
    return { kind: 'mult-lead', value: small.value, end: small.end };
  if (nextMult) return null;
  if (m === 'hundred') return { kind: 'final', value: small.value, end: small.end };
  // "seven thousand two fifty": hundreds said as a pair after the thousands.
  const pair =
    small.value < 10 && s === k && joined(tokens[small.end]) ? readSmall(tokens, small.end + 1) : null;
  if (pair && pair.value >= 10 && !(joined(tokens[pair.end]) && multAt(tokens, pair.end + 1)))
    return { kind: 'final', value: small.value * 100 + pair.value, end: pair.end };
  // After thousands: "twelve thousand and fifty", or "fourteen thousand five" (= 14,500).
  // "fourteen thousand five", "seven thousand two": hundreds; but "two thousand nine" is a year.
  if (small.value < 10 && total >= 1000 && total !== 2000 && s === k && !countsNext(tokens, small.end))
    return { kind: 'final', value: small.value * 100, end: small.end };
  // "nine thousand four years ago": the small number counts what follows it.
  if (countsNext(tokens, small.end)) return null;
  return { kind: 'final', value: small.value, end: small.end };
}

/** A plain plural noun right after token j: the number before it counts it ("four years"). */
function countsNext(tokens: Token[], j: number): boolean {
  const n = tokens[j + 1];
  if (!n || n.digits || !joined(tokens[j])) return false;
  return (
    /^[a-z]{3,}s$/.test(n.base) &&
    !n.clitic &&
    !['dollars', 'bucks', 'thousands', 'hundreds'].includes(n.base)
  );
}

/**
 * Shorthand with no multiplier: "ten-nine" (10,900), "eighteen five" (18,500), "twenty-two fifty"
 * (2,250), "two-fifty" (250), "a buck fifty" is read by the money reader.
 */
function readShorthand(tokens: Token[], i: number, first: Small): NumberPhrase | null {
  if (tokens[i].digits) return null;
  if (!joined(tokens[first.end])) return null;
  const k = first.end + 1;
  const second = readSmall(tokens, k);
  if (!second || second.value === 0) return null;
  // A multiplier after the second part makes it a list or a range of its own ("ten, twelve
  // thousand"): leave it.
  if (joined(tokens[second.end]) && multAt(tokens, second.end + 1)) return null;
  const a = first.value;
  const b = second.value;
  const parts: [number, number] = [a, b];
  // "four-nine", "nine-eight": two digits joined by a hyphen are thousands and hundreds.
  if (a >= 1 && a < 10 && b >= 1 && b < 10 && tokens[first.end].after.includes('-') && !first.compound)
    return {
      i,
      j: second.end,
      value: a * 1000 + b * 100,
      form: 'thousands-short',
      mult: null,
      bare: false,
      parts,
    };
  if (a >= 10 && b < 10 && !second.compound) {
    // "eleven nine ninety", "fourteen nine ninety-five": the tens and units said after.
    const third = joined(tokens[second.end]) ? readSmall(tokens, second.end + 1) : null;
    const tail = third && third.value >= 10 && !(joined(tokens[third.end]) && multAt(tokens, third.end + 1));
    return {
      i,
      j: tail ? third.end : second.end,
      value: a * 1000 + b * 100 + (tail ? third.value : 0),
      form: 'thousands-short',
      mult: null,
      bare: false,
      parts,
    };
  }
  // "ten twelve", "thirteen fourteen": two numbers a step or two apart are a range said bare, not
  // 1,012; but "nineteen twenty", "twenty twenty-two" are years.
  if (a >= 10 && b > a && b - a <= 3 && a !== 19 && a !== 20) return null;
  if (a >= 10 && b >= 10) {
    return { i, j: second.end, value: a * 100 + b, form: 'pairs', mult: null, bare: false, parts };
  }
  if (a >= 1 && a < 10 && b >= 10) {
    return { i, j: second.end, value: a * 100 + b, form: 'hundreds-short', mult: null, bare: false, parts };
  }
  return null;
}
