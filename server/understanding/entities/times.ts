import { ampmOfPart, dayWord, findClocks, partWord, type Clock } from './clock';
import { cueAt, cueEndingAt, cueIn, cues, type CueList } from './cues';
import { TENS } from './numbers';
import { tokenize, type Token } from './tokens';
import type { DayPart, EntityContext, TimeEntity, TimeRole } from './types';

/**
 * Days and times of day, and what each is doing in the line: "Wednesday at four-thirty",
 * "Saturday morning at nine", "tomorrow morning", "half six", "first thing Monday", "the 14th".
 * "called us Tuesday" is history, "most evenings" is a typical time, "the rebate's gone at
 * midnight" is a deadline; "June" as a name and "good morning" as a greeting are no times.
 */

const T = (name: string) => cues('times', name);
const MONTH = T('MONTH');
const ORDINAL = T('ORDINAL');
const DATE_FOLLOW = T('DATE_FOLLOW');
const GREETING_BEFORE = T('GREETING_BEFORE');
const CONNECT = T('CONNECT');
const monthIndex = new Map<string, string>();
for (const e of MONTH.words) monthIndex.set(e.split('=')[0], e.split('=')[1]);
const ordinalIndex = new Map<string, number>();
for (const e of ORDINAL.words) ordinalIndex.set(e.split('=')[0], Number(e.split('=')[1]));

/** One piece of a time mention: a day, a date, a part of day or a clock time. */
interface Atom {
  i: number;
  j: number;
  kind: 'day' | 'date' | 'part' | 'clock';
  day?: string;
  part?: DayPart | null;
  clock?: Clock;
  /** Said in the plural or with "every"/"most" ("Wednesdays", "most afternoons"). */
  habitual?: boolean;
  /** "tmrw am": am or pm said with a day and no clock time. */
  ampm?: 'am' | 'pm';
}

/** Short day names that are also words ("sat down", "the sun", "we wed"): a day only when framed as one. */
const AMBIGUOUS_DAYS = new Set(['sat', 'sun', 'wed', 'mon']);

function monthWord(t: Token | undefined): string | null {
  if (!t || t.digits) return null;
  return monthIndex.get(t.base) ?? null;
}

/** A day of the month at token i: "14th", "the 14th", "twenty third", "ninth". */
function ordinalAt(tokens: Token[], i: number): { n: number; end: number } | null {
  const t = tokens[i];
  if (!t) return null;
  if (t.digits) {
    const d = t.digits;
    if (!['st', 'nd', 'rd', 'th'].includes(d.suffix)) return null;
    const n = Number(d.plain);
    return n >= 1 && n <= 31 ? { n, end: i } : null;
  }
  const o = ordinalIndex.get(t.base);
  if (o !== undefined) return { n: o, end: i };
  if (t.base.endsWith('teenth')) {
    const n = ordinalIndex.get(t.base);
    if (n) return { n, end: i };
  }
  // "twenty third", "twenty-first", "thirty first".
  const tens = TENS[t.base];
  if ((tens === 20 || tens === 30) && !/[,.;!?]/.test(t.after)) {
    const u = ordinalIndex.get(tokens[i + 1]?.base ?? '');
    if (u !== undefined && u < 10) return { n: tens + u, end: i + 1 };
  }
  return null;
}

const MONTHS = [
  'january',
  'february',
  'march',
  'april',
  'may',
  'june',
  'july',
  'august',
  'september',
  'october',
  'november',
  'december',
];

/** "3/14", "11/6 am": a month and a day written with a slash. */
function slashDate(tokens: Token[], i: number): Atom | null {
  const t = tokens[i];
  const n = tokens[i + 1];
  const a = t.digits;
  const b = n?.digits;
  if (!a || !b || t.after !== '/' || t.before.includes('$') || a.decimal || b.decimal) return null;
  if (a.suffix || !/^\d{1,2}$/.test(a.plain) || !/^\d{1,2}$/.test(b.plain)) return null;
  if (a.value < 1 || a.value > 12 || b.value < 1 || b.value > 31 || n.after.includes('/')) return null;
  // "3 1/4", "1/2": a fraction, unless a weekday puts it as a date ("wed 3/4").
  const fraction = [2, 4, 8, 16].includes(b.value) && a.value < b.value;
  if ((fraction || tokens[i - 1]?.digits) && !dayWord(tokens[i - 1])) return null;
  const atom: Atom = { i, j: i + 1, kind: 'date', day: `${MONTHS[a.value - 1]} ${b.value}` };
  const ap = b.suffix === 'am' || b.suffix === 'pm' ? b.suffix : null;
  const apWord = !ap && !/[,.;!?]/.test(n.after) && ['am', 'pm'].includes(tokens[i + 2]?.base ?? '');
  const v = (ap ?? (apWord ? tokens[i + 2].base : null)) as 'am' | 'pm' | null;
  if (v) {
    atom.ampm = v;
    atom.part = v === 'am' ? 'morning' : 'afternoon';
    if (apWord) atom.j = i + 2;
  }
  return atom;
}

function readDate(tokens: Token[], i: number): Atom | null {
  const t = tokens[i];
  if (t.digits) {
    const slash = slashDate(tokens, i);
    if (slash) return slash;
  }
  const month = monthWord(t);
  if (month) {
    // "June 14", "June 14th", "June the 14th", "June fourteenth".
    let k = i + 1;
    if (tokens[k]?.base === 'the') k++;
    const o = ordinalAt(tokens, k);
    if (o) return { i, j: o.end, kind: 'date', day: `${month} ${o.n}` };
    const d = tokens[k]?.digits;
    if (
      d &&
      !d.suffix &&
      !d.decimal &&
      d.value >= 1 &&
      d.value <= 31 &&
      d.plain.length <= 2 &&
      month !== 'may'
    )
      return { i, j: k, kind: 'date', day: `${month} ${d.value}` };
    return null;
  }
  const hasThe = t.base === 'the';
  const k = hasThe ? i + 1 : i;
  const o = ordinalAt(tokens, k);
  if (!o) return null;
  const digits = !!tokens[k].digits;
  // "the Fourth", "the Fourth of July": an ordinal written as a name is the holiday, not a date.
  if (!digits && tokens[k].capital && k > 0 && !/[.!?]/.test(tokens[k - 1].after)) return null;
  if (!hasThe && !digits) {
    // A bare ordinal word is a date only after a weekday ("Monday ninth") or before "of June".
    const of = tokens[o.end + 1]?.base === 'of';
    const month =
      of &&
      (monthWord(tokens[o.end + 2]) ||
        (tokens[o.end + 2]?.base === 'the' && tokens[o.end + 3]?.base === 'month'));
    if (!dayWord(tokens[i - 1]) && !month) return null;
  }
  const next = tokens[o.end + 1];
  const joinedNext = next && !/[,.;!?]/.test(tokens[o.end].after);
  // "the first of the month": the day of the month, whichever month.
  const ofMonth =
    next?.base === 'of' && tokens[o.end + 2]?.base === 'the' && tokens[o.end + 3]?.base === 'month';
  // "the 14th is no good", "the 21st at 6", "mon 19th 8:30"; but "the first freeze", "1st payment" rank things.
  if (joinedNext && !ofMonth && !cueAt(tokens, o.end + 1, DATE_FOLLOW) && !next.digits) return null;
  if (!digits && (o.n === 1 || o.n === 2) && !dayWord(tokens[i - 1]) && !ofMonth) {
    // "the first", "the second" are ranks unless a date frame is clear.
    const frame = ['on', 'by', 'till', 'til', 'until', 'before', 'after', 'from'].includes(
      tokens[i - 1]?.base ?? '',
    );
    if (!frame && !(next?.base === 'of' && monthWord(tokens[o.end + 2]))) return null;
  }
  let j = o.end;
  let day = String(o.n);
  if (next?.base === 'of' && monthWord(tokens[o.end + 2])) {
    day = `${monthWord(tokens[o.end + 2])} ${o.n}`;
    j = o.end + 2;
  }
  if (ofMonth) j = o.end + 3;
  return { i, j, kind: 'date', day };
}

/** "one more night", "another night", "in one night": a length of time, not a time. */
function lengthOfTime(tokens: Token[], i: number): boolean {
  const b = tokens[i - 1]?.base ?? '';
  if (b === 'another' || (b === 'more' && tokens[i - 2]?.base === 'one')) return true;
  // "a rough few nights", "two nights": a count of them.
  if (
    tokens[i].norm.endsWith('s') &&
    (['few', 'couple', 'several', 'many'].includes(b) || isCount(tokens[i - 1]))
  )
    return true;
  // "the evening news", "the night shift", "my card night": the part of day names a thing.
  if (cueAt(tokens, i + 1, NOT_PART_AFTER) && !/[,.;!?]/.test(tokens[i].after)) return true;
  if (cueEndingAt(tokens, i - 1, NOT_PART_BEFORE) && !/[,.;!?]/.test(tokens[i - 1]?.after ?? '.'))
    return true;
  return b === 'one' && ['in', 'for', 'just'].includes(tokens[i - 2]?.base ?? '');
}

const NOT_PART_AFTER = T('NOT_PART_AFTER');
const HOLIDAY_DAY = T('HOLIDAY_DAY');
const NOT_PART_BEFORE = T('NOT_PART_BEFORE');

function isCount(t: Token | undefined): boolean {
  if (!t) return false;
  return (
    !!t.digits || ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'].includes(t.base)
  );
}

function greetingBefore(tokens: Token[], i: number): boolean {
  if (cueEndingAt(tokens, i - 1, GREETING_BEFORE)) return true;
  // "have a good one tonight"... "call it a night".
  if (tokens[i - 1]?.base === 'a' && tokens[i - 2]?.base === 'it' && tokens[i - 3]?.base === 'call')
    return true;
  // "day or night", "night and day".
  const b = tokens[i - 1]?.base;
  if ((b === 'or' || b === 'and') && tokens[i - 2]?.base === 'day') return true;
  return false;
}

const VERBISH_AFTER = new Set([
  'is',
  'was',
  'are',
  'were',
  'works',
  'work',
  'would',
  'could',
  'can',
  'at',
  'in',
  'after',
  'before',
  'then',
  'and',
  'or',
  'around',
  'like',
  'good',
  'better',
  'fine',
  'is',
  'time',
  'too',
  'tomorrow',
  'tmrw',
]);

/** "Morning, ma'am", "morning thanks for the coffee", "ok im leaving lol, night!": a greeting or a goodbye. */
function salutation(tokens: Token[], i: number): boolean {
  const t = tokens[i];
  // "Mornings." answers when; a greeting is said in the singular.
  if (t.norm.endsWith('s') && !t.clitic) return false;
  const lineStart = i === 0 || /[.!?]/.test(tokens[i - 1].after);
  const next = tokens[i + 1];
  if (lineStart && (!next || /[,!.]/.test(t.after) || !(VERBISH_AFTER.has(next.base) || next.clitic)))
    return true;
  const end = !next || /[!.]/.test(t.after);
  return end && /,/.test(tokens[i - 1]?.after ?? '') && !dayWord(tokens[i - 1]);
}

function readPart(tokens: Token[], i: number): Atom | null {
  const t = tokens[i];
  // "the first thing I noticed" is no time; "first thing Monday" is the morning.
  if (
    t.base === 'first' &&
    tokens[i + 1]?.base === 'thing' &&
    !['the', 'a', 'one', 'another', 'only'].includes(tokens[i - 1]?.base ?? '')
  ) {
    // "first thing Monday", "first thing in the morning".
    const inThe =
      tokens[i + 2]?.base === 'in' && tokens[i + 3]?.base === 'the' && partWord(tokens[i + 4]) === 'morning';
    return { i, j: inThe ? i + 4 : i + 1, kind: 'part', part: 'morning' };
  }
  if (t.base === 'dark' && tokens[i - 1]?.base === 'after')
    return { i: i - 1, j: i, kind: 'part', part: 'night' };
  const part = partWord(t);
  if (!part || t.base === 'am') return null;
  if (greetingBefore(tokens, i) || salutation(tokens, i) || lengthOfTime(tokens, i)) return null;
  // "Christmas Eve" is a holiday, and a holiday names no time.
  if (t.base === 'eve' && /^(christmas|xmas|year|years)$/.test(tokens[i - 1]?.base ?? '')) return null;
  // "lunch" is a time after a word that puts it as one ("at lunch", "for lunch", "Sunday lunch").
  if (
    part === 'lunch' &&
    !['at', 'after', 'before', 'over', 'around', 'by', 'till', 'until', 'during', 'for'].includes(
      tokens[i - 1]?.base ?? '',
    ) &&
    !dayWord(tokens[i - 1])
  )
    return null;
  if (
    ['dinner', 'dinnertime', 'supper', 'suppertime'].includes(t.base) &&
    !['at', 'after', 'before', 'around', 'round', 'about', 'by', 'till', 'til', 'until', 'during'].includes(
      tokens[i - 1]?.base ?? '',
    )
  )
    return null;
  const b = tokens[i - 1]?.base;
  const habitual = t.norm.endsWith('s') || ['every', 'most', 'each', 'all'].includes(b ?? '');
  // "a July afternoon": the month describes the part of day.
  if (monthWord(tokens[i - 1]) && !/[,.;!?]/.test(tokens[i - 1].after))
    return { i: i - 1, j: i, kind: 'part', part, habitual };
  // "after lunch" is the afternoon.
  if (part === 'lunch' && b === 'after') return { i: i - 1, j: i, kind: 'part', part: 'afternoon' };
  // "this afternoon" is today; "tomorrow morning" joins later.
  if (b === 'this' && part !== 'night') return { i: i - 1, j: i, kind: 'part', part, day: 'today' } as Atom;
  return { i, j: i, kind: 'part', part, habitual };
}

function ambiguousDayOk(tokens: Token[], i: number, clocks: Clock[]): boolean {
  const prev = tokens[i - 1]?.base ?? '';
  const next = tokens[i + 1];
  if (
    [
      'on',
      'this',
      'next',
      'last',
      'by',
      'till',
      'til',
      'until',
      'thru',
      'through',
      'for',
      'from',
      'before',
      'after',
      'free',
      'or',
      'and',
      'do',
      'about',
      'abt',
      'u',
      'you',
      'ya',
    ].includes(prev)
  )
    return true;
  if (!next || /[,.;!?]/.test(tokens[i].after)) return i === 0 || /[.?!]/.test(tokens[i - 1].after);
  if (partWord(next) || ordinalAt(tokens, next.base === 'the' ? i + 2 : i + 1) || slashDate(tokens, i + 1))
    return true;
  // "sat at 10", "11 sat": a clock time beside it.
  if (clocks.some((c) => c.i === i + 1 || c.i === i + 2 || c.j === i - 1)) return true;
  return [
    'works',
    'work',
    'is',
    'at',
    'good',
    'ok',
    'r',
    'are',
    'then',
    'instead',
    'better',
    'fine',
    'or',
    'am',
    'pm',
  ].includes(next.base);
}

function readDay(tokens: Token[], i: number, clocks: Clock[]): Atom | null {
  const t = tokens[i];
  const day = dayWord(t);
  if (!day) return null;
  // "the day after tomorrow": a day the guide has no name for.
  if (day === 'tomorrow' && tokens[i - 1]?.base === 'after' && tokens[i - 2]?.base === 'day') return null;
  if (AMBIGUOUS_DAYS.has(t.base) && !ambiguousDayOk(tokens, i, clocks)) return null;
  const b = tokens[i - 1]?.base;
  // "Thursdays" (but not "thurs", "tues", "weds", which are the day).
  const habitual =
    (day !== 'weekend' &&
      /days$/.test(t.norm) &&
      !t.clitic &&
      !['is', 'no', 'not', 'r', 'are'].includes(tokens[i + 1]?.base ?? '')) ||
    b === 'every' ||
    b === 'most';
  if (day === 'weekend' && greetingBefore(tokens, i - (b === 'the' ? 1 : 0))) return null;
  // "did his whole place in like a weekend": a length of time.
  if (day === 'weekend' && b === 'a' && ['in', 'like', 'within'].includes(tokens[i - 2]?.base ?? ''))
    return null;
  // "Happy Friday!": a greeting; "Black Friday", "Easter Sunday": a holiday.
  if (b === 'happy' && !/[,.;!?]/.test(tokens[i - 1].after)) return null;
  const weekday = !['today', 'tonight', 'tomorrow', 'weekend'].includes(day);
  if (weekday && cueEndingAt(tokens, i - 1, HOLIDAY_DAY) && !/[,.;!?]/.test(tokens[i - 1].after)) return null;
  // "get back to your Saturday", "enjoy the rest of your Sunday": a leave-taking.
  if (['your', 'ur', 'yr'].includes(b ?? '') && greetingBefore(tokens, i)) return null;
  let start = i;
  if (b === 'next' || b === 'this' || b === 'last' || b === 'that') start = i - 1;
  // "sat/sun": the weekend.
  if (t.base.startsWith('sat') && tokens[i].after.includes('/') && dayWord(tokens[i + 1]) === 'sunday')
    return { i: start, j: i + 1, kind: 'day', day: 'weekend' };
  // "tmrw am", "tomorrow pm": a part of day said as am or pm.
  const ap = tokens[i + 1]?.base;
  if (
    (ap === 'am' || ap === 'pm') &&
    !/[,.;!?]/.test(tokens[i].after) &&
    // "Friday am I right": the verb, not the morning.
    !(tokens[i + 2]?.base === 'i' && !tokens[i + 2].clitic)
  )
    return {
      i: start,
      j: i + 1,
      kind: 'day',
      day,
      habitual,
      part: ap === 'am' ? 'morning' : 'afternoon',
      ampm: ap,
    };
  return { i: start, j: i, kind: 'day', day, habitual };
}

/** "next week", "this week", "next wk", "early next week", "the week of the 16th". */
function readWeek(tokens: Token[], i: number): Atom | null {
  const t = tokens[i];
  // "by the end of the week": this week.
  if (
    t.base === 'end' &&
    tokens[i + 1]?.base === 'of' &&
    tokens[i + 2]?.base === 'the' &&
    ['week', 'wk'].includes(tokens[i + 3]?.base ?? '')
  ) {
    const start = tokens[i - 1]?.base === 'the' ? i - 1 : i;
    return { i: start, j: i + 3, kind: 'day', day: 'this week' };
  }
  if (t.base !== 'next' && t.base !== 'this') return null;
  const w = tokens[i + 1]?.base;
  if (w !== 'week' && w !== 'wk') return null;
  return { i, j: i + 1, kind: 'day', day: `${t.base} week` };
}

function weekOf(tokens: Token[], i: number): Atom | null {
  // "(the) week of the 16th", "wk of the 20th".
  const t = tokens[i];
  if (t.base !== 'week' && t.base !== 'wk') return null;
  if (tokens[i + 1]?.base !== 'of') return null;
  const d = readDate(tokens, i + 2);
  if (!d) return null;
  const start = tokens[i - 1]?.base === 'the' ? i - 1 : i;
  return { ...d, i: start };
}

function atomsOf(tokens: Token[], clocks: Clock[]): Atom[] {
  const atoms: Atom[] = [];
  const byStart = new Map(clocks.map((c) => [c.i, c]));
  for (let i = 0; i < tokens.length; i++) {
    const c = byStart.get(i);
    if (c) {
      atoms.push({ i: c.i, j: c.j, kind: 'clock', clock: c, part: c.part });
      i = c.j;
      continue;
    }
    const a =
      weekOf(tokens, i) ??
      readWeek(tokens, i) ??
      readDate(tokens, i) ??
      readDay(tokens, i, clocks) ??
      readPart(tokens, i);
    if (a) {
      atoms.push(a);
      i = Math.max(i, a.j);
    }
  }
  return atoms;
}

/** Whether the words between two atoms only join them ("Thursday morning AROUND nine"). */
function connected(tokens: Token[], a: Atom, b: Atom): boolean {
  let k = a.j + 1;
  if (/[.;!?]/.test(tokens[a.j].after)) return false;
  while (k < b.i) {
    const n = cueAt(tokens, k, CONNECT);
    if (!n) return false;
    if (/[.;!?]/.test(tokens[k + n - 1].after)) return false;
    k += n;
  }
  return k === b.i;
}

interface Mention {
  i: number;
  j: number;
  day: string | null;
  weekday: string | null;
  part: DayPart | null;
  clock: Clock | null;
  ampm: 'am' | 'pm' | null;
  habitual: boolean;
  atoms: Atom[];
}

function compose(tokens: Token[], atoms: Atom[]): Mention[] {
  const out: Mention[] = [];
  let cur: Mention | null = null;
  for (const a of atoms) {
    const range = !!cur && a.kind === 'clock' && !!cur.clock && rangeJoin(tokens, cur, a);
    const fits =
      cur &&
      (range || connected(tokens, cur.atoms[cur.atoms.length - 1], a)) &&
      !(a.kind === 'clock' && cur.clock && !range) &&
      !(a.kind === 'part' && cur.part && cur.part !== a.part) &&
      !(a.kind === 'day' && (cur.weekday || cur.day)) &&
      !(a.kind === 'date' && cur.day && !cur.weekday);
    if (!cur || !fits) {
      cur = {
        i: a.i,
        j: a.j,
        day: null,
        weekday: null,
        part: null,
        clock: null,
        ampm: null,
        habitual: false,
        atoms: [],
      };
      out.push(cur);
    }
    cur.atoms.push(a);
    cur.j = a.j;
    cur.habitual = cur.habitual || !!a.habitual;
    if (a.kind === 'day') {
      if (
        a.day &&
        ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'].includes(a.day)
      )
        cur.weekday = a.day;
      if (!cur.day) cur.day = a.day ?? null;
      if (a.part) cur.part = a.part;
      if (a.ampm) cur.ampm = a.ampm;
    }
    if (a.kind === 'date') {
      cur.day = a.day ?? null;
      if (a.part) cur.part = a.part;
      if (a.ampm) cur.ampm = a.ampm;
    }
    if (a.kind === 'part') {
      cur.part = a.part ?? null;
      if (a.day && !cur.day) cur.day = a.day;
    }
    if (a.kind === 'clock') {
      if (!cur.clock) cur.clock = a.clock ?? null;
      else if (a.clock?.ampm && !cur.clock.ampm && !['noon', 'midnight', 'midday'].includes(tokens[a.i].base))
        // "between eight and nine in the morning", "8 to 10am": the half of the day is shared.
        cur.clock = { ...cur.clock, ampm: a.clock.ampm };
      if (a.part) cur.part = a.part;
    }
  }
  return out;
}

/** "between eight and nine in the morning": two clock times read as one, from the first. */
function rangeJoin(tokens: Token[], cur: Mention, a: Atom): boolean {
  const last = cur.atoms[cur.atoms.length - 1];
  if (last.kind !== 'clock') return false;
  const w = tokens[last.j + 1]?.base;
  if (a.i === last.j + 1 && /^[-–]$/.test(tokens[last.j].after)) return true;
  if (a.i !== last.j + 2) return false;
  // "eight to noon", "from nine till five", "between eight and nine in the morning".
  if (w === 'to' || w === 'till' || w === 'til' || w === 'until') return true;
  return w === 'and' && ['between', 'from'].includes(tokens[last.i - 1]?.base ?? '');
}

function fmt(c: Clock): string {
  return `${c.h}:${String(c.m).padStart(2, '0')}`;
}

/**
 * Days that name a span or a relative day ("today", "tonight", "this week", "next week",
 * "weekend"), not one day a homeowner can say yes to: advice may suggest them, and they name no
 * day of the call.
 */
const SPAN_DAYS = new Set(['today', 'tonight', 'this week', 'next week', 'weekend']);

/** Whether a time entity's day is a span or relative day rather than one named day. */
export const isSpanDay = (day: string): boolean => SPAN_DAYS.has(day);

export function findTimes(text: string, ctx: EntityContext = {}): TimeEntity[] {
  const tokens = tokenize(text);
  if (!tokens.length) return [];
  const prev = ctx.previous ? tokenize(ctx.previous) : null;
  const clocks = findClocks(tokens, prev);
  const mentions = compose(tokens, atomsOf(tokens, clocks));
  const prevTimes = prevTimesOf(prev, ctx);
  return mentions.map((m) => {
    const start = tokens[m.i].start;
    const end = tokens[m.j].end;
    const part = m.part;
    const clock = m.clock;
    let ampm = clock?.ampm ?? m.ampm;
    if (clock && !ampm && part) ampm = ampmOfPart(part, clock.h);
    if (clock && !ampm && m.day === 'tonight') ampm = 'pm';
    return {
      start,
      end,
      text: text.slice(start, end),
      day: m.day,
      part: m.day === 'tonight' && part === 'night' ? null : part,
      time: clock ? fmt(clock) : null,
      ampm,
      role: roleOf(tokens, m, ctx, prevTimes, mentions),
    };
  });
}

function mentionsOf(tokens: Token[]): Mention[] {
  return compose(tokens, atomsOf(tokens, findClocks(tokens, null)));
}

const R = (name: string) => T(name);
const DEADLINE = R('ROLE_DEADLINE');
const OFFER_WORD = R('ROLE_OFFER_WORD');
const HISTORY = R('ROLE_HISTORY');
const DESCRIBED = R('ROLE_DESCRIBED');
const DECLINE = R('ROLE_DECLINE');
const AGREE = R('ROLE_AGREE');
const CONFIRM = R('ROLE_CONFIRM');
const PROPOSE = R('ROLE_PROPOSE');
const DECLINE_SAID = R('ROLE_DECLINE_SAID');
const AGREE_SAID = R('ROLE_AGREE_SAID');
const CONFIRM_SAID = R('ROLE_CONFIRM_SAID');
const OWN_STEP = R('ROLE_OWN_STEP');
const VISIT = R('ROLE_VISIT');
const OFFER_SLOT = R('ROLE_OFFER_SLOT');
const ASKS_WHEN = R('ASKS_WHEN');
const CONFLICT = R('ROLE_CONFLICT');
const CONTRAST = R('ROLE_CONTRAST');
const HABIT = R('ROLE_HABIT');
const FUTURE = R('ROLE_FUTURE');

function clauseBounds(tokens: Token[], m: Mention): [number, number] {
  let a = m.i;
  while (
    a > 0 &&
    !/[.?!;]/.test(tokens[a - 1].after) &&
    !['but', 'because', 'cause', 'bc'].includes(tokens[a - 1].base)
  )
    a--;
  let b = m.j;
  while (
    b < tokens.length - 1 &&
    !/[.?!;]/.test(tokens[b].after) &&
    !['but', 'because', 'bc'].includes(tokens[b + 1].base)
  )
    b++;
  return [a, b];
}

function near(tokens: Token[], from: number, to: number, list: CueList): boolean {
  return cueIn(tokens, from, to, list);
}

/** Whether two mentions name the same day or the same clock time. */
function sameMention(m: Mention, p: Mention): boolean {
  return !!(
    (m.day && p.day === m.day) ||
    (m.weekday && p.weekday === m.weekday) ||
    (m.clock && p.clock && p.clock.h === m.clock.h && p.clock.m === m.clock.m)
  );
}

function isPastVerb(t: Token): boolean {
  const w = t.base;
  return (
    w.length > 4 &&
    w.endsWith('ed') &&
    !['need', 'speed', 'indeed', 'proceed', 'succeed', 'exceed', 'bed', 'shed'].includes(w)
  );
}

/** The words around a mention up to a comma or a clause break: "Thursday's no good, how about Friday". */
function localBounds(tokens: Token[], m: Mention, a: number, b: number): [number, number] {
  let la = m.i;
  while (la > a && !/[,:]/.test(tokens[la - 1].after) && !['or', 'and', 'so'].includes(tokens[la - 1].base))
    la--;
  let lb = m.j;
  while (lb < b && !/[,:]/.test(tokens[lb].after) && !['or', 'but'].includes(tokens[lb + 1].base)) lb++;
  return [la, lb];
}

/** When an offer or a price ends: "the rebate's gone at midnight", "the price is good till Friday". */
function deadline(tokens: Token[], m: Mention, a: number, b: number): boolean {
  if (near(tokens, a, b, HISTORY) && !near(tokens, a, b, OFFER_WORD)) return false;
  if (near(tokens, a, b, DEADLINE)) return true;
  const prep = ['till', 'til', 'until', 'through', 'thru', 'by', 'before', 'b4'].includes(
    tokens[m.i - 1]?.base ?? '',
  );
  return prep && near(tokens, a, b, OFFER_WORD);
}

/** The line before as the role reader needs it: its mentions with their roles, and whether it asks when. */
interface PrevTimes {
  mentions: { m: Mention; role: TimeRole }[];
  /** It asks when ("What day works?", "When's he home?", "Morning or afternoon?"). */
  asksWhen: boolean;
}

function prevTimesOf(prev: Token[] | null, ctx: EntityContext): PrevTimes {
  if (!prev) return { mentions: [], asksWhen: false };
  const other: EntityContext = { speaker: ctx.speaker === 'rep' ? 'homeowner' : 'rep' };
  const none: PrevTimes = { mentions: [], asksWhen: false };
  const mentions = mentionsOf(prev).map((m) => ({ m, role: roleOf(prev, m, other, none) }));
  const asked = prev.some((t) => /\?/.test(t.after));
  return { mentions, asksWhen: asked && cueIn(prev, 0, prev.length - 1, ASKS_WHEN) };
}

function roleOf(
  tokens: Token[],
  m: Mention,
  ctx: EntityContext,
  prev: PrevTimes,
  all: Mention[] = [m],
): TimeRole {
  const [a, b] = clauseBounds(tokens, m);
  const [la, lb] = localBounds(tokens, m, a, b);
  const before = tokens[m.i - 1]?.base;
  if (deadline(tokens, m, a, b)) return 'deadline';
  if (
    before === 'last' ||
    tokens[m.j + 1]?.base === 'ago' ||
    m.atoms.some((x) => tokens[x.i].base === 'last')
  )
    return 'history';
  const same = prev.mentions.filter((p) => sameMention(m, p.m));
  const repeated = same.length > 0;
  if (repeated && near(tokens, la, lb, DECLINE)) return 'declined';
  if (repeated && refused(tokens, m, all, prev, [a, b, lb])) return 'declined';
  if (near(tokens, la, lb, DECLINE_SAID) && !near(tokens, m.i, lb, AGREE_SAID)) return 'declined';
  const question = /\?/.test(tokens[b].after);
  const offered = question || near(tokens, a, b, VISIT) || near(tokens, a, b, PROPOSE);
  // "Are mornings better for the install, or afternoons?": kinds of time put as a choice.
  if (m.habitual && !near(tokens, a, b, HABIT) && (question || near(tokens, m.j + 1, b, CONTRAST)))
    return repeated ? 'agreed' : 'proposed';
  if (m.habitual || near(tokens, Math.max(a, m.i - 2), m.i - 1, DESCRIBED))
    return repeated ? 'declined' : 'described';
  // "a July afternoon", "a normal morning": a kind of time, not a date; but "some evening when
  // she's home?" puts one forward.
  if (['a', 'an', 'some'].includes(tokens[m.i - 1]?.base ?? '') && !m.clock && !m.weekday && !offered)
    return 'described';
  // "The crew usually rolls in around seven", "she calls every day at four": what usually happens.
  if (near(tokens, a, b, HABIT) && !question) return 'described';
  // "we had you down for six", "confirmed for tue 18th": an agreed time said again, in the past tense or not.
  if (near(tokens, a, b, CONFIRM_SAID)) return 'confirmed';
  const past = tokens.slice(a, b + 1).some((t) => isPastVerb(t)) || near(tokens, a, m.i - 1, HISTORY);
  const forward = near(tokens, a, b, PROPOSE) || near(tokens, a, b, VISIT) || near(tokens, a, b, OFFER_SLOT);
  if (past && !forward && !question && !near(tokens, a, b, FUTURE)) return 'history';
  const answer = answerRole(tokens, m, ctx, same, question, [a, b, la, lb]);
  if (answer) return answer;
  return nextStepRole(tokens, m, [a, b], question, prev, past);
}

/**
 * A time the line before put forward, said back with something else in its place: another day
 * ("Thursday's cards night, can you do Friday?"), or what fills it ("The 14th is my hospital
 * appointment", "I didn't say four").
 */
function refused(
  tokens: Token[],
  m: Mention,
  all: Mention[],
  prev: PrevTimes,
  [a, b, lb]: number[],
): boolean {
  if (near(tokens, m.i, lb, AGREE_SAID) || agreedByClitic(tokens, m)) return false;
  const kind = (x: Mention) => (x.clock && !x.day && !x.weekday ? 'clock' : 'day');
  const counter = all.some(
    (o) => o !== m && o.i > m.i && kind(o) === kind(m) && !prev.mentions.some((p) => sameMention(o, p.m)),
  );
  const offered =
    tokens.some((t) => /\?/.test(t.after)) || near(tokens, m.j + 1, tokens.length - 1, CONTRAST);
  if ((counter && offered) || near(tokens, a, b, CONFLICT)) return true;
  // "Thursday's my hair appointment", "sat is her sleep in day": the day is someone's already.
  const k = tokens[m.j].clitic === 's' ? m.j + 1 : tokens[m.j + 1]?.base === 'is' ? m.j + 2 : -1;
  return k > 0 && !/[,.;!?]/.test(tokens[k - 1].after) && POSSESSIVE.has(tokens[k]?.base ?? '');
}

/** "Monday's fine", "Friday's good": the clitic is the verb of an acceptance. */
function agreedByClitic(tokens: Token[], m: Mention): boolean {
  return (
    tokens[m.j].clitic === 's' && !/[,.;!?]/.test(tokens[m.j].after) && cueAt(tokens, m.j + 1, AGREE) > 0
  );
}

const POSSESSIVE = new Set(['my', 'her', 'his', 'our', 'their', 'your']);

/** A time the line before put forward, said back: taken (agreed) or, once agreed, repeated (confirmed). */
function answerRole(
  tokens: Token[],
  m: Mention,
  ctx: EntityContext,
  same: { role: TimeRole }[],
  question: boolean,
  [a, b, , lb]: number[],
): TimeRole | null {
  const repeated = same.length > 0;
  if (repeated && near(tokens, 0, tokens.length - 1, CONFIRM) && same.some((p) => p.role !== 'proposed'))
    return 'confirmed';
  if (repeated && !question && same.some((p) => p.role === 'proposed' || p.role === 'other')) return 'agreed';
  if (repeated && same.some((p) => p.role === 'agreed' || p.role === 'confirmed')) return 'confirmed';
  if (repeated && near(tokens, 0, tokens.length - 1, CONFIRM)) return 'confirmed';
  if (repeated && near(tokens, a, b, AGREE))
    return ctx.speaker === 'rep' && near(tokens, a, b, CONFIRM) ? 'confirmed' : 'agreed';
  if (near(tokens, a, b, CONFIRM)) return 'confirmed';
  if (!question && near(tokens, m.j + 1, lb, AGREE_SAID)) return 'agreed';
  return null;
}

/**
 * A time said on the way to something else: how long someone is away or busy ("he won't be home
 * till seven"), or the time a visit moves from ("from wed to thurs").
 */
function aside(tokens: Token[], m: Mention, a: number): boolean {
  const before = tokens.slice(a, m.i).map((t) => t.base);
  const prep = tokens[m.i - 1]?.base ?? '';
  if (['till', 'til', 'until'].includes(prep) && before.some((w) => NEGATION.has(w))) return true;
  return prep === 'from' && tokens[m.j + 1]?.base === 'to';
}

/**
 * "Is the bakery open on Saturday?": a day asked of a place's hours (the/that/this <place> is
 * open or closed), not put to the other person. "Is Saturday open for you?" names the day first.
 */
function hoursOfAPlace(tokens: Token[], m: Mention, a: number): boolean {
  const words = tokens.slice(a, m.i).map((t) => t.norm);
  const at = words.findIndex((w) => w === 'open' || w === 'closed' || w === 'shut');
  if (at < 2) return false;
  let k = at - 1;
  if (['is', 'are', "'s", 's'].includes(words[k])) k--;
  const det = ['the', 'that', 'this'];
  const place = det.includes(words[k - 1]) ? k : det.includes(words[k - 2]) ? k - 1 : -1;
  return place >= 1 && !PERSONAL.has(words[k]) && !PERSONAL.has(words[place]);
}

const PERSONAL = new Set(['you', 'we', 'i', 'us', 'me', 'calendar', 'schedule', 'diary', 'slot', 'day']);

const NEGATION = new Set([
  "won't",
  'wont',
  "don't",
  'dont',
  "doesn't",
  'doesnt',
  'not',
  "isn't",
  'isnt',
  "can't",
  'cant',
  'never',
]);

/**
 * A time for a next step: put to the other person (proposed), or only when the speaker will do
 * something of their own ("I'll send it tonight", "let me talk to my wife tonight": other).
 */
function nextStepRole(
  tokens: Token[],
  m: Mention,
  [a, b]: number[],
  question: boolean,
  prev: PrevTimes,
  past: boolean,
): TimeRole {
  const visit = near(tokens, a, b, VISIT);
  if (near(tokens, a, b, OWN_STEP) && !visit && !question) return 'other';
  if (aside(tokens, m, a)) return 'other';
  if (!visit && hoursOfAPlace(tokens, m, a)) return 'other';
  if (question) return 'proposed';
  // "Diane called you guys Tuesday": a past visit or call is the story, not a day put forward.
  if (past && !prev.asksWhen) return 'history';
  if (near(tokens, a, b, PROPOSE) || near(tokens, a, b, OFFER_SLOT) || visit) return 'proposed';
  // "Saturday." after "What's your next day off?": an answer to when is a time put forward.
  if (prev.asksWhen) return 'proposed';
  return 'other';
}
