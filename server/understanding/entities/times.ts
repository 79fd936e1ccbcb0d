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
const HOLIDAY = T('HOLIDAY');
const holidays = [...HOLIDAY.words, ...HOLIDAY.phrases.map((p) => p.join(' '))].map((e) => {
  const [form, date] = e.split('=');
  return { words: form.split(' '), date };
});
holidays.sort((a, b) => b.words.length - a.words.length);
const HOLIDAY_BEFORE = new Set([
  'before',
  'by',
  'on',
  'over',
  'after',
  'until',
  'till',
  'til',
  'for',
  'around',
  'near',
  'since',
  'at',
]);

/** "before Christmas", "by the Fourth", "over New Year's": a holiday on a fixed date. */
function readHoliday(tokens: Token[], i: number): Atom | null {
  let k = i;
  if (tokens[k]?.base === 'the') k++;
  if (!HOLIDAY_BEFORE.has(tokens[i - 1]?.base ?? '')) return null;
  // "the Fourth", capitalised, is the Fourth of July.
  if (k > i && tokens[k]?.raw === 'Fourth' && tokens[k + 1]?.base !== 'of')
    return { i, j: k, kind: 'date', day: 'july 4' };
  for (const h of holidays) {
    let ok = true;
    for (let n = 0; n < h.words.length && ok; n++)
      ok = tokens[k + n]?.norm === h.words[n] || tokens[k + n]?.base === h.words[n];
    if (ok) return { i, j: k + h.words.length - 1, kind: 'date', day: h.date };
  }
  return null;
}

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
const AMBIGUOUS_DAYS = new Set(['sat', 'sun', 'wed', 'mon', 'tue', 'thu', 'fri']);

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

function readDate(tokens: Token[], i: number): Atom | null {
  const t = tokens[i];
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
  if (!hasThe && !digits) {
    // A bare ordinal word is a date only after a weekday ("Monday ninth") or before "of June".
    if (!dayWord(tokens[i - 1]) && !(tokens[o.end + 1]?.base === 'of' && monthWord(tokens[o.end + 2])))
      return null;
  }
  const next = tokens[o.end + 1];
  const joinedNext = next && !/[,.;!?]/.test(tokens[o.end].after);
  // "the 14th is no good", "the 21st at 6"; but "the first freeze", "1st payment" rank things.
  if (joinedNext && !cueAt(tokens, o.end + 1, DATE_FOLLOW)) return null;
  if (!digits && (o.n === 1 || o.n === 2) && !dayWord(tokens[i - 1])) {
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
  return { i, j, kind: 'date', day };
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
  const lineStart = i === 0 || /[.!?]/.test(tokens[i - 1].after);
  const next = tokens[i + 1];
  if (lineStart && (!next || /[,!.]/.test(t.after) || !(VERBISH_AFTER.has(next.base) || next.clitic)))
    return true;
  const end = !next || /[!.]/.test(t.after);
  return end && /,/.test(tokens[i - 1]?.after ?? '') && !dayWord(tokens[i - 1]);
}

function readPart(tokens: Token[], i: number): Atom | null {
  const t = tokens[i];
  if (t.base === 'first' && tokens[i + 1]?.base === 'thing') {
    // "first thing Monday", "first thing in the morning".
    const inThe =
      tokens[i + 2]?.base === 'in' && tokens[i + 3]?.base === 'the' && partWord(tokens[i + 4]) === 'morning';
    return { i, j: inThe ? i + 4 : i + 1, kind: 'part', part: 'morning' };
  }
  if (t.base === 'dark' && tokens[i - 1]?.base === 'after')
    return { i: i - 1, j: i, kind: 'part', part: 'night' };
  const part = partWord(t);
  if (!part || t.base === 'am') return null;
  if (greetingBefore(tokens, i) || salutation(tokens, i)) return null;
  if (
    part === 'lunch' &&
    !['at', 'after', 'before', 'over', 'around', 'by', 'till', 'until', 'during'].includes(
      tokens[i - 1]?.base ?? '',
    )
  )
    return null;
  if (
    ['dinner', 'dinnertime', 'supper'].includes(t.base) &&
    !['at', 'after', 'before', 'around', 'by', 'till', 'until', 'during'].includes(tokens[i - 1]?.base ?? '')
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
  if (partWord(next) || ordinalAt(tokens, next.base === 'the' ? i + 2 : i + 1)) return true;
  if (clocks.some((c) => c.i === i + 1 || c.i === i + 2)) return true;
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
  if (AMBIGUOUS_DAYS.has(t.base) && !ambiguousDayOk(tokens, i, clocks)) return null;
  const b = tokens[i - 1]?.base;
  const habitual =
    (day !== 'weekend' &&
      t.norm.endsWith('s') &&
      !t.clitic &&
      !['is', 'no', 'not', 'r', 'are'].includes(tokens[i + 1]?.base ?? '')) ||
    b === 'every' ||
    b === 'most';
  if (day === 'weekend' && greetingBefore(tokens, i - (b === 'the' ? 1 : 0))) return null;
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
    !['i', 'we'].includes(tokens[i + 2]?.base ?? '-')
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
      readHoliday(tokens, i) ??
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
    if (a.kind === 'date') cur.day = a.day ?? null;
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

export function findTimes(text: string, ctx: EntityContext = {}): TimeEntity[] {
  const tokens = tokenize(text);
  if (!tokens.length) return [];
  const prev = ctx.previous ? tokenize(ctx.previous) : null;
  const clocks = findClocks(tokens, prev);
  const mentions = compose(tokens, atomsOf(tokens, clocks));
  const prevTimes = prev ? mentionsOf(prev) : [];
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
      role: roleOf(tokens, m, ctx, prevTimes),
    };
  });
}

function mentionsOf(tokens: Token[]): Mention[] {
  return compose(tokens, atomsOf(tokens, findClocks(tokens, null)));
}

const R = (name: string) => T(name);
const DEADLINE = R('ROLE_DEADLINE');
const HISTORY = R('ROLE_HISTORY');
const DESCRIBED = R('ROLE_DESCRIBED');
const DECLINE = R('ROLE_DECLINE');
const AGREE = R('ROLE_AGREE');
const CONFIRM = R('ROLE_CONFIRM');
const PROPOSE = R('ROLE_PROPOSE');
const DECLINE_SAID = R('ROLE_DECLINE_SAID');
const AGREE_SAID = R('ROLE_AGREE_SAID');

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

function sameAsPrevious(m: Mention, prev: Mention[]): boolean {
  return prev.some(
    (p) =>
      (m.day && p.day === m.day) ||
      (m.weekday && p.weekday === m.weekday) ||
      (m.clock && p.clock && p.clock.h === m.clock.h && p.clock.m === m.clock.m),
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

function roleOf(tokens: Token[], m: Mention, ctx: EntityContext, prev: Mention[]): TimeRole {
  const [a, b] = clauseBounds(tokens, m);
  const [la, lb] = localBounds(tokens, m, a, b);
  const before = tokens[m.i - 1]?.base;
  if (near(tokens, a, b, DEADLINE) && !near(tokens, a, b, HISTORY)) return 'deadline';
  if (
    before === 'last' ||
    tokens[m.j + 1]?.base === 'ago' ||
    m.atoms.some((x) => tokens[x.i].base === 'last')
  )
    return 'history';
  const repeated = sameAsPrevious(m, prev);
  if (repeated && near(tokens, la, lb, DECLINE)) return 'declined';
  if (near(tokens, la, lb, DECLINE_SAID) && !near(tokens, m.i, lb, AGREE_SAID)) return 'declined';
  if (m.habitual || near(tokens, Math.max(a, m.i - 2), m.i - 1, DESCRIBED))
    return repeated ? 'declined' : 'described';
  // "a July afternoon", "a normal morning": a kind of time, not a date.
  if (['a', 'an'].includes(tokens[m.i - 1]?.base ?? '') && !m.clock && !m.weekday) return 'described';
  const past = tokens.slice(a, b + 1).some((t) => isPastVerb(t)) || near(tokens, a, m.i - 1, HISTORY);
  if (past && !near(tokens, a, b, PROPOSE)) return 'history';
  if (repeated && near(tokens, 0, tokens.length - 1, CONFIRM)) return 'confirmed';
  if (repeated && near(tokens, a, b, AGREE))
    return ctx.speaker === 'rep' && near(tokens, a, b, CONFIRM) ? 'confirmed' : 'agreed';
  if (near(tokens, a, b, CONFIRM)) return 'confirmed';
  const question = /\?/.test(tokens[b].after);
  if (!question && near(tokens, m.j + 1, lb, AGREE_SAID)) return 'agreed';
  if (near(tokens, a, b, PROPOSE) || question) return 'proposed';
  if (past) return 'history';
  return 'other';
}
