import { cueAt, cueEndingAt, cues } from './cues';
import { TENS, TEEN, UNIT } from './numbers';
import type { Token } from './tokens';
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
}

const DAY = cues('times', 'DAY');
const PART = cues('times', 'PART');
const CLOCK_BEFORE = cues('times', 'CLOCK_BEFORE');
const NEAR_CLOCK = cues('times', 'NEAR_CLOCK');
const AFTER_CLOCK = cues('times', 'AFTER_CLOCK');
const NOT_CLOCK_AFTER = cues('times', 'NOT_CLOCK_AFTER');
const CURRENCY = cues('money', 'CURRENCY_AFTER');
const MONEY_TALK = cues('money', 'MONEY_TALK');
const PRICE_AFTER = cues('money', 'PRICE_AFTER');

const dayIndex = new Map<string, string>();
const partIndex = new Map<string, DayPart>();
for (const e of DAY.words) dayIndex.set(e.split('=')[0], e.split('=')[1]);
for (const e of PART.words) partIndex.set(e.split('=')[0], e.split('=')[1] as DayPart);

export function dayWord(t: Token | undefined): string | null {
  if (!t || t.digits) return null;
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
    if (d.plain.length === 2 && !d.suffix && !d.decimal && Number(d.plain) < 60 && tokens[k - 1]?.digits)
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

/** "half six", "half past six", "quarter to five", "ten to six", "quarter after six". */
function readRelative(tokens: Token[], i: number): Read | null {
  const w = tokens[i].base;
  const next = tokens[i + 1]?.base;
  if (w === 'half') {
    const k = next === 'past' ? i + 2 : i + 1;
    const h = hourAt(tokens[k]);
    if (h !== null && !tokens[k].digits) return { i, j: k, h, m: 30, ampm: null, explicit: true };
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
  // "ten to twelve" is a range of numbers, not 11:50; only a quarter reads that way freely.
  if (w !== 'quarter' && (rel === 'to' || rel === 'of')) return null;
  if (rel === 'past' || rel === 'after') return { i, j: i + 2, h, m: before, ampm: null, explicit: true };
  return { i, j: i + 2, h: h === 1 ? 12 : h - 1, m: 60 - before, ampm: null, explicit: true };
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
    if (t.base === 'noon' || t.base === 'midday') return { i, j: i, h: 12, m: 0, ampm: 'pm', explicit: true };
    if (t.base === 'midnight') return { i, j: i, h: 12, m: 0, ampm: 'am', explicit: true };
    const rel = readRelative(tokens, i);
    if (rel) return rel;
  }
  const h = hourAt(t);
  if (h === null) return null;
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
  if (n && n.base === 'ish' && /-/.test(tokens[j].after))
    return { i, j: j + 1, h, m, ampm: null, explicit: true };
  return { i, j, h, m, ampm: null, explicit: false };
}

/** Whether the words around a bare hour or an hour-and-minutes make it a time. */
function contextMakesClock(tokens: Token[], r: Read, env: ClockEnv): boolean {
  const before = cueEndingAt(tokens, r.i - 1, CLOCK_BEFORE);
  const hasMinutes = r.j > r.i;
  const afterTok = tokens[r.j + 1];
  if (afterTok && !/[,.;!?]/.test(tokens[r.j].after)) {
    if (cueAt(tokens, r.j + 1, CURRENCY)) return false;
    // "two-fifty down", "six fifty installed": a price said like a time.
    if (cueAt(tokens, r.j + 1, PRICE_AFTER) && !partWord(afterTok) && !dayWord(afterTok)) return false;
    if (!hasMinutes && cueAt(tokens, r.j + 1, NOT_CLOCK_AFTER) && !dayWord(afterTok) && !partWord(afterTok))
      return false;
    if (['a', 'an', 'per'].includes(afterTok.base) && !partWord(tokens[r.j + 2]) && !dayWord(tokens[r.j + 2]))
      return false;
  }
  if (tokens[r.i].before.includes('$')) return false;
  const followsDay = !!(dayWord(afterTok) || partWord(afterTok) || partAfter(tokens, r.j + 1));
  const strongBefore =
    ['at', 'by', 'till', 'til', 'until', 'after', 'since', '@'].includes(tokens[r.i - 1]?.base ?? '') ||
    (tokens[r.i - 1]?.base === 'for' && tokens[r.i - 2]?.base === 'down');
  // "the 3rd one", "which one": "one" is a pronoun unless put forward as a time.
  if (tokens[r.i].base === 'one' && !hasMinutes && !before && !cueEndingAt(tokens, r.i - 1, NEAR_CLOCK))
    return false;
  // "Thursday morning around nine", "sat at 10": an hour said with a day is its time.
  if (dayBefore(tokens, r.i)) return !afterTok || !cueAt(tokens, r.j + 1, CURRENCY);
  if (hasMinutes) {
    if (before || followsDay) return followsDay || strongBefore || !env.money;
    return env.temporal && !env.money;
  }
  if (before) {
    if (strongBefore && (env.temporal || !env.money)) return true;
    return env.temporal && !env.money;
  }
  if (followsDay) return true;
  // A bare hour in a line about times: "1 is good", "make it 7", "ten instead of nine".
  if (!env.clockNear || env.money) return false;
  const near = cueEndingAt(tokens, r.i - 1, NEAR_CLOCK) > 0;
  // "the 3rd one is on maple ave": "one" is a pronoun unless something puts it forward as a time.
  if (tokens[r.i].base === 'one' && !near) return false;
  const after = cueAt(tokens, r.j + 1, AFTER_CLOCK) > 0;
  const alone = !afterTok || /[.?!,;]/.test(tokens[r.j].after);
  const start = r.i === 0 || /[.?!,;]/.test(tokens[r.i - 1].after);
  return near || after || (alone && (start || near)) || (start && alone);
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
      t.before.includes('$') ||
      t.digits?.suffix === 'k' ||
      MONEY_WORDS.has(t.base),
  );
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
  if (!reads.length) return [];
  const prevClocks = previous ? findClocks(previous, null) : [];
  const env: ClockEnv = {
    temporal: lineIsTemporal(tokens) || (!!previous && lineIsTemporal(previous)),
    clockNear: prevClocks.length > 0,
    money: lineMoney(tokens) || (!!previous && lineMoney(previous) && !prevClocks.length),
  };
  // Times said as times first; then bare hours, which a time elsewhere in the line supports.
  const ok = new Set<Read>();
  for (const r of reads)
    if (r.explicit || contextMakesClock(tokens, r, { ...env, clockNear: false })) ok.add(r);
  if (ok.size) env.clockNear = true;
  for (const r of reads) if (!ok.has(r) && contextMakesClock(tokens, r, env)) ok.add(r);
  // "from nine till five", "eight to noon": an hour joined to a time is one too.
  reads.forEach((r, n) => {
    const next = reads[n + 1];
    if (ok.has(r) || !next || !ok.has(next) || next.i !== r.j + 2) return;
    if (['to', 'till', 'til', 'until'].includes(tokens[r.j + 1].base) && !/[,.;!?]/.test(tokens[r.j].after))
      ok.add(r);
  });
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
