import { cueAt, cueEndingAt, cueIn, cues } from './cues';
import { TENS, TEEN, UNIT } from './numbers';
import { signed, type Token } from './tokens';
import type { DayPart } from './types';

/**
 * Clock times: "4:30", "3pm", "four-thirty", "half six", "quarter to five", "six-ish", "noon",
 * "nine in the morning", and a bare hour where the words around it make it one ("at ten",
 * "after 3", "make it seven" after a line that named a time). An hour said with nothing around
 * it is a number, not a time.
 */

export interface Clock {
  i: number;
  j: number;
  h: number;
  m: number;
  ampm: 'am' | 'pm' | null;
  /** A part of day said with the time ("nine in the morning"). */
  part: DayPart | null;
  /** Written or said so that it cannot be anything but a time (4:30, 3pm, o'clock, noon). */
  explicit: boolean;
}

export interface ClockEnv {
  /** The line or the one before names a day, a part of day or a clock time. */
  temporal: boolean;
  /** The line before, or this one elsewhere, has a clock time said outright. */
  clockNear: boolean;
  /** The line is about money (a price word, a currency). */
  money: boolean;
  /** The line before is about money. */
  prevMoney: boolean;
  /** The line asks or talks about a time ("what time", "a good time"). */
  askedTime: boolean;
}

const DAY = cues('times', 'DAY');
const PART = cues('times', 'PART');
const CLOCK_BEFORE = cues('times', 'CLOCK_BEFORE');
const NEAR_CLOCK = cues('times', 'NEAR_CLOCK');
const AFTER_CLOCK = cues('times', 'AFTER_CLOCK');
const NOT_CLOCK_AFTER = cues('times', 'NOT_CLOCK_AFTER');
const CURRENCY = cues('money', 'CURRENCY_AFTER');
const RATE_UNITS = ['PER_MONTH', 'PER_YEAR', 'PER_SQFT', 'PER_HOUR', 'PER_ITEM'].map((n) => cues('money', n));
const ORDINAL_WORDS = new Set([...cues('times', 'ORDINAL').words].map((e) => e.split('=')[0]));
const PRONOUN_ONE = new Set([
  'either',
  'which',
  'any',
  'that',
  'this',
  'each',
  'the',
  'every',
  'no',
  'other',
  'another',
  'little',
  'big',
  'last',
  'first',
  'next',
  'same',
  'good',
  'new',
  'old',
  'right',
]);
const ARRIVE = cues('times', 'ARRIVE');
const MONEY_AFTER_ISH = new Set(['grand', 'thousand', 'k', 'hundred', 'bucks', 'dollars', 'thou']);
const APPROX = new Set([
  'nearly',
  'almost',
  'about',
  'around',
  'roughly',
  'like',
  'maybe',
  'just',
  'right',
  'say',
]);
const MONEY_TALK = cues('money', 'MONEY_TALK');
const PRICE_AFTER = cues('money', 'PRICE_AFTER');

const dayIndex = new Map<string, string>();
const partIndex = new Map<string, DayPart>();
for (const e of DAY.words) dayIndex.set(e.split('=')[0], e.split('=')[1]);
for (const e of PART.words) partIndex.set(e.split('=')[0], e.split('=')[1] as DayPart);

export function dayWord(t: Token | undefined): string | null {
  if (!t) return null;
  // "2nite", "2morrow" are written with a digit.
  return dayIndex.get(t.base) ?? dayIndex.get(t.norm) ?? null;
}

export function partWord(t: Token | undefined): DayPart | null {
  if (!t || t.digits) return null;
  return partIndex.get(t.base) ?? partIndex.get(t.norm) ?? null;
}

/** An hour 1..12 at token i, in words or digits. */
function hourAt(t: Token | undefined): number | null {
  if (!t) return null;
  if (t.digits) {
    const d = t.digits;
    if (d.clock || d.decimal || d.grouped) return null;
    if (d.suffix && !['am', 'pm', 'a', 'p', 'ish', 'oclock'].includes(d.suffix)) return null;
    const v = Number(d.plain);
    return v >= 1 && v <= 12 && String(v) === d.plain.replace(/^0/, '') ? v : null;
  }
  const v = UNIT[t.base] ?? TEEN[t.base];
  return v !== undefined && v >= 1 && v <= 12 ? v : null;
}

/** Minutes in words after an hour: "thirty", "forty-five", "oh five", "fifteen". */
function minutesAt(tokens: Token[], k: number): { m: number; end: number } | null {
  const t = tokens[k];
  if (!t || /[,.;!?]/.test(tokens[k - 1]?.after ?? '')) return null;
  if (t.digits) {
    const d = t.digits;
    // "10 30"; but "10-11", "10-15 yrs" are ranges.
    const spaced = tokens[k - 1]?.digits && tokens[k - 1].after === '';
    if (d.plain.length === 2 && !d.suffix && !d.decimal && Number(d.plain) < 60 && spaced)
      return { m: Number(d.plain), end: k };
    return null;
  }
  if ((t.base === 'oh' || t.base === 'o') && UNIT[tokens[k + 1]?.base ?? ''] !== undefined)
    return { m: UNIT[tokens[k + 1].base], end: k + 1 };
  if (TENS[t.base] !== undefined && TENS[t.base] <= 50) {
    const u = UNIT[tokens[k + 1]?.base ?? ''];
    if (u !== undefined && u > 0 && !/[,.;!?]/.test(t.after)) return { m: TENS[t.base] + u, end: k + 1 };
    return { m: TENS[t.base], end: k };
  }
  if (TEEN[t.base] !== undefined && TEEN[t.base] >= 10) return { m: TEEN[t.base], end: k };
  return null;
}

/** "am"/"pm" at token k ("pm", "p.m.", "p m"), with the index of its last token. */
function ampmAt(tokens: Token[], k: number): { v: 'am' | 'pm'; end: number } | null {
  const t = tokens[k];
  if (!t || t.digits) return null;
  // "at four. Am I early?": not across a full stop.
  if (/[.?!;,]/.test(tokens[k - 1]?.after ?? '')) return null;
  if (t.base === 'am' || t.base === 'pm') {
    // "I am": only straight after the number.
    return { v: t.base, end: k };
  }
  if ((t.base === 'a' || t.base === 'p') && tokens[k + 1]?.base === 'm' && !/[,;!?]/.test(t.after))
    return { v: t.base === 'a' ? 'am' : 'pm', end: k + 1 };
  return null;
}

/** "in the morning", "in the afternoon", "at night", "this evening" after a time. */
function partAfter(tokens: Token[], k: number): { part: DayPart; end: number } | null {
  if (/[.?!;]/.test(tokens[k - 1]?.after ?? '')) return null;
  const a = tokens[k]?.base;
  const b = tokens[k + 1]?.base;
  if (a === 'in' && b === 'the') {
    const p = partWord(tokens[k + 2]);
    if (p && p !== 'lunch') return { part: p, end: k + 2 };
  }
  if (a === 'at' && (b === 'night' || b === 'nite')) return { part: 'night', end: k + 1 };
  return null;
}

function ampmOfPart(part: DayPart | null, h: number): 'am' | 'pm' | null {
  if (!part) return null;
  if (part === 'morning') return 'am';
  if (part === 'night') return h >= 1 && h <= 4 ? 'am' : 'pm';
  if (part === 'lunch') return h === 11 ? 'am' : 'pm';
  return 'pm';
}

interface Read {
  i: number;
  j: number;
  h: number;
  m: number;
  ampm: 'am' | 'pm' | null;
  explicit: boolean;
}

/** "it's ten to six", "at ten to six": words that put "ten to six" as a time of day. */
function relativeFramed(tokens: Token[], i: number): boolean {
  const b = tokens[i - 1];
  if (!b || /[,.;!?]/.test(b.after)) return false;
  if (b.clitic === 's' && ['it', 'that'].includes(b.base)) return true;
  return ['at', 'by', 'about', 'around', 'till', 'until', 'til', 'before', 'after', 'its'].includes(b.base);
}

/** "half six", "half past six", "quarter to five", "ten to six", "quarter after six". */
function readRelative(tokens: Token[], i: number): Read | null {
  const w = tokens[i].base;
  const next = tokens[i + 1]?.base;
  if (w === 'half') {
    const k = next === 'past' ? i + 2 : i + 1;
    const h = hourAt(tokens[k]);
    // "half six", "at half 4"; but "half 4" alone may be half of four.
    const framed = ['at', 'by', 'about', 'around', 'till', 'until', 'for'].includes(
      tokens[i - 1]?.base ?? '',
    );
    if (h !== null && (!tokens[k].digits || framed)) return { i, j: k, h, m: 30, ampm: null, explicit: true };
    if (h !== null && next === 'past') return { i, j: k, h, m: 30, ampm: null, explicit: true };
    return null;
  }
  let before: number | null = null;
  if (w === 'quarter') before = 15;
  else if (w === 'ten' || w === 'twenty' || w === 'five') before = w === 'ten' ? 10 : w === 'twenty' ? 20 : 5;
  if (before === null) return null;
  const rel = next;
  if (rel !== 'to' && rel !== 'past' && rel !== 'after' && rel !== 'of' && rel !== 'til' && rel !== 'till')
    return null;
  const h = hourAt(tokens[i + 2]);
  if (h === null) return null;
  // "ten to twelve" is a range of numbers, not 11:50; only a quarter reads that way freely, or
  // "ten to six" said as the time it is or the time something happens ("it's ten to six").
  if (w !== 'quarter' && (rel === 'to' || rel === 'of') && !relativeFramed(tokens, i)) return null;
  if (rel === 'past' || rel === 'after') return { i, j: i + 2, h, m: before, ampm: null, explicit: true };
  return { i, j: i + 2, h: h === 1 ? 12 : h - 1, m: 60 - before, ampm: null, explicit: true };
}

function isNumberWordToken(t: Token | undefined): boolean {
  return !!t && !t.digits && (UNIT[t.base] ?? TEEN[t.base] ?? TENS[t.base]) !== undefined;
}

/** A word joined by a hyphen to a number word that is not its minutes ("eleven-two", "fourteen-eight"). */
function partOfNumber(tokens: Token[], i: number): boolean {
  const t = tokens[i];
  // "eighteen five", "fourteen-eight": the second part of a number said in two.
  const prev = tokens[i - 1];
  const tensOrTeen = !!prev && (TEEN[prev.base] ?? TENS[prev.base]) !== undefined && !prev.digits;
  if (tensOrTeen && !/[,.;!?]/.test(prev.after)) return true;
  if (t.before.includes('-') && isNumberWordToken(prev)) return true;
  return t.after.includes('-') && isNumberWordToken(tokens[i + 1]) && !minutesAt(tokens, i + 1);
}

/** A time at token i, with what makes it explicit, before the context decides on a bare hour. */
function readAt(tokens: Token[], i: number): Read | null {
  const t = tokens[i];
  if (t.digits?.clock) {
    const { h, m } = t.digits.clock;
    if (h > 23 || m > 59) return null;
    let ampm: 'am' | 'pm' | null = t.digits.suffix === 'am' ? 'am' : t.digits.suffix === 'pm' ? 'pm' : null;
    let j = i;
    const ap = !ampm ? ampmAt(tokens, i + 1) : null;
    if (ap) {
      ampm = ap.v;
      j = ap.end;
    }
    return { i, j, h: h > 12 ? h - 12 : h, m, ampm: ampm ?? (h > 12 ? 'pm' : null), explicit: true };
  }
  if (!t.digits) {
    if (['noon', 'midday', 'noonish'].includes(t.base))
      return { i, j: i, h: 12, m: 0, ampm: 'pm', explicit: true };
    if (t.base === 'midnight') return { i, j: i, h: 12, m: 0, ampm: 'am', explicit: true };
    const rel = readRelative(tokens, i);
    if (rel) return rel;
  }
  const h = hourAt(t);
  if (h === null) return null;
  // "11/6", "3/14": a date, not an hour.
  if (t.digits && ((t.after === '/' && tokens[i + 1]?.digits) || (t.before === '/' && tokens[i - 1]?.digits)))
    return null;
  // "fourteen-eight", "eleven-two": one number said in two parts, not an hour.
  if (!t.digits && partOfNumber(tokens, i)) return null;
  const suffix = t.digits?.suffix ?? '';
  if (suffix === 'am' || suffix === 'a' || suffix === 'pm' || suffix === 'p')
    return { i, j: i, h, m: 0, ampm: suffix.startsWith('a') ? 'am' : 'pm', explicit: true };
  if (suffix === 'ish' || suffix === 'oclock') return { i, j: i, h, m: 0, ampm: null, explicit: true };
  let j = i;
  let m = 0;
  const mins = minutesAt(tokens, i + 1);
  // "six hundred", "ten thousand": not minutes.
  if (mins && !['hundred', 'thousand', 'grand', 'k'].includes(tokens[mins.end + 1]?.base ?? '')) {
    m = mins.m;
    j = mins.end;
  }
  const ap = ampmAt(tokens, j + 1);
  if (ap) return { i, j: ap.end, h, m, ampm: ap.v, explicit: true };
  const n = tokens[j + 1];
  if (n && (n.base === "o'clock" || n.base === 'oclock'))
    return { i, j: j + 1, h, m, ampm: null, explicit: true };
  if (n && n.base === 'o' && tokens[j + 2]?.base === 'clock')
    return { i, j: j + 2, h, m, ampm: null, explicit: true };
  // "six-ish"; but "ten-ish grand" is money.
  if (
    n &&
    n.base === 'ish' &&
    !/[,.;!?]/.test(tokens[j].after) &&
    !MONEY_AFTER_ISH.has(tokens[j + 2]?.base ?? '')
  )
    return { i, j: j + 1, h, m, ampm: null, explicit: true };
  return { i, j, h, m, ampm: null, explicit: false };
}

/** The token before an hour, past words of approximation ("till NEARLY nine", "at ABOUT ten"). */
function beforeApprox(tokens: Token[], i: number): number {
  let k = i - 1;
  while (k >= 0 && k >= i - 2 && APPROX.has(tokens[k].base) && !/[,.;!?]/.test(tokens[k].after)) k--;
  return k;
}

/** "a month", "per square foot", "a step" after a number: a rate, so the number is money. */
function rateAfter(tokens: Token[], k: number): boolean {
  const t = tokens[k];
  if (!t || !['a', 'an', 'per', 'each', 'every'].includes(t.base)) return false;
  return RATE_UNITS.some((list) => cueAt(tokens, k + 1, list) > 0);
}

/** "the 3rd", "the third", "3rd" at token k: a day of the month. */
function dateWord(tokens: Token[], k: number): boolean {
  const t = tokens[k]?.base === 'the' ? tokens[k + 1] : tokens[k];
  if (!t) return false;
  if (t.digits) return ['st', 'nd', 'rd', 'th'].includes(t.digits.suffix);
  return ORDINAL_WORDS.has(t.base);
}

/** Words after an hour that leave it free to be a time: no noun it counts ("two space heaters"). */
function freeAfterHour(tokens: Token[], r: Read): boolean {
  const n = tokens[r.j + 1];
  if (!n || /[,.;!?]/.test(tokens[r.j].after) || n.digits) return true;
  if (dayWord(n) || partWord(n) || cueAt(tokens, r.j + 1, AFTER_CLOCK)) return true;
  return HOUR_FOLLOW.has(n.base);
}

const HOUR_FOLLOW = new Set([
  'or',
  'and',
  'to',
  'till',
  'til',
  'until',
  'on',
  'if',
  'so',
  'then',
  'is',
  'would',
  'should',
  'could',
  'will',
  'can',
  'i',
  'we',
  'you',
  'u',
  'he',
  'she',
  'they',
  'that',
  'this',
  'for',
  'at',
  'in',
  'with',
  'tomorrow',
  'tonight',
  'today',
  'instead',
  'sharp',
  'ish',
  'please',
  'pls',
  'but',
  'because',
  'cause',
  'work',
  'works',
  'good',
  'fine',
  'ok',
  'okay',
  'right',
  'latest',
  'earliest',
  'the',
  'next',
  'this',
  'thirty',
  'as',
  'when',
  'not',
  'no',
  'yes',
  'yeah',
  'lol',
  'before',
  'after',
  'by',
  'start',
  'either',
]);

/** Whether the words around a bare hour or an hour-and-minutes make it a time. */
function contextMakesClock(tokens: Token[], r: Read, env: ClockEnv): boolean {
  const b = beforeApprox(tokens, r.i);
  const before = cueEndingAt(tokens, b, CLOCK_BEFORE) > 0 || cueEndingAt(tokens, r.i - 1, CLOCK_BEFORE) > 0;
  const hasMinutes = r.j > r.i;
  const afterTok = tokens[r.j + 1];
  if (afterTok && !/[,.;!?]/.test(tokens[r.j].after)) {
    if (cueAt(tokens, r.j + 1, CURRENCY)) return false;
    // "two-fifty down", "six fifty installed": a price said like a time.
    if (cueAt(tokens, r.j + 1, PRICE_AFTER) && !partWord(afterTok) && !dayWord(afterTok)) return false;
    if (!hasMinutes && cueAt(tokens, r.j + 1, NOT_CLOCK_AFTER) && !dayWord(afterTok) && !partWord(afterTok))
      return false;
    if (rateAfter(tokens, r.j + 1)) return false;
  }
  if (signed(tokens[r.i])) return false;
  // "two nights", "three Saturdays" count them.
  const plural =
    !!afterTok && afterTok.norm.endsWith('s') && !afterTok.clitic && !/[,.;!?]/.test(tokens[r.j].after);
  if (plural && !hasMinutes && (dayWord(afterTok) || partWord(afterTok)) && dayWord(afterTok) !== 'weekend')
    return false;
  const followsDay = !!(
    dayWord(afterTok) ||
    partWord(afterTok) ||
    partAfter(tokens, r.j + 1) ||
    (afterTok?.base === 'on' && (dayWord(tokens[r.j + 2]) || dateWord(tokens, r.j + 2)))
  );
  const word = tokens[b]?.base ?? '';
  const strongBefore =
    ['at', 'by', 'till', 'til', 'until', 'after', 'since', '@'].includes(word) ||
    (word === 'for' && tokens[b - 1]?.base === 'down');
  // "by 3", "till nearly nine": a time even in a line about money, unless money is said with it.
  // "sixteen by twelve" is a size.
  if (word === 'by' && (!!tokens[b - 1]?.digits || isNumberWordToken(tokens[b - 1]))) return false;
  const timeOnly = ['by', 'till', 'til', 'until', 'since', '@'].includes(word) && freeAfterHour(tokens, r);
  const near = cueEndingAt(tokens, r.i - 1, NEAR_CLOCK) > 0;
  const after =
    cueAt(tokens, r.j + 1, AFTER_CLOCK) > 0 ||
    (tokens[r.j].clitic === 's' && cueAt(tokens, r.j + 1, AFTER_CLOCK) > 0);
  // "the 3rd one", "which one": "one" is a pronoun unless put forward as a time.
  const clauseStart = r.i === 0 || /[,.;!?]/.test(tokens[r.i - 1].after);
  if (tokens[r.i].base === 'one' && !hasMinutes && !before && !near && !(after && clauseStart)) return false;
  // "either one", "which one", "the one": a pronoun.
  if (tokens[r.i].base === 'one' && !hasMinutes && PRONOUN_ONE.has(tokens[r.i - 1]?.base ?? '')) return false;
  // "Thursday morning around nine", "sat at 10": an hour said with a day is its time.
  if (dayBefore(tokens, r.i)) return !afterTok || !cueAt(tokens, r.j + 1, CURRENCY);
  if (hasMinutes) {
    // "about seven-fifty" with nothing about times is a price; "around six-thirty" a time.
    if (before || followsDay)
      return followsDay || strongBefore || (!env.money && (env.temporal || r.m % 15 === 0));
    // "here for the two-thirty", "eight-thirty's early": on the quarter hour, with no money about.
    return (env.temporal && !env.money) || (r.m % 15 === 0 && !env.money && !env.prevMoney);
  }
  if (before) {
    if (timeOnly) return true;
    // "the crew rolls in around seven": an arrival or a start at a bare hour.
    if (!env.money && freeAfterHour(tokens, r) && cueIn(tokens, 0, tokens.length - 1, ARRIVE)) return true;
    if (!strongBefore && !freeAfterHour(tokens, r)) return false;
    if (strongBefore && (env.temporal || !env.money)) return true;
    return env.temporal && !env.money;
  }
  if (followsDay) return true;
  // A bare hour in a line about times: "1 is good", "make it 7", "ten instead of nine", "Nine okay?".
  if (env.money || !freeAfterHour(tokens, r)) return false;
  const alone = !afterTok || /[.?!,;]/.test(tokens[r.j].after);
  if (!env.clockNear)
    return (
      (env.temporal && (after || (near && !['and', 'or'].includes(tokens[r.i - 1].base)))) ||
      (env.askedTime && alone && clauseStart)
    );
  return near || after || (alone && clauseStart) || (env.askedTime && alone);
}

/** A day or part of day just before token i, across joining words ("Thursday morning AROUND nine"). */
function dayBefore(tokens: Token[], i: number): boolean {
  let k = i - 1;
  let skipped = 0;
  while (
    k >= 0 &&
    skipped <= 2 &&
    ['at', 'around', 'about', 'like', 'say', 'after', 'by', 'from', '@', 'the', 'round'].includes(
      tokens[k].base,
    )
  ) {
    k--;
    skipped++;
  }
  if (k < 0 || /[.?!;]/.test(tokens[k].after)) return false;
  const t = tokens[k];
  // "the 21st at 6"; but "the 3rd one" ranks.
  const date = ['st', 'nd', 'rd', 'th'].includes(t.digits?.suffix ?? '') && skipped > 0;
  return !!(dayWord(t) || partWord(t) || date);
}

function lineIsTemporal(tokens: Token[]): boolean {
  return tokens.some(
    (t) =>
      dayWord(t) ||
      partWord(t) ||
      t.digits?.clock ||
      t.base === 'noon' ||
      ['st', 'nd', 'rd', 'th'].includes(t.digits?.suffix ?? ''),
  );
}

const MONEY_WORDS = new Set(['thousand', 'grand', 'hundred', 'dollars', 'bucks', 'k']);

function lineMoney(tokens: Token[]): boolean {
  return tokens.some(
    (t, i) =>
      cueAt(tokens, i, MONEY_TALK) > 0 ||
      signed(t) ||
      t.digits?.suffix === 'k' ||
      MONEY_WORDS.has(t.base) ||
      // "eleven a square foot": a rate.
      ((!!t.digits || isNumberWordToken(t)) && !/[,.;!?]/.test(t.after) && rateAfter(tokens, i + 1)),
  );
}

/** "what time", "a good time": the line is about when. */
function asksTime(tokens: Token[]): boolean {
  return tokens.some(
    (t, i) =>
      t.base === 'time' &&
      ['what', 'which', 'a', 'good', 'best', 'usual'].includes(tokens[i - 1]?.base ?? ''),
  );
}

/** Joins a bare hour to a time beside it: "from nine till five", "11 or 3:30", "3:30 or 4", "10-11". */
function joinHours(tokens: Token[], reads: Read[], ok: Set<Read>, env: ClockEnv): void {
  const JOIN = ['to', 'till', 'til', 'until', 'or'];
  const hyphen = (a: Read, b: Read) =>
    b.i === a.j + 1 && /^[-–]$/.test(tokens[a.j].after) && !!tokens[a.i].digits === !!tokens[b.i].digits;
  const word = (a: Read, b: Read) =>
    b.i === a.j + 2 && JOIN.includes(tokens[a.j + 1].base) && !/[,.;!?]/.test(tokens[a.j].after);
  const joined = (a: Read, b: Read) => hyphen(a, b) || word(a, b);
  reads.forEach((r, n) => {
    if (ok.has(r)) return;
    const next = reads[n + 1];
    const prev = reads[n - 1];
    if (next && ok.has(next) && joined(r, next)) ok.add(r);
    else if (
      prev &&
      ok.has(prev) &&
      (hyphen(prev, r) || (word(prev, r) && tokens[prev.j + 1].base === 'or')) &&
      freeAfterHour(tokens, r)
    )
      ok.add(r);
    // "stop the saws from one to three": two hours put as a span of the day.
    else if (
      next &&
      !env.money &&
      tokens[r.i - 1]?.base === 'from' &&
      word(r, next) &&
      tokens[r.j + 1].base !== 'or' &&
      next.j === next.i &&
      freeAfterHour(tokens, next) &&
      !cueAt(tokens, next.j + 1, NOT_CLOCK_AFTER)
    ) {
      ok.add(r);
      ok.add(next);
    }
  });
}

const RELATIVE_MINUTES: Record<string, number> = { half: 30, quarter: 15, ten: 10, five: 5, twenty: 20 };

/** "half past", "ten to" with the hour left out: the hour of the time said just before. */
function relativeToHour(tokens: Token[], reads: Read[], before: Read | undefined): Read[] {
  const out: Read[] = [];
  for (let i = 0; i < tokens.length - 1; i++) {
    const w = tokens[i].base;
    const rel = tokens[i + 1].base;
    const mins = RELATIVE_MINUTES[w] ?? 0;
    if (!mins || !['past', 'to', 'after'].includes(rel)) continue;
    if (w === 'half' && rel !== 'past') continue;
    if (i + 2 < tokens.length && !/[,.;!?]/.test(tokens[i + 1].after)) continue;
    const ref = [...reads].reverse().find((r) => r.j < i) ?? before;
    if (!ref || reads.some((r) => r.i <= i + 1 && r.j >= i)) continue;
    const to = rel === 'to';
    const h = to ? (ref.h === 1 ? 12 : ref.h - 1) : ref.h;
    out.push({ i, j: i + 1, h, m: to ? 60 - mins : mins, ampm: null, explicit: true });
  }
  return out;
}

/** Every clock time in the line, given the line before. */
export function findClocks(tokens: Token[], previous: Token[] | null): Clock[] {
  const reads: Read[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const r = readAt(tokens, i);
    if (r) {
      reads.push(r);
      i = r.j;
    }
  }
  const prevClocks = previous ? findClocks(previous, null) : [];
  if (!reads.length && !prevClocks.length) return [];
  const prevMoney = !!previous && lineMoney(previous);
  const env: ClockEnv = {
    temporal: lineIsTemporal(tokens) || (!!previous && lineIsTemporal(previous)),
    clockNear: prevClocks.length > 0,
    money: lineMoney(tokens) || (prevMoney && !prevClocks.length),
    prevMoney,
    askedTime: asksTime(tokens) || (!!previous && asksTime(previous)),
  };
  // Times said as times first; then bare hours, which a time elsewhere in the line supports.
  const ok = new Set<Read>();
  for (const r of reads)
    if (r.explicit || contextMakesClock(tokens, r, { ...env, clockNear: false })) ok.add(r);
  if (ok.size) env.clockNear = true;
  for (const r of reads) if (!ok.has(r) && contextMakesClock(tokens, r, env)) ok.add(r);
  joinHours(tokens, reads, ok, env);
  const prevRead = prevClocks[prevClocks.length - 1];
  const said = reads.filter((r) => ok.has(r));
  for (const r of relativeToHour(tokens, said, prevRead && { ...prevRead, explicit: true })) {
    reads.push(r);
    ok.add(r);
  }
  reads.sort((a, b) => a.i - b.i);
  const out: Clock[] = [];
  for (const r of reads) {
    if (!ok.has(r)) continue;
    let j = r.j;
    let ampm = r.ampm;
    let part: DayPart | null = null;
    const pa = partAfter(tokens, j + 1);
    if (pa) {
      part = pa.part;
      j = pa.end;
      ampm = ampm ?? ampmOfPart(part, r.h);
    }
    out.push({ i: r.i, j, h: r.h, m: r.m, ampm, part, explicit: r.explicit });
  }
  return out;
}

export { ampmOfPart };
