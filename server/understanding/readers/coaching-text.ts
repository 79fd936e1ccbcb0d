import cues from '../cues/coaching.json';
import { SECTION_TITLES } from '../../../core/coaching-format';
import { PERSONAS, STAGES } from '../../../core/stages';
import namesData from '../entities/names.json';
import { normalizeText, splitSentences } from '../text/normalise';
import { COUNTING_WORDS } from '../entities/numbers';

/**
 * Reading a coaching text (not the call): the claims it makes about the call ("never asked for
 * the sale", "no objection came up"), the figures it states ("3 options", "11 questions, 4 of
 * them open") and the words quoted from the call, so each can be checked against the call's facts.
 */

export type Claim =
  | 'NO_ASK'
  | 'NO_AGREEMENT'
  | 'NO_OBJECTION'
  | 'SINGLE_OFFER'
  | 'NO_DAY'
  | 'PRICE_OBJECTION'
  | 'ROLE_PLAY'
  | 'TIMING'
  | 'INVITE'
  | 'AGREED'
  | 'NO_PRICES'
  | 'GOT_YES';

const CLAIMS = Object.entries(cues as Record<Claim, { cues: string[] }>).map(([claim, v]) => ({
  claim: claim as Claim,
  phrases: v.cues.map((c) => c.toLowerCase()),
}));

/** The claims a sentence of coaching makes, by its wording. */
export function claimsIn(sentence: string): Claim[] {
  const s = ` ${sentence.toLowerCase().replace(/[’]/g, "'")} `;
  return CLAIMS.filter((c) => c.phrases.some((p) => s.includes(p))).map((c) => c.claim);
}

export interface StatedCount {
  n: number;
  /** The counted thing, singular: "option", "question", "open question", "objection"... */
  noun: string;
}

/** A count the coaching states of what the rep did: "you presented 3 options", "asked 11 questions". */
const COUNT =
  /\b(?:presented|offered|laid out|asked|gave|priced|raised|named|counted|had|used) (?:\w+ ){0,2}?(\d+|no|one|two|three|four|five|six|seven|eight|nine|ten)( open| closed| priced| discovery)? (options?|questions?|objections?|packages?|prices?)\b/gi;
const OF_THEM = /\b(\d+) of them (open|closed)\b/gi;

/** The counts a coaching sentence states: "presented 3 options", "11 questions, 4 of them open". */
export function countsIn(sentence: string): StatedCount[] {
  const out: StatedCount[] = [];
  for (const m of sentence.matchAll(COUNT)) {
    const word = m[1].toLowerCase();
    const n = word === 'no' ? 0 : (COUNTING_WORDS[word] ?? Number(m[1]));
    const noun = `${m[2] ? `${m[2].trim().toLowerCase()} ` : ''}${m[3].toLowerCase().replace(/s$/, '')}`;
    out.push({ n, noun });
  }
  for (const m of sentence.matchAll(OF_THEM))
    out.push({ n: Number(m[1]), noun: `${m[2].toLowerCase()} question` });
  return out;
}

/** The spans of a coaching text in double quotes (straight or curly), without the marks. */
export function quotedIn(text: string): string[] {
  return [...text.matchAll(/["“]([^"”]+)["”]/g)].map((m) => m[1]);
}

/** A coaching part's lines: block quotes ('> ...') apart from its sentences of prose. */
export function coachingLines(text: string): { quotes: string[]; sentences: string[] } {
  const quotes: string[] = [];
  const sentences: string[] = [];
  for (const line of text.split('\n')) {
    const t = line.trim();
    if (!t) continue;
    if (t.startsWith('>')) quotes.push(t.replace(/^>\s*/, '').replace(/^["“]|["”]$/g, ''));
    else sentences.push(...splitSentences(t.replace(/\*\*/g, '')));
  }
  return { quotes, sentences };
}

/**
 * A coaching sentence with its section scores ("2/10") taken out: a score is no date or amount,
 * and the readers of days and prices would otherwise read "2/10" as the second of October.
 */
export function withoutScores(sentence: string): string {
  return sentence.replace(/\b\d{1,2}(?:\.\d+)?\s*\/\s*10\b/g, 'the score');
}

/** A quote as it would read in the call: no ellipsis added where it was cut. */
export function unclipped(quote: string): string {
  return quote.replace(/\.\.\.["”]?\s*$/, '').trim();
}

const TO_SPEAKER: Record<string, string> = {
  your: 'my',
  you: 'i',
  youre: 'im',
  youve: 'ive',
  yours: 'mine',
  youd: 'id',
  youll: 'ill',
};

/**
 * The longest run of words a coaching sentence shares with what someone said, reading the
 * coaching's "you" as their "I": a clause of theirs pasted into a line of advice shows as a long run.
 */
export function longestSharedRun(coaching: string, said: string): number {
  const words = normalizeText(coaching)
    .split(' ')
    .map((w) => TO_SPEAKER[w] ?? w);
  const text = ` ${normalizeText(said)} `;
  let best = 0;
  for (let i = 0; i < words.length; i++) {
    let j = i + best + 1;
    while (j <= words.length && text.includes(` ${words.slice(i, j).join(' ')} `)) {
      best = j - i;
      j++;
    }
  }
  return best;
}

const FIRST_NAMES = new Set((namesData as { names: string[] }).names);

/**
 * Capitalised words of coaching prose that can only be names: mid-clause (not opening a
 * sentence, a quote or a bracket), or a known first name anywhere ("Nancy should be there"). In
 * coaching written for a rep each is a person, and must be a person of the call.
 */
export function namesIn(sentence: string): string[] {
  const out: string[] = [];
  const tokens = sentence.split(/\s+/).filter(Boolean);
  tokens.forEach((tok, i) => {
    const word = tok.replace(/^[^A-Za-z]+/, '').replace(/(['’]s)?[^A-Za-z]*$/, '');
    if (!/^[A-Z][a-z]+$/.test(word)) return;
    const prev = tokens[i - 1] ?? '';
    const opens = i === 0 || /[.!?:;—–-]["”')\]]*$/.test(prev) || /^[^A-Za-z]/.test(tok);
    if (opens && !FIRST_NAMES.has(word.toLowerCase())) return;
    out.push(word);
  });
  return out;
}

/**
 * The coaching in a model's reply: without a code fence around it or a preamble before its
 * Summary heading ("Sure! Here is the coaching:").
 */
export function coachingFromReply(raw: string): string {
  let text = raw.replace(/^\s*```[a-z]*\s*\n?/i, '').replace(/\n?```\s*$/i, '');
  const start = text.search(/^\s*(#{1,6}\s*|\*\*)summary\b/im);
  if (start > 0) text = text.slice(start);
  return text.trim();
}

/** The words a block of coaching quotes: each `>` line without its mark or a closing "...", normalized. */
export function quotedLinesOf(content: string): string[] {
  return content
    .split('\n')
    .filter((l) => l.trim().startsWith('>'))
    .map((l) => normalizeText(unclipped(l.replace(/^\s*>\s*/, ''))));
}

/** Capitalised words coaching prose uses that are no names: its own headings, trades, days, months. */
const NOT_NAMES = new Set(
  [
    ...Object.values(SECTION_TITLES),
    ...STAGES,
    ...Object.values(PERSONAS).flatMap((p) => [p.buyerType, p.focus]),
    'Monday Tuesday Wednesday Thursday Friday Saturday Sunday',
    'January February March April May June July August September October November December',
    'Best Summary Score Strength Improve Try Keep Today Tonight Tomorrow Weekend Weekends',
  ]
    .join(' ')
    .replaceAll('/', ' ')
    .replaceAll('&', ' ')
    .split(' ')
    .filter(Boolean),
);

/** The names a coaching sentence says bare, less the coaching's own capitalised words (headings, trades, days). */
export const namesOfPeopleIn = (sentence: string): string[] =>
  namesIn(sentence).filter((w) => !NOT_NAMES.has(w));
