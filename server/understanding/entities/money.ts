import { findClocks } from './clock';
import { cueAt, cueEndingAt, cueIn, cues, type CueList } from './cues';
import { isMultWord, readNumber, UNIT, TENS, TEEN, wordValue, type NumberPhrase } from './numbers';
import { round2, signed, tokenize, type Token } from './tokens';
import type { EntityContext, MoneyEntity, MoneyPer, MoneyRole } from './types';

/**
 * Every amount of money in a line, and only money: "ten-nine", "eighteen five", "9.5k",
 * "fourteen to fifteen thousand", "forty a month", "a buck fifty a foot", "two-fifty down".
 * A number is money when it is said as money (a currency, a rate, a price shorthand) or said
 * where money is talked about; it is not when it counts or measures something ("twelve thousand
 * floors", "two thousand square feet"), names a year, a time of day or an age.
 */

const C = (name: string) => cues('money', name);
const CURRENCY = C('CURRENCY_AFTER');
const COUNT_AFTER = C('COUNT_AFTER');
const PRICE_BEFORE = C('PRICE_BEFORE');
const PRICE_AFTER = C('PRICE_AFTER');
const MONEY_TALK = C('MONEY_TALK');
const YEAR_BEFORE = C('YEAR_BEFORE');
const ADDRESS_BEFORE = C('ADDRESS_BEFORE');
const PRICE_ONLY_BEFORE = C('PRICE_ONLY_BEFORE');
const PER_WORD = C('PER_WORD');
const PER_UNITS: [MoneyPer, CueList][] = [
  ['month', C('PER_MONTH')],
  ['year', C('PER_YEAR')],
  ['sqft', C('PER_SQFT')],
  ['hour', C('PER_HOUR')],
];
const PER_ITEM = C('PER_ITEM');
const LINEAR = C('LINEAR');
const PER_ALONE = C('PER_ALONE');
const CENTS = C('CENTS');
const ROLES: [MoneyRole, CueList][] = [
  ['deposit', C('ROLE_DEPOSIT')],
  ['saving', C('ROLE_SAVING')],
  ['other', C('ROLE_OTHER')],
  ['quote', C('ROLE_QUOTE')],
  ['paid', C('ROLE_PAID')],
  ['budget', C('ROLE_BUDGET')],
];

/** A number read as a possible amount, with what was said around it. */
interface Cand {
  /** Tokens of the whole mention (number, currency word, rate). */
  i: number;
  j: number;
  value: number;
  min?: number;
  max?: number;
  phrase: NumberPhrase;
  /** Said with a currency: "$", "dollars", "bucks", "grand", "k". */
  currency: boolean;
  per: MoneyPer;
  /** Said as a rate per item ("a step", "per window"): money, with no per label. */
  perItem: boolean;
  /** The number said without a multiplier and under 100 ("fourteen", "9.5"). */
  small: boolean;
  money: boolean;
  /** Said as a hyphenated modifier ("a three-hundred-dollar rebate"): a lump sum, never a rate. */
  compound?: boolean;
}

function isCurrencyWord(t: Token | undefined): boolean {
  return !!t && !t.digits && CURRENCY.words.has(t.base) && t.base !== 'grand';
}

/** A rate after token k-1: "a month", "per square foot", "/mo", "monthly", "a step". */
function readPer(tokens: Token[], k: number): { per: MoneyPer; item: boolean; end: number } | null {
  const t = tokens[k];
  if (!t) return null;
  if (/[.?!;]/.test(tokens[k - 1]?.after ?? '')) return null;
  if (cueAt(tokens, k, PER_ALONE)) {
    const w = t.base;
    const per: MoneyPer =
      w === 'monthly'
        ? 'month'
        : w === 'hourly'
          ? 'hour'
          : w === 'psf'
            ? 'sqft'
            : w === 'apiece'
              ? null
              : 'year';
    return { per, item: per === null, end: k };
  }
  const slash = (tokens[k - 1]?.after ?? '').includes('/');
  let u = k;
  if (!slash) {
    if (!cueAt(tokens, k, PER_WORD)) return null;
    u = k + 1;
  }
  for (const [per, list] of PER_UNITS) {
    const n = cueAt(tokens, u, list);
    if (n) {
      // "a month or two", "a year ago": a length of time, not a rate.
      const after = /[.?!;]/.test(tokens[u + n - 1].after) ? '' : tokens[u + n]?.base;
      const orNumber =
        after === 'or' && /^(one|two|three|four|five|six|\d+)$/.test(tokens[u + n + 1]?.base ?? '');
      if (
        (per === 'month' || per === 'year') &&
        (after === 'ago' || orNumber || after === 'later' || after === 'old')
      )
        return null;
      // "eleven dollars a foot" of gutter is a linear foot: a rate, with no per label.
      if (per === 'sqft' && cueIn(tokens, 0, tokens.length - 1, LINEAR) && !tokens[u].base.startsWith('sq'))
        return { per: null, item: true, end: u + n - 1 };
      return { per, item: false, end: u + n - 1 };
    }
  }
  if (cueAt(tokens, u, PER_ITEM)) return { per: null, item: true, end: u };
  return null;
}

function isCountNoun(tokens: Token[], k: number): boolean {
  const t = tokens[k];
  if ((tokens[k - 1]?.after ?? '').includes('%')) return true;
  if (!t || t.digits) return false;
  if (/[.?!;,]/.test(tokens[k - 1]?.after ?? '')) return false;
  if (t.base === 'of') {
    // "a thousand of that", "ten thousand of dollars" are money; "three of us" counts people.
    return (
      !['that', 'it', 'this', 'the'].includes(tokens[k + 1]?.base ?? '') && !isCurrencyWord(tokens[k + 1])
    );
  }
  // "two more quotes", "three other companies": a word between the number and what it counts.
  if (COUNT_BETWEEN.has(t.base) && !/[.?!;,]/.test(t.after) && cueAt(tokens, k + 1, COUNT_AFTER) > 0)
    return true;
  return cueAt(tokens, k, COUNT_AFTER) > 0;
}

const COUNT_BETWEEN = new Set([
  'more',
  'other',
  'different',
  'separate',
  'extra',
  'new',
  'old',
  'whole',
  'full',
  // "forty thousand happy customers": a word of praise between the number and what it counts.
  'happy',
  'satisfied',
]);

/** "1998", "twenty-ten", "nineteen seventy one", "two thousand four": a year, said as one. */
function yearLike(tokens: Token[], c: Cand): boolean {
  const p = c.phrase;
  const v = c.value;
  if (c.currency || c.per || c.perItem || c.min !== undefined) return false;
  const d = tokens[p.i].digits;
  let shaped = false;
  if (d) shaped = p.i === p.j && !d.grouped && !d.decimal && !d.suffix && /^(19|20)\d\d$/.test(d.plain);
  else if (p.form === 'pairs') shaped = v >= 1900 && v <= 2099;
  else if (p.form === 'cardinal' && p.mult === 'thousand') shaped = v >= 2000 && v <= 2039;
  if (!shaped) return false;
  // "in two thousand four", "since twenty-ten"; "around two thousand" is more likely a price.
  // "Two thousand eleven." said with no price word before it is a year too.
  if (p.form === 'cardinal')
    return (
      ['in', 'since', 'of', 'from', 'til', 'till', 'until', 'built'].includes(tokens[p.i - 1]?.base ?? '') ||
      (v > 2000 && !priceBefore(tokens, p.i))
    );
  if (cueEndingAt(tokens, p.i - 1, YEAR_BEFORE)) return true;
  // "nineteen ninety-nine installed", "runs about nineteen ninety-nine": said as a price.
  if (priceAfter(tokens, c.j) || cueEndingAt(tokens, p.i - 1, PRICE_ONLY_BEFORE)) return false;
  // A year said bare: money only with a price word right before it.
  const before = cueEndingAt(tokens, p.i - 1, PRICE_BEFORE);
  return !before || v <= 2035;
}

/** Reads candidate numbers and what is said with them. */
function readCandidates(tokens: Token[], claimed: Set<number>): Cand[] {
  const out: Cand[] = [];
  for (let i = 0; i < tokens.length; i++) {
    if (claimed.has(i)) continue;
    const special = readSpecial(tokens, i);
    if (special) {
      out.push(special);
      i = special.j;
      continue;
    }
    const p = readNumber(tokens, i);
    if (!p) continue;
    if (claimed.has(p.j)) continue;
    out.push(withSurroundings(tokens, p));
    i = out[out.length - 1].j;
  }
  return out;
}

function withSurroundings(tokens: Token[], p: NumberPhrase): Cand {
  let j = p.j;
  const d = tokens[p.i].digits;
  // "$12,400", "200€", "USD 500".
  const code =
    ['usd', 'eur', 'cad'].includes(tokens[p.i - 1]?.base ?? '') && !/[,.;!?]/.test(tokens[p.i - 1].after);
  let currency = signed(tokens[p.i]) || signed(tokens[p.j]) || code || p.mult === 'grand' || p.mult === 'k';
  let value = p.value;
  let compound = false;
  // "ten thousand of dollars": a currency after "of", as some say it.
  if (tokens[j + 1]?.base === 'of' && isCurrencyWord(tokens[j + 2]) && !/[.?!;,]/.test(tokens[j].after)) j++;
  // "fifty cents", "ninety-nine cents": cents, not dollars.
  if (cueAt(tokens, j + 1, CENTS) && value < 100 && !/[.?!;,]/.test(tokens[j].after)) {
    value = round2(value / 100);
    currency = true;
    j++;
  }
  // "four dollars and fifty", "two dollars fifty".
  if (isCurrencyWord(tokens[j + 1]) && !/[.?!;]/.test(tokens[j].after)) {
    currency = true;
    compound = tokens[j].after.includes('-');
    j++;
    const cents = readCentsAfter(tokens, j + 1);
    // "four dollars fifty"; "a hundred and twenty-five dollars and fifty cents".
    if (cents && (value < 100 || cueAt(tokens, cents.end, CENTS))) {
      value = round2(value + cents.value / 100);
      j = cents.end;
    }
  }
  const per = readPer(tokens, j + 1);
  if (per) j = per.end;
  const small = !p.mult && value < 100 && (p.bare || (!!d && !d.grouped));
  return {
    i: p.i,
    j,
    value,
    phrase: p,
    currency,
    per: per?.per ?? null,
    perItem: !!per?.item,
    small,
    money: false,
    compound,
  };
}

/** "and fifty", "fifty", "and fifty cents" after "four dollars". */
function readCentsAfter(tokens: Token[], k: number): { value: number; end: number } | null {
  let s = k;
  if (tokens[s]?.base === 'and') s++;
  const t = tokens[s];
  if (!t) return null;
  const tens = TENS[t.base];
  let v: number | undefined;
  let end = s;
  if (tens !== undefined) {
    const u = UNIT[tokens[s + 1]?.base ?? ''];
    v = u ? tens + u : tens;
    end = u ? s + 1 : s;
  } else if (TEEN[t.base] !== undefined) v = TEEN[t.base];
  else if (t.digits && !t.digits.decimal && t.digits.plain.length === 2) v = t.digits.value;
  if (v === undefined) return null;
  if (cueAt(tokens, end + 1, CENTS)) end++;
  return { value: v, end };
}

/** "a buck fifty", "a dollar twenty-five", "one dollar". */
function readSpecial(tokens: Token[], i: number): Cand | null {
  const t = tokens[i];
  if ((t.base === 'a' || t.base === 'one') && ['buck', 'dollar'].includes(tokens[i + 1]?.base ?? '')) {
    // "a buck and a half", "a dollar and a half".
    const half =
      tokens[i + 2]?.base === 'and' && tokens[i + 3]?.base === 'a' && tokens[i + 4]?.base === 'half';
    const cents = half ? null : readCentsAfter(tokens, i + 2);
    const value = half ? 1.5 : cents ? round2(1 + cents.value / 100) : 1;
    const j = half ? i + 4 : cents ? cents.end : i + 1;
    const p: NumberPhrase = { i, j, value, form: 'cardinal', mult: null, bare: false };
    const per = readPer(tokens, j + 1);
    return {
      i,
      j: per ? per.end : j,
      value,
      phrase: p,
      currency: true,
      per: per?.per ?? null,
      perItem: !!per?.item,
      small: false,
      money: false,
    };
  }
  return null;
}

/** Joins "fourteen to fifteen thousand", "5 or 6 grand", "between eight and ten", "14-16k". */
function joinRanges(tokens: Token[], cands: Cand[]): Cand[] {
  const out: Cand[] = [];
  for (let n = 0; n < cands.length; n++) {
    const a = cands[n];
    const b = cands[n + 1];
    if (b && rangeBetween(tokens, a, b)) {
      const scaled = scalePair(a, b);
      if (scaled) {
        const [lo, hi] = scaled;
        out.push({
          ...b,
          // "fourteen five to sixteen": the range is said the way its first end is.
          phrase: b.phrase.bare && !a.phrase.bare ? { ...a.phrase, j: b.phrase.j } : b.phrase,
          i: a.i,
          value: hi,
          min: lo,
          max: hi,
          currency: a.currency || b.currency,
          small: a.small && b.small,
          per: b.per ?? a.per,
          perItem: a.perItem || b.perItem,
        });
        n++;
        continue;
      }
    }
    out.push(a);
  }
  return out;
}

function rangeBetween(tokens: Token[], a: Cand, b: Cand): boolean {
  const gap = b.i - a.j - 1;
  const between =
    ['between', 'from'].includes(tokens[a.i - 1]?.base ?? '') ||
    (tokens[a.i - 2]?.base === 'somewhere' && tokens[a.i - 1]?.base === 'between') ||
    tokens[a.i - 2]?.base === 'between';
  if (a.per && a.per !== b.per) return false;
  if (gap === 0) {
    // "14-16k", "6-7 grand"; "thirteen, fourteen thousand"; "six seven thousand".
    const sep = tokens[a.j].after;
    if (sep.includes('-') || sep.includes('–')) return true;
    if (sep !== ',' && sep !== '') return false;
    if (a.phrase.bare && !b.phrase.bare && b.phrase.mult !== null) return true;
    // "like ten twelve", "five, six?": two bare numbers a step or two apart.
    return !!a.phrase.bare && !!b.phrase.bare && b.value > a.value && b.value - a.value <= 3 && a.value >= 2;
    return false;
  }
  if (gap !== 1) return false;
  const w = tokens[a.j + 1].base;
  if (/[.?!;]/.test(tokens[a.j].after)) return false;
  if (w === 'to' || w === 'or' || w === 'through' || w === 'thru') return true;
  if (w === 'and') return between;
  // "twenty two hundred maybe twenty three"; but "forty thousand, maybe forty five tops" is two.
  if (w === 'maybe')
    return !tokens[a.j].after.includes(',') && !['tops', 'max'].includes(tokens[b.j + 1]?.base ?? '');
  return false;
}

/** Gives both ends of a range the same scale; null when they do not make a range. */
function scalePair(a: Cand, b: Cand): [number, number] | null {
  let lo = a.value;
  let hi = b.value;
  const mult = (c: Cand) => (c.phrase.mult === 'hundred' ? 100 : c.phrase.mult ? 1000 : 1);
  if (a.small && !b.small) {
    const f = mult(b);
    if (f > 1 && lo * f <= hi) lo = round2(lo * f);
    else if (lo < 100 && hi >= 1000 && lo * 1000 <= hi) lo = round2(lo * 1000);
  } else if (b.small && !a.small && lo >= 1000) {
    if (hi * 1000 >= lo && hi * 1000 <= lo * 3) hi = round2(hi * 1000);
    else if (hi * 100 >= lo && hi * 100 <= lo * 3) hi = round2(hi * 100);
  }
  if (lo >= hi) return null;
  if (hi / Math.max(lo, 0.01) > 4) return null;
  return [lo, hi];
}

/** Whether the line (or part of it) talks about money. */
function talksMoney(tokens: Token[]): boolean {
  return tokens.some((t, i) => cueAt(tokens, i, MONEY_TALK) > 0 || signed(t));
}

interface Env {
  tokens: Token[];
  found: Cand[];
  lineMoney: boolean;
  prevMoney: MoneyEntity[];
  prevTalk: boolean;
  /** The line before, when it named no amount (what it asked about). */
  prevTokens: Token[] | null;
}

function priceBefore(tokens: Token[], i: number): boolean {
  if (tokens[i].before.includes('~')) return true;
  if (i > 0 && /[.?!;]/.test(tokens[i - 1].after)) return false;
  if (cueEndingAt(tokens, i - 1, PRICE_BEFORE)) return true;
  // "it's", "that's": the clitic is a copula.
  if (
    tokens[i - 1]?.clitic === 's' &&
    ['it', 'that', 'thats', 'its', 'what', 'which', 'total', 'price'].includes(tokens[i - 1].base)
  )
    return true;
  if (tokens[i - 1]?.base === 'the' && cueEndingAt(tokens, i - 2, PRICE_BEFORE)) return true;
  // "why is mine fourteen?", "was it eleven?": a copula and a pronoun.
  if (
    PRONOUN_SUBJECT.has(tokens[i - 1]?.base ?? '') &&
    ['is', 'was', 'be', "isn't", 'isnt'].includes(tokens[i - 2]?.base ?? '')
  )
    return true;
  return false;
}

const PRONOUN_SUBJECT = new Set([
  'it',
  'mine',
  'yours',
  'ours',
  'theirs',
  'his',
  'hers',
  'that',
  'this',
  'yours',
]);

function priceAfter(tokens: Token[], j: number, value = 0): boolean {
  if (/[.?!;]/.test(tokens[j].after)) return false;
  if (cueAt(tokens, j + 1, PRICE_AFTER) > 0) return true;
  // "a hundred fifty for the inspection": what a sum of a hundred or more is for.
  return (
    value >= 100 &&
    tokens[j + 1]?.base === 'for' &&
    ['the', 'a', 'an', 'your', 'that', 'this', 'both', 'each', 'all', 'everything', 'it'].includes(
      tokens[j + 2]?.base ?? '',
    )
  );
}

/**
 * "60 months or 120", "the 16 SEER is a grand more than the 14": a number set beside one that
 * counts something counts the same thing.
 */
function countedAlongside(tokens: Token[], c: Cand, env: Env): boolean {
  const p = c.phrase;
  if (!tokens[p.i].digits && !p.bare) return false;
  if (c.currency || c.per || c.perItem) return false;
  const joiner = tokens[c.i - 1]?.base;
  const before = env.found.find((o) => o.j === c.i - 2 && o !== c);
  if (before && ['or', 'to', 'and'].includes(joiner ?? '') && isCountNoun(tokens, before.j + 1)) return true;
  const beforeCounted = env.found.find((o) => o !== c && o.j + 2 === c.i - 1 && isCountNoun(tokens, o.j + 1));
  if (beforeCounted && ['or', 'to', 'and'].includes(joiner ?? '')) return true;
  if (!c.small || c.currency || c.per || c.perItem) return false;
  return env.found.some(
    (o) =>
      o !== c &&
      sameSentence(tokens, o, c) &&
      o.small &&
      !o.currency &&
      !o.per &&
      isCountNoun(tokens, o.j + 1) &&
      !isCountNoun(tokens, c.j + 1) &&
      modelNoun(tokens, o.j + 1),
  );
}

/** Whether no sentence ends between two candidates. */
function sameSentence(tokens: Token[], a: Cand, b: Cand): boolean {
  const [x, y] = a.i < b.i ? [a, b] : [b, a];
  for (let k = x.j; k < y.i; k++) if (/[.?!;]/.test(tokens[k].after)) return false;
  return true;
}

/** Units that name a model, a rating or a length of time ("16 SEER", "10 years"), which a bare number beside it shares. */
function modelNoun(tokens: Token[], k: number): boolean {
  return [
    'seer',
    'percent',
    'series',
    'model',
    'btu',
    'ton',
    'tons',
    'afue',
    'hspf',
    'year',
    'yr',
    'years',
    'yrs',
    'months',
    'weeks',
    'days',
    'hours',
    'minutes',
  ].includes(tokens[k]?.base ?? '');
}

/** A street address: "1418 Jefferson", "14 lincoln st". */
function addressAfter(tokens: Token[], c: Cand): boolean {
  const d = tokens[c.phrase.i].digits;
  if (!d || d.grouped || d.decimal || c.currency) return false;
  const n = tokens[c.j + 1];
  if (!n || n.digits || /[,.;!?]/.test(tokens[c.j].after)) return false;
  return n.capital && c.j + 1 > 0 && !['I'].includes(n.raw);
}

/** A plain plural noun right after token j ("a million questions", "two more quotes"). */
function pluralNounAfter(tokens: Token[], j: number): boolean {
  const n = tokens[j + 1];
  if (!n || n.digits || /[,.;!?]/.test(tokens[j].after)) return false;
  return /[a-z]{3,}s$/.test(n.base) && !n.clitic && !isCurrencyWord(n) && !cueAt(tokens, j + 1, PRICE_AFTER);
}

/** Decides whether a candidate read from digits or words with a multiplier is money. */
function isMoney(c: Cand, env: Env, strong: boolean): boolean {
  const { tokens } = env;
  const p = c.phrase;
  const dollar = signed(tokens[c.i]);
  // "ten grand-ish" is money; "six-ish" a time.
  const ish = c.currency && tokens[c.j + 1]?.base === 'ish';
  if (!dollar && !c.per && !c.perItem && !ish && isCountNoun(tokens, c.j + 1)) return false;
  if (!dollar && countedAlongside(tokens, c, env)) return false;
  if (c.currency || c.per || c.perItem) {
    if (c.small && !c.currency && c.value < 10 && !tokens[p.i].digits?.decimal && p.form === 'cardinal')
      return false;
    // "not one dollar more", "not a dime": a way of saying no.
    if (c.value <= 1 && ['not', 'no'].includes(tokens[c.i - 1]?.base ?? '')) return false;
    return true;
  }
  // "a million questions": a count, not money.
  if (p.mult === 'million') return !pluralNounAfter(tokens, c.j);
  if (yearLike(tokens, c)) return false;
  if (addressAfter(tokens, c) || addressBefore(tokens, c, env)) return false;
  if (c.small) return false;
  const d = tokens[p.i].digits;
  // Said the way prices are said: "fourteen thousand", "seventy-two hundred", "ten-nine".
  if (p.mult === 'thousand' && c.value >= 1000) return true;
  if (p.mult === 'hundred' && c.value >= 1000 && !d) return true;
  if (p.form === 'thousands-short') return true;
  // "twenty-two fifty", "forty-one seventy-five": hundreds said in pairs whose first part is no hour
  // and no century are a price by their shape.
  if (p.form === 'pairs' && p.parts && p.parts[0] > 12 && p.parts[0] !== 19 && p.parts[0] !== 20) return true;
  if (d && d.grouped) return true;
  if (strong) return false;
  const cue = priceBefore(tokens, c.i) || priceAfter(tokens, c.j, c.value);
  const context =
    env.lineMoney || env.prevMoney.length > 0 || env.prevTalk || env.found.some((f) => f.money && f !== c);
  // "about eleven hundred square feet ... maybe nine hundred": with no money about, a number set
  // beside one that counts something counts the same.
  if (!context && countedInLine(c, env)) return false;
  if (p.form === 'pairs' || p.form === 'hundreds-short') return cue || context;
  if (c.value < 100) return false;
  return cue || context;
}

function countedInLine(c: Cand, env: Env): boolean {
  const v = c.max ?? c.value;
  return env.found.some(
    (o) => o !== c && !o.currency && isCountNoun(env.tokens, o.j + 1) && o.value >= v / 4 && o.value <= v * 4,
  );
}

/** "the folks at 212 and 218", "lives at 1418": a house number. */
function addressBefore(tokens: Token[], c: Cand, env: Env): boolean {
  const d = tokens[c.i].digits;
  if (!d || d.grouped || d.decimal || c.currency || c.per || signed(tokens[c.i])) return false;
  if (cueEndingAt(tokens, c.i - 1, ADDRESS_BEFORE)) return true;
  // "the Garcias at 410": a family at a house number.
  const family = tokens[c.i - 2];
  if (tokens[c.i - 1]?.base === 'at' && family?.capital && /s$/.test(family.raw) && family.raw.length > 3)
    return true;
  // "212 and 218": a number joined to a house number is one too.
  const prev = env.found.find((o) => o.j === c.i - 2 && o !== c);
  return (
    !!prev &&
    ['and', 'or'].includes(tokens[c.i - 1].base) &&
    cueEndingAt(tokens, prev.i - 1, ADDRESS_BEFORE) > 0
  );
}

/** Words after a bare number that leave it free to be an amount ("around fourteen, and..."). */
const FREE_AFTER = new Set([
  'range',
  'ballpark',
  'and',
  'or',
  'but',
  'if',
  'for',
  'with',
  'maybe',
  'is',
  'was',
  'on',
  'to',
  'so',
  'then',
  'plus',
  'each',
  'tops',
  'max',
  'right',
  'now',
  'too',
  'all',
  'installed',
  'out',
  'i',
  'we',
  'you',
  'that',
  'this',
  'more',
  'less',
  'total',
  'even',
  'flat',
  'huh',
  'what',
  'okay',
  'ok',
  'jeez',
  'wow',
  'is',
  'are',
  "doesn't",
  'doesnt',
  'would',
  'will',
  'could',
  'can',
  'after',
  'before',
  'against',
  'vs',
  'versus',
  'in',
  'absolute',
  'at',
]);

/** Words right before a bare decimal that make it a price ("it runs seven point eight"). */
const PRICED = new Set(['for', 'runs', 'costs', 'cost', 'priced']);

const AGE_BEFORE = new Set(['am', "i'm", 'im', 'aged', 'age', 'turning', 'turned', 'turns']);

/**
 * A bare number set against an amount around it: "around fourteen" after "eleven grand", "your
 * six" after "about six thousand", "between eight and ten" after a price in thousands.
 */
function scaleSmall(c: Cand, env: Env): boolean {
  const { tokens } = env;
  const p = c.phrase;
  const t = tokens[p.i];
  if (c.value === 0 || (t.base === 'one' && c.min === undefined)) return false;
  if (isCountNoun(tokens, c.j + 1) || countedAlongside(tokens, c, env)) return false;
  if (AGE_BEFORE.has(tokens[p.i - 1]?.norm ?? '') || tokens[p.i - 1]?.clitic === 'm') return false;
  const next = tokens[c.j + 1];
  const end = !next || /[.?!;,]/.test(tokens[c.j].after);
  const free =
    end ||
    FREE_AFTER.has(next.norm) ||
    FREE_AFTER.has(next.base) ||
    t.clitic === 's' ||
    // "under eight honestly": an adverb leaves the number free.
    (/^[a-z]{3,}ly$/.test(next.base) &&
      !['only', 'early', 'family', 'supply', 'assembly'].includes(next.base));
  if (!free) return false;
  // "9.5", "nine point nine": a decimal said bare is a price in thousands, never whole dollars.
  const decimal =
    !!t.digits?.decimal ||
    (!t.digits && !Number.isInteger(c.value) && tokens.slice(p.i, p.j + 1).some((x) => x.base === 'point'));
  const base = c.min ?? c.value;
  // An echo of an amount just said: "Eleven thousand." ... "eleven was a good price".
  for (const m of env.prevMoney) {
    const v = m.value ?? m.max ?? 0;
    for (const f of [1000, 100, 1]) {
      if (c.min === undefined && base * f === v && (f > 1 || m.per || decimal)) {
        applyScale(c, f);
        if (m.per && !c.per) c.per = m.per;
        return true;
      }
    }
  }
  // "nearer to your fifty", "your six doesn't go near it": their figure, named by whose it is.
  const theirs = ['your', 'ur', 'our', 'my'].includes(tokens[c.i - 1]?.base ?? '');
  const cue =
    priceBefore(tokens, c.i) ||
    priceAfter(tokens, c.j) ||
    c.min !== undefined ||
    theirs ||
    aloneAsAnswer(tokens, c, env);
  if (!cue && !decimal && !(end && c.min !== undefined)) return false;
  const ref = nearestRef(c, env);
  if (!ref) {
    // An answer to "what's your budget?" or "how much?" in bare numbers is in thousands, and so
    // is a bare number put as a price in a line about money ("the mid package is 13.9").
    const priced = priceAfter(tokens, c.j) || PRICED.has(tokens[c.i - 1]?.base ?? '');
    if (!(env.prevTalk || env.lineMoney || (decimal && priced)) || base < 1 || base >= 100 || c.per)
      return false;
    // "on a scale of one to ten": the end of a scale.
    const left = tokens[c.i - 2];
    if (tokens[c.i - 1]?.base === 'to' && left && (left.digits || wordValue(left.base) !== undefined))
      return false;
    applyScale(c, 1000);
    return true;
  }
  const refValue = ref.max ?? ref.value ?? 0;
  for (const f of [1000, 100]) {
    const v = base * f;
    if (v >= refValue / 4 && v <= refValue * 4) {
      applyScale(c, f);
      return true;
    }
  }
  // A rate against a rate: "eight-fifty a foot? The guy from Carpet One said five."
  if (ref.per && base >= refValue / 4 && base <= refValue * 4 && priceBefore(tokens, c.i)) {
    c.per = ref.per;
    return true;
  }
  return false;
}

/** "Thirty-five." as the whole answer to a line about money. */
function aloneAsAnswer(tokens: Token[], c: Cand, env: Env): boolean {
  const start = c.i === 0 || /[.?!;]/.test(tokens[c.i - 1].after);
  return start && /[.?!;,]/.test(tokens[c.j].after) && env.prevTalk;
}

function nearestRef(c: Cand, env: Env): { value?: number; max?: number; per: MoneyPer } | null {
  let best: Cand | null = null;
  for (const f of env.found)
    if (f.money && f !== c && (!best || Math.abs(f.i - c.i) < Math.abs(best.i - c.i))) best = f;
  if (best) return best;
  return env.prevMoney[env.prevMoney.length - 1] ?? null;
}

function applyScale(c: Cand, f: number): void {
  c.value = round2(c.value * f);
  if (c.min !== undefined) c.min = round2(c.min * f);
  if (c.max !== undefined) c.max = round2(c.max * f);
}

/** "six fifty a square foot" is $6.50, not $650: a rate per foot is read in dollars and cents. */
function fixPerFoot(c: Cand): void {
  const f = c.phrase.form;
  if (c.per === 'sqft' && (f === 'hundreds-short' || f === 'pairs') && c.value >= 100 && !c.currency)
    c.value = round2(c.value / 100);
}

function roleOf(c: Cand, env: Env, ctx: EntityContext): MoneyRole {
  const { tokens } = env;
  const from = Math.max(0, clauseStart(tokens, c.i) - 1);
  const to = Math.min(tokens.length - 1, clauseEnd(tokens, c.j));
  // A cue right after the amount first ("two-fifty down", "five hundred off"); but "zero down" is no deposit.
  for (let k = c.j + 1; k <= Math.min(tokens.length - 1, c.j + 2); k++) {
    for (const [role, list] of ROLES.slice(0, 2))
      if (cueAt(tokens, k, list) && !(role === 'deposit' && NONE.has(tokens[k - 1]?.base ?? ''))) return role;
  }
  // An amount said back keeps what it was for ("Six-fifty I can do" after "Repair is about six-fifty").
  const same = env.prevMoney.find((m) => (m.value ?? m.max) === (c.max ?? c.value));
  if (same) return same.role;
  let best: { role: MoneyRole; dist: number } | null = null;
  for (let k = from; k <= to; k++) {
    if (k >= c.i && k <= c.j) continue;
    // A cue beyond another amount is that amount's, unless the two are said as alternatives
    // ("under eight, maybe ten").
    const beyond = (o: Cand) => (k < c.i ? o.i > k && o.j < c.i : o.i > c.j && o.j < k);
    const apart = (o: Cand) => (o.j < c.i ? c.i - o.j : o.i - c.j) > 3;
    if (env.found.some((o) => o !== c && o.money && beyond(o) && apart(o))) continue;
    for (const [role, list] of ROLES) {
      if (!cueAt(tokens, k, list) || !roleCueHolds(role, tokens, k, from, to, ctx)) continue;
      const dist = k < c.i ? c.i - k : k - c.j;
      if (!best || dist < best.dist) best = { role, dist };
    }
  }
  if (best && best.dist <= 8) return best.role;
  // "Thirty-five." to "What number would you be comfortable with?": an answer about a budget.
  const asked = env.prevTokens;
  if (ctx.speaker === 'homeowner' && asked && cueIn(asked, 0, asked.length - 1, BUDGET)) return 'budget';
  return 'price';
}

const BUDGET = C('ROLE_BUDGET');

const NONE = new Set(['zero', 'no', 'nothing', '0', 'money']);
const OTHER_PARTY = C('OTHER_PARTY');
const SECOND_PERSON = new Set(['you', 'your', 'u', 'ur', 'yall', "y'all", 'yours']);

/**
 * Whether a role cue found near an amount holds for the speaker: a rep's "quote" is their own
 * price unless another company is named, a rep names a budget only as the homeowner's ("your
 * budget"), and "zero down" is no deposit.
 */
function roleCueHolds(
  role: MoneyRole,
  tokens: Token[],
  k: number,
  from: number,
  to: number,
  ctx: EntityContext,
): boolean {
  if (role === 'deposit') return !NONE.has(tokens[k - 1]?.base ?? '');
  if (role === 'quote' && ctx.speaker === 'rep') return cueIn(tokens, from, to, OTHER_PARTY);
  if (role === 'budget' && ctx.speaker === 'rep')
    return tokens.slice(from, to + 1).some((t) => SECOND_PERSON.has(t.base) || SECOND_PERSON.has(t.norm));
  return true;
}

function clauseEnd(tokens: Token[], j: number): number {
  let k = j;
  while (k < tokens.length - 1 && !/[.?!;]/.test(tokens[k].after)) k++;
  return Math.min(k, j + 6);
}

function clauseStart(tokens: Token[], i: number): number {
  let k = i;
  while (k > 0 && !/[.?!;]/.test(tokens[k - 1].after)) k--;
  return k;
}

/** A rate said once covers the amounts set against it: "three-eighty a month... or two-ninety". */
function inheritPer(cands: Cand[], env: Env): void {
  for (const c of cands) {
    if (!c.money || c.per || c.perItem || c.compound) continue;
    const v = c.max ?? c.value;
    const prev = env.prevMoney.find((m) => m.per && (m.value ?? m.max) === v);
    if (prev) {
      c.per = prev.per;
      continue;
    }
    // "about two fifty a month" ... "could cut that to maybe one seventy-five": the same rate.
    const rates = env.prevMoney.filter((m) => m.per);
    const lumps = cands.some((o) => o !== c && o.money && !o.per);
    if (rates.length === 1 && !lumps && !env.prevMoney.some((m) => !m.per)) {
      const r = rates[0].value ?? rates[0].max ?? 0;
      if (v >= r / 3 && v <= r * 3 && !cands.some((o) => o !== c && o.per)) {
        c.per = rates[0].per;
        continue;
      }
    }
    const rated = cands.filter((o) => o !== c && o.money && o.per && o.i < c.i);
    const last = rated[rated.length - 1];
    if (!last) continue;
    const r = last.max ?? last.value;
    // "nine-fifty a square foot ... five-twenty": a rate read in cents is set against dollars.
    const f = c.phrase.form;
    const w = last.per === 'sqft' && (f === 'hundreds-short' || f === 'pairs') && !c.currency ? v / 100 : v;
    if (w >= r / 3 && w <= r * 3) c.per = last.per;
  }
}

const MONTHLY = new Set(['monthly']);
const RATE_QUESTION = new Set([
  'much',
  'cost',
  'costs',
  'price',
  'run',
  'runs',
  'charge',
  'payment',
  'payments',
  'monthly',
  "what's",
  'whats',
  'rate',
]);

/** The rate a line asks about with no amount said: "what's the monthly?", "how much a square foot?". */
function rateAsked(tokens: Token[]): MoneyPer {
  // "how many windows a month": a count asked about; "destroyed it in a year": no question.
  if (tokens.some((t) => t.base === 'many') || !tokens.some((t) => /\?/.test(t.after))) return null;
  if (!tokens.some((t) => RATE_QUESTION.has(t.norm) || RATE_QUESTION.has(t.base + t.clitic))) return null;
  for (let k = 0; k < tokens.length; k++) {
    if (MONTHLY.has(tokens[k].base)) return 'month';
    const per = readPer(tokens, k);
    if (per?.per && ['a', 'an', 'per', 'each', 'every'].includes(tokens[k].base)) return per.per;
  }
  return null;
}

export function findMoney(text: string, ctx: EntityContext = {}): MoneyEntity[] {
  const tokens = tokenize(text);
  if (!tokens.some(mayBeNumber)) return [];
  const prevTokens = ctx.previous ? tokenize(ctx.previous) : null;
  const claimed = new Set<number>();
  for (const c of findClocks(tokens, prevTokens)) for (let k = c.i; k <= c.j; k++) claimed.add(k);
  const prevMoney = ctx.previous
    ? findMoney(ctx.previous, { speaker: ctx.speaker === 'rep' ? 'homeowner' : 'rep' })
    : [];
  const cands = joinRanges(tokens, readCandidates(tokens, claimed));
  const env: Env = {
    tokens,
    found: cands,
    lineMoney: talksMoney(tokens),
    prevMoney,
    prevTalk: !!prevTokens && (talksMoney(prevTokens) || rateAsked(prevTokens) !== null),
    prevTokens: prevMoney.length ? null : prevTokens,
  };
  // Amounts said as money first, then those that need the others for context, then bare numbers.
  for (const c of cands) c.money = isMoney(c, env, true);
  for (const c of cands) if (!c.money) c.money = isMoney(c, env, false);
  for (const c of cands) if (c.money) fixPerFoot(c);
  for (const c of cands) if (!c.money && c.small && !c.currency) c.money = scaleSmall(c, env);
  inheritPer(cands, env);
  const monthly = tokens.some((t) => MONTHLY.has(t.base));
  // "What's the monthly on that?" ... "One forty-nine.": the rate asked about.
  const asked = !prevMoney.length && prevTokens ? rateAsked(prevTokens) : null;
  const alone = cands.filter((c) => c.money).length === 1;
  for (const c of cands) {
    if (!c.money) continue;
    const bare = !c.per && !c.perItem && !c.compound;
    if (monthly && bare && (c.max ?? c.value) < 2000) c.per = 'month';
    const f = c.phrase.form;
    const cents = asked === 'sqft' && (f === 'hundreds-short' || f === 'pairs') && !c.currency ? 100 : 1;
    if (asked && alone && bare && (c.max ?? c.value) / cents < (asked === 'sqft' ? 100 : 2000)) c.per = asked;
    fixPerFoot(c);
  }
  return cands
    .filter((c) => c.money)
    .map((c) => {
      const sign = text.slice(Math.max(0, tokens[c.i].start - 2), tokens[c.i].start).search(/[$£€]/);
      const start = sign >= 0 ? Math.max(0, tokens[c.i].start - 2) + sign : tokens[c.i].start;
      const end = tokens[c.j].end;
      const base = { start, end, text: text.slice(start, end), per: c.per, role: roleOf(c, env, ctx) };
      return c.min !== undefined ? { ...base, min: c.min, max: c.max } : { ...base, value: c.value };
    });
}

function mayBeNumber(t: Token): boolean {
  const w = t.base;
  return (
    !!t.digits ||
    UNIT[w] !== undefined ||
    TEEN[w] !== undefined ||
    TENS[w] !== undefined ||
    isMultWord(t) ||
    w === 'buck' ||
    w === 'dollar'
  );
}
