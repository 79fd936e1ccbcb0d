import { findClocks } from './clock';
import { cueAt, cueEndingAt, cueIn, cues, type CueList } from './cues';
import { readNumber, UNIT, TENS, TEEN, wordValue, type NumberPhrase } from './numbers';
import { round2, tokenize, type Token } from './tokens';
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
  if (!t || t.digits) return false;
  if (/[.?!;,]/.test(tokens[k - 1]?.after ?? '')) return false;
  if ((tokens[k - 1]?.after ?? '').includes('%')) return true;
  if (t.base === 'of') {
    // "a thousand of that" is money; "three of us" counts people.
    return !['that', 'it', 'this', 'the'].includes(tokens[k + 1]?.base ?? '');
  }
  return cueAt(tokens, k, COUNT_AFTER) > 0;
}

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
  if (p.form === 'cardinal')
    return ['in', 'since', 'of', 'from', 'til', 'till', 'until', 'built'].includes(
      tokens[p.i - 1]?.base ?? '',
    );
  if (cueEndingAt(tokens, p.i - 1, YEAR_BEFORE)) return true;
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
  let currency = tokens[p.i].before.includes('$') || p.mult === 'grand' || p.mult === 'k';
  let value = p.value;
  // "four dollars and fifty", "two dollars fifty".
  if (isCurrencyWord(tokens[j + 1]) && !/[.?!;]/.test(tokens[j].after)) {
    currency = true;
    j++;
    const cents = readCentsAfter(tokens, j + 1);
    if (cents && value < 100) {
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

/** "a buck fifty", "ninety-nine cents", "fifty cents". */
function readSpecial(tokens: Token[], i: number): Cand | null {
  const t = tokens[i];
  if ((t.base === 'a' || t.base === 'one') && tokens[i + 1]?.base === 'buck') {
    const cents = readCentsAfter(tokens, i + 2);
    const value = cents ? round2(1 + cents.value / 100) : 1;
    const j = cents ? cents.end : i + 1;
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
    if (sep === ',' || sep === '') return !!a.phrase.bare && !b.phrase.bare && b.phrase.mult !== null;
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
  return tokens.some((t, i) => cueAt(tokens, i, MONEY_TALK) > 0 || t.before.includes('$'));
}

interface Env {
  tokens: Token[];
  found: Cand[];
  lineMoney: boolean;
  prevMoney: MoneyEntity[];
  prevTalk: boolean;
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
  return false;
}

function priceAfter(tokens: Token[], j: number): boolean {
  if (/[.?!;]/.test(tokens[j].after)) return false;
  return cueAt(tokens, j + 1, PRICE_AFTER) > 0;
}

/**
 * "60 months or 120", "the 16 SEER is a grand more than the 14": a number set beside one that
 * counts something counts the same thing.
 */
function countedAlongside(tokens: Token[], c: Cand, env: Env): boolean {
  const p = c.phrase;
  if (!tokens[p.i].digits && !p.bare) return false;
  const joiner = tokens[c.i - 1]?.base;
  const before = env.found.find((o) => o.j === c.i - 2 && o !== c);
  if (before && ['or', 'to', 'and'].includes(joiner ?? '') && isCountNoun(tokens, before.j + 1)) return true;
  const beforeCounted = env.found.find((o) => o !== c && o.j + 2 === c.i - 1 && isCountNoun(tokens, o.j + 1));
  if (beforeCounted && ['or', 'to', 'and'].includes(joiner ?? '')) return true;
  if (!c.small) return false;
  return env.found.some(
    (o) =>
      o !== c &&
      o.small &&
      !o.currency &&
      !o.per &&
      isCountNoun(tokens, o.j + 1) &&
      !isCountNoun(tokens, c.j + 1) &&
      modelNoun(tokens, o.j + 1),
  );
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

/** Decides whether a candidate read from digits or words with a multiplier is money. */
function isMoney(c: Cand, env: Env, strong: boolean): boolean {
  const { tokens } = env;
  const p = c.phrase;
  const dollar = tokens[c.i].before.includes('$');
  if (!dollar && !c.per && !c.perItem && isCountNoun(tokens, c.j + 1)) return false;
  if (!dollar && countedAlongside(tokens, c, env)) return false;
  if (c.currency || c.per || c.perItem) {
    if (c.small && !c.currency && c.value < 10 && !tokens[p.i].digits?.decimal && p.form === 'cardinal')
      return false;
    // "not one dollar more", "not a dime": a way of saying no.
    if (c.value <= 1 && ['not', 'no'].includes(tokens[c.i - 1]?.base ?? '')) return false;
    return true;
  }
  if (p.mult === 'million') return true;
  if (yearLike(tokens, c)) return false;
  if (addressAfter(tokens, c)) return false;
  if (c.small) return false;
  const d = tokens[p.i].digits;
  // Said the way prices are said: "fourteen thousand", "seventy-two hundred", "ten-nine".
  if (p.mult === 'thousand' && c.value >= 1000) return true;
  if (p.mult === 'hundred' && c.value >= 1000 && !d) return true;
  if (p.form === 'thousands-short') return true;
  if (d && d.grouped) return true;
  if (strong) return false;
  const cue = priceBefore(tokens, c.i) || priceAfter(tokens, c.j);
  const context =
    env.lineMoney || env.prevMoney.length > 0 || env.prevTalk || env.found.some((f) => f.money && f !== c);
  if (p.form === 'pairs' || p.form === 'hundreds-short') return cue || context;
  if (c.value < 100) return false;
  return cue || context;
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
]);

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
  const free = end || FREE_AFTER.has(next.norm) || FREE_AFTER.has(next.base) || t.clitic === 's';
  if (!free) return false;
  const decimal = !!t.digits?.decimal;
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
  const cue = priceBefore(tokens, c.i) || priceAfter(tokens, c.j) || c.min !== undefined;
  if (!cue && !decimal && !(end && c.min !== undefined)) return false;
  const ref = nearestRef(c, env);
  if (!ref) {
    // An answer to "what's your budget?" or "how much?" in bare numbers is in thousands, and so
    // is a bare number put as a price in a line about money ("the mid package is 13.9").
    if (!(env.prevTalk || env.lineMoney) || base < 2 || base >= 100 || c.per) return false;
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
  const to = Math.min(tokens.length - 1, c.j + 4);
  // The nearest cue wins; a cue right after the amount ("two-fifty down", "five hundred off") first.
  for (let k = c.j + 1; k <= Math.min(tokens.length - 1, c.j + 2); k++) {
    for (const [role, list] of ROLES.slice(0, 2)) if (cueAt(tokens, k, list)) return role;
  }
  let best: { role: MoneyRole; dist: number } | null = null;
  for (let k = from; k <= to; k++) {
    if (k >= c.i && k <= c.j) continue;
    for (const [role, list] of ROLES) {
      if (!cueAt(tokens, k, list)) continue;
      if (role === 'budget' && ctx.speaker === 'rep' && !cueIn(tokens, from, to, C('ROLE_BUDGET'))) continue;
      const dist = k < c.i ? c.i - k : k - c.j;
      if (!best || dist < best.dist) best = { role, dist };
    }
  }
  if (best && best.dist <= 6) return best.role;
  const same = env.prevMoney.find((m) => (m.value ?? m.max) === (c.max ?? c.value));
  if (same) return same.role;
  return 'price';
}

function clauseStart(tokens: Token[], i: number): number {
  let k = i;
  while (k > 0 && !/[.?!;]/.test(tokens[k - 1].after)) k--;
  return k;
}

/** A rate said once covers the amounts set against it: "three-eighty a month... or two-ninety". */
function inheritPer(cands: Cand[], env: Env): void {
  for (const c of cands) {
    if (!c.money || c.per || c.perItem) continue;
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
    prevTalk: !!prevTokens && talksMoney(prevTokens),
  };
  // Amounts said as money first, then those that need the others for context, then bare numbers.
  for (const c of cands) c.money = isMoney(c, env, true);
  for (const c of cands) if (!c.money) c.money = isMoney(c, env, false);
  for (const c of cands) if (c.money) fixPerFoot(c);
  for (const c of cands) if (!c.money && c.small && !c.currency) c.money = scaleSmall(c, env);
  inheritPer(cands, env);
  const monthly = tokens.some((t) => MONTHLY.has(t.base));
  for (const c of cands) {
    if (!c.money) continue;
    if (monthly && !c.per && !c.perItem && (c.max ?? c.value) < 2000) c.per = 'month';
    fixPerFoot(c);
  }
  return cands
    .filter((c) => c.money)
    .map((c) => {
      const start = tokens[c.i].start - (tokens[c.i].before.endsWith('$') ? 1 : 0);
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
    w === 'hundred' ||
    w === 'thousand' ||
    w === 'buck'
  );
}
