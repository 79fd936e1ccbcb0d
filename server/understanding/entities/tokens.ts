/**
 * Words with their character spans, as the entity readers see them: lowercase, apostrophes
 * straightened, a clitic ("thursday's", "we'll") split off into `clitic`, and the punctuation
 * between words kept beside them (`before`, `after`) instead of as tokens, so "ten-nine",
 * "$12,400" and "5 or 6 grand" read the same in clean, typed and recogniser text.
 */

export interface Token {
  /** The text as written. */
  raw: string;
  start: number;
  end: number;
  /** Lowercase, straight apostrophes. */
  norm: string;
  /** `norm` without a trailing clitic: "thursday's" -> "thursday", "we'll" -> "we". */
  base: string;
  /** The clitic split off ("s", "ll", "re", "ve", "d", "m", "t"), or "". */
  clitic: string;
  /** Punctuation between the previous word and this one (spaces removed): "-", ",", "$", "". */
  before: string;
  /** Punctuation between this word and the next. */
  after: string;
  /** Whether the text had letters in uppercase at the start ("Linda"). */
  capital: boolean;
  /** For a token with digits: what they say. */
  digits?: DigitInfo;
}

export interface DigitInfo {
  /** The number, with a k or m suffix applied: "9.5k" -> 9500. */
  value: number;
  /** A suffix as written, lowercase: "k", "m", "pm", "am", "th", "s", "ish", "" ... */
  suffix: string;
  /** "12,400": written with thousands separators. */
  grouped: boolean;
  /** "9.5", "1.50": written with a decimal point. */
  decimal: boolean;
  /** "4:30": a clock time (hours and minutes). */
  clock?: { h: number; m: number };
  /** Digits as written, without separators or suffix ("2009"). */
  plain: string;
}

const TOKEN = /[\p{L}\p{M}]+(?:['’][\p{L}\p{M}]+)*|\d+(?:[.,:]\d+)*[\p{L}]*|\S/gu;
const CLITICS = ['s', 'll', 're', 've', 'd', 'm', 't'];
const WORDISH = /^[\p{L}\p{M}\d]/u;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let pending = '';
  for (const m of text.matchAll(TOKEN)) {
    const raw = m[0];
    const start = m.index ?? 0;
    if (!WORDISH.test(raw)) {
      pending += raw;
      if (tokens.length) tokens[tokens.length - 1].after += raw;
      continue;
    }
    const norm = raw.toLowerCase().replace(/’/g, "'");
    let base = norm;
    let clitic = '';
    const apo = norm.lastIndexOf("'");
    if (apo > 0) {
      const tail = norm.slice(apo + 1);
      if (CLITICS.includes(tail)) {
        // "can't", "won't", "don't": the negation stays with the word.
        if (tail === 't') base = norm;
        else {
          base = norm.slice(0, apo);
          clitic = tail;
        }
      }
    }
    const token: Token = {
      raw,
      start,
      end: start + raw.length,
      norm,
      base,
      clitic,
      before: pending,
      after: '',
      capital: /^\p{Lu}/u.test(raw),
    };
    if (/^\d/.test(raw)) token.digits = readDigits(norm);
    tokens.push(token);
    pending = '';
  }
  return tokens;
}

function readDigits(norm: string): DigitInfo {
  const m = /^([\d.,:]+?)([a-z]*)$/.exec(norm);
  const body = m ? m[1] : norm;
  const suffix = m ? m[2] : '';
  const clock = /^(\d{1,2}):(\d{2})$/.exec(body);
  if (clock) {
    return {
      value: Number(clock[1]),
      suffix,
      grouped: false,
      decimal: false,
      clock: { h: Number(clock[1]), m: Number(clock[2]) },
      plain: body,
    };
  }
  const grouped = /^\d{1,3}(,\d{3})+(\.\d+)?$/.test(body);
  let plain = body;
  if (grouped) plain = body.replace(/,/g, '');
  // "13,9": a decimal comma, as some write "13.9".
  else if (/^\d{1,2},\d{1,2}$/.test(body)) plain = body.replace(',', '.');
  else if (body.includes(',')) plain = body.split(',')[0];
  const decimal = /\.\d/.test(plain);
  let value = Number(plain.replace(/\.$/, ''));
  if (!Number.isFinite(value)) value = Number.parseFloat(plain) || 0;
  if (suffix === 'k') value *= 1000;
  if (suffix === 'm' || suffix === 'mil') value *= 1_000_000;
  return { value: round2(value), suffix, grouped, decimal, plain };
}

export function round2(n: number): number {
  return Math.round(n * 100) / 100;
}

/** The span of tokens i..j (inclusive) in the text. */
export function spanOf(
  text: string,
  tokens: Token[],
  i: number,
  j: number,
): { start: number; end: number; text: string } {
  const start = tokens[i].start;
  const end = tokens[j].end;
  return { start, end, text: text.slice(start, end) };
}

/** Whether a clause or sentence ends between token i and the next one. */
export function breaksAfter(t: Token | undefined): boolean {
  if (!t) return true;
  return /[.!?;:]/.test(t.after) || /,/.test(t.after);
}

export function hardBreakAfter(t: Token | undefined): boolean {
  if (!t) return true;
  return /[.!?;]/.test(t.after);
}
