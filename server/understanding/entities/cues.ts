import type { Token } from './tokens';
import lexicon from './lexicon.json';

/**
 * The word lists the entity readers listen for live in lexicon.json (each with a line saying
 * what it is for); this module turns them into sets and phrase lists and matches them on
 * tokens. A phrase is matched on token `base` forms ("thursday's" matches "thursday").
 */

type Lexicon = Record<string, Record<string, { about: string; cues: string[] }>>;
const LEX = lexicon as unknown as Lexicon;

export interface CueList {
  words: Set<string>;
  phrases: string[][];
  /** Phrases by their first word, and by their last, longest first. */
  byFirst: Map<string, string[][]>;
  byLast: Map<string, string[][]>;
}

function index(phrases: string[][], at: (p: string[]) => string): Map<string, string[][]> {
  const map = new Map<string, string[][]>();
  for (const p of phrases) {
    const list = map.get(at(p)) ?? [];
    list.push(p);
    map.set(at(p), list);
  }
  return map;
}

function compile(cues: string[]): CueList {
  const words = new Set<string>();
  const phrases: string[][] = [];
  for (const c of cues) {
    const parts = c.toLowerCase().split(' ').filter(Boolean);
    if (parts.length === 1) words.add(parts[0]);
    else phrases.push(parts);
  }
  phrases.sort((a, b) => b.length - a.length);
  return {
    words,
    phrases,
    byFirst: index(phrases, (p) => p[0]),
    byLast: index(phrases, (p) => p[p.length - 1]),
  };
}

function candidates(map: Map<string, string[][]>, t: Token): string[][] {
  const a = map.get(t.base);
  const b = t.norm !== t.base ? map.get(t.norm) : undefined;
  if (a && b) return [...a, ...b].sort((x, y) => y.length - x.length);
  return a ?? b ?? [];
}

const cache = new Map<string, CueList>();

/** The cue list `name` of family `family` in lexicon.json. */
export function cues(family: string, name: string): CueList {
  const key = `${family}.${name}`;
  let list = cache.get(key);
  if (!list) {
    const entry = LEX[family]?.[name];
    if (!entry) throw new Error(`no cue list ${key}`);
    list = compile(entry.cues);
    cache.set(key, list);
  }
  return list;
}

function tokenIs(t: Token | undefined, w: string): boolean {
  return !!t && (t.base === w || t.norm === w);
}

/** The length (in tokens) of the cue that starts at token i, or 0. */
export function cueAt(tokens: Token[], i: number, list: CueList): number {
  const t = tokens[i];
  if (!t) return 0;
  for (const p of candidates(list.byFirst, t)) {
    let ok = true;
    for (let k = 0; k < p.length && ok; k++) ok = tokenIs(tokens[i + k], p[k]);
    if (ok) return p.length;
  }
  return list.words.has(t.base) || list.words.has(t.norm) ? 1 : 0;
}

/** The length of the cue that ends at token j (inclusive), or 0. */
export function cueEndingAt(tokens: Token[], j: number, list: CueList): number {
  const last = tokens[j];
  if (!last) return 0;
  for (const p of candidates(list.byLast, last)) {
    const i = j - p.length + 1;
    if (i < 0) continue;
    let ok = true;
    for (let k = 0; k < p.length && ok; k++) ok = tokenIs(tokens[i + k], p[k]);
    if (ok) return p.length;
  }
  const t = tokens[j];
  return t && (list.words.has(t.base) || list.words.has(t.norm)) ? 1 : 0;
}

/** Whether a cue starts anywhere in tokens from..to (inclusive). */
export function cueIn(tokens: Token[], from: number, to: number, list: CueList): boolean {
  for (let i = Math.max(0, from); i <= Math.min(to, tokens.length - 1); i++)
    if (cueAt(tokens, i, list)) return true;
  return false;
}

/** The index of the first token where a cue starts in from..to, or -1. */
export function findCue(tokens: Token[], from: number, to: number, list: CueList): number {
  for (let i = Math.max(0, from); i <= Math.min(to, tokens.length - 1); i++)
    if (cueAt(tokens, i, list)) return i;
  return -1;
}
