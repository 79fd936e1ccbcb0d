import type { RuleReading } from '../rules';
import { normalise } from '../text/match';
import type { Speaker } from '../types';

/**
 * The features the learned classifier reads from one utterance: its words and word pairs, where
 * it starts and ends, its punctuation, its speaker, what the rules found in it, and what the rules
 * found in the line before. Features are plain strings; the model maps the ones it knows to
 * weights and ignores the rest.
 */
export interface FeatureInput {
  text: string;
  speaker: Speaker;
  rules: RuleReading;
  previous?: { text: string; rules: RuleReading };
}

const TURN_FLAGS = [
  'isQuestion',
  'isOpenQuestion',
  'greeting',
  'smallTalk',
  'offTopic',
  'rude',
  'pressure',
  'empathy',
  'proof',
  'warranty',
  'financing',
  'options',
  'recommendation',
  'close',
  'goodbye',
  'invite',
  'asksOpinion',
  'checksBack',
  'leavesInfo',
  'probesConcern',
  'confirm',
  'priceTalk',
  'pitch',
  'inspect',
  'asksReferral',
  'asksRestroom',
  'asksContact',
  'claim',
  'refersBack',
  'domain',
] as const;

function lengthBucket(n: number): string {
  return n <= 2 ? '1-2' : n <= 5 ? '3-5' : n <= 12 ? '6-12' : n <= 30 ? '13-30' : '31+';
}

function wordFeatures(words: readonly string[], prefix: string, out: string[]): void {
  for (let i = 0; i < words.length; i++) {
    out.push(`${prefix}w:${words[i]}`);
    if (i + 1 < words.length) out.push(`${prefix}b:${words[i]}_${words[i + 1]}`);
  }
}

function ruleFeatures(rules: RuleReading, prefix: string, out: string[]): void {
  for (const act of rules.acts) {
    out.push(`${prefix}r:${act}`);
    const colon = act.indexOf(':');
    if (colon > 0) out.push(`${prefix}r:${act.slice(0, colon)}`);
  }
  for (const topic of rules.topics) out.push(`${prefix}t:${topic}`);
  for (const flag of TURN_FLAGS) if (rules.turn[flag]) out.push(`${prefix}f:${flag}`);
  if (rules.turn.price !== null) out.push(`${prefix}f:price`);
  if (rules.turn.life) out.push(`${prefix}f:life`);
}

/** The features of one utterance, in a stable order (duplicates allowed; the model counts presence). */
export function featuresOf(input: FeatureInput): string[] {
  const out: string[] = ['bias', `s:${input.speaker}`];
  const words = normalise(input.text);
  const trimmed = input.text.trim();
  wordFeatures(words, '', out);
  // The sentence's frame: how it opens and how it ends carry most of what it does.
  if (words.length) {
    out.push(`first:${words[0]}`, `last:${words[words.length - 1]}`);
    if (words.length > 1) out.push(`first2:${words[0]}_${words[1]}`, `last2:${words.at(-2)}_${words.at(-1)}`);
  }
  for (const w of words.slice(-6)) out.push(`tail:${w}`);
  out.push(`len:${lengthBucket(words.length)}`);
  if (trimmed.endsWith('?')) out.push('p:q-end');
  if (trimmed.includes('?')) out.push('p:q');
  if (trimmed.includes('!')) out.push('p:!');
  if (!/[.?!,]/.test(trimmed)) out.push('p:none');
  ruleFeatures(input.rules, '', out);
  for (const f of [...out])
    if (f.startsWith('r:') || f.startsWith('first')) out.push(`${input.speaker}|${f}`);
  if (input.previous) {
    out.push('ctx');
    const prev = normalise(input.previous.text);
    for (const w of prev.slice(-8)) out.push(`cw:${w}`);
    if (input.previous.text.trim().endsWith('?')) out.push('c:q-end');
    ruleFeatures(input.previous.rules, 'c', out);
  }
  return out;
}
