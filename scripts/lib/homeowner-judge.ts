import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { STAGES, type Stage } from '../../core/stages';
import { lineTopics, normalise } from '../../server/understanding/rep-turn';
import { shortFact } from '../../server/providers/brain/lines';
import { PERSONA_FACTS, TOPICS, type PersonaFacts, type Topic } from '../../server/providers/brain/personas';
import { sentenceKey, sentences } from '../../server/providers/brain/phrasebook';
import { AGREE_AT } from '../../server/providers/brain/scripted';

/** One rep script: lines with tags saying what each line does (a question's topic, a close...). */
export const repScriptSchema = z.object({
  name: z.string(),
  stage: z.enum(STAGES),
  style: z.enum(['good', 'weak', 'pushy', 'confused', 'repeat', 'chatty']),
  description: z.string().optional(),
  author: z.string().optional(),
  lines: z
    .array(
      z.object({
        text: z.string().min(1),
        tags: z.array(z.string()),
        /** What a real homeowner must do in reply, in the script author's words (read by hand). */
        expect: z.string().optional(),
      }),
    )
    .min(1),
});
export type RepScript = z.infer<typeof repScriptSchema>;

export function loadScripts(dir: string): RepScript[] {
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => repScriptSchema.parse(JSON.parse(readFileSync(join(dir, f), 'utf8'))));
}

export interface Turn {
  rep: string;
  tags: string[];
  reply: string;
  ms: number;
}

export interface CallRecord {
  script: RepScript;
  opening: string;
  turns: Turn[];
  /** How the call ended: 'goodbye' (the rep's goodbye, answered), 'homeowner', or null. */
  ended: 'goodbye' | 'homeowner' | null;
}

export interface ScriptScore {
  name: string;
  stage: Stage;
  style: string;
  turns: number;
  answered: number;
  sentences: number;
  repeated: number;
  questions: number;
  onTopic: number;
  goodbyes: number;
  goodbyesAnswered: number;
  /** Closes that put a day or time to the homeowner, and how many replies took it up. */
  proposals: number;
  proposalsAnswered: number;
  proposalMisses: string[];
  pushy: boolean;
  pushyEnded: boolean;
  offTopicAgreements: number;
  contradictions: string[];
  offTopicMisses: string[];
  latencies: number[];
}

// "One" is left out: "which one", "no one" are no facts.
const NUMBER_WORDS = new Set([
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
  'eleven',
  'twelve',
  'thirteen',
  'fourteen',
  'fifteen',
  'sixteen',
  'seventeen',
  'eighteen',
  'nineteen',
  'twenty',
  'thirty',
  'forty',
  'fifty',
  'sixty',
  'seventy',
  'eighty',
  'ninety',
  'hundred',
  'thousand',
]);

function allPersonaText(f: PersonaFacts): string {
  return JSON.stringify(f);
}

/** Numbers the persona may say: any that appears in its own facts and lines. */
function allowedNumbers(f: PersonaFacts): Set<string> {
  return new Set(normalise(allPersonaText(f)).filter((w) => /^\d+$/.test(w) || NUMBER_WORDS.has(w)));
}

function personaNames(f: PersonaFacts): Set<string> {
  return new Set([f.card.name, f.household.spouseName].map((n) => n.toLowerCase()));
}

const ALL_NAMES = new Set(Object.values(PERSONA_FACTS).flatMap((f) => [...personaNames(f)]));

/** Facts the persona contradicts: a number it never had, or another household's names. */
export function contradictions(reply: string, f: PersonaFacts, repText = ''): string[] {
  const out: string[] = [];
  const words = normalise(reply);
  // Numbers the rep just said ("Saturday at ten") may be echoed back.
  const numbers = new Set([...allowedNumbers(f), ...normalise(repText)]);
  const own = personaNames(f);
  for (const w of words) {
    if ((/^\d+$/.test(w) || NUMBER_WORDS.has(w)) && !numbers.has(w)) out.push(`number ${w}`);
    if (ALL_NAMES.has(w) && !own.has(w) && !allPersonaText(f).toLowerCase().includes(w))
      out.push(`name ${w}`);
  }
  return out;
}

const STOP = new Set([
  'the',
  'and',
  'that',
  'with',
  'this',
  'have',
  'want',
  'from',
  'what',
  'just',
  'were',
  'about',
]);

/** Distinctive words of the persona's fact for a topic (e.g. "twelve", "thousand" for a budget). */
function factWords(topic: Topic, f: PersonaFacts): Set<string> {
  return new Set(normalise(shortFact(topic, f)).filter((w) => w.length > 3 && !STOP.has(w)));
}

/**
 * A reply is on topic when it talks about the topic asked, uses that topic's fact, or gives (or
 * restates) one of the persona's follow-up details written for that topic.
 */
export function onTopic(reply: string, topic: Topic, f: PersonaFacts): boolean {
  if (lineTopics(reply).includes(topic)) return true;
  const details = (f.needs.find((n) => n.topic === topic)?.more ?? []).flatMap(sentences).map(sentenceKey);
  const said = new Set(sentences(reply).map(sentenceKey));
  if (details.some((d) => said.has(d))) return true;
  // A detail told earlier, said again behind "Like I said," or "Again:".
  const restated = (d: string) =>
    d.split(' ').length >= 3 && [...said].some((s) => s !== d && s.endsWith(` ${d}`));
  if (details.some(restated)) return true;
  const words = new Set(normalise(reply));
  const fact = factWords(topic, f);
  let hits = 0;
  for (const w of fact) if (words.has(w)) hits++;
  return hits >= Math.min(2, fact.size);
}

const GOODBYE_RE = /\b(bye|goodbye|take care|see you)\b/i;

/** Agreeing to the day the rep proposed ("Saturday at ten works for us."). */
const AGREE_AT_RE = Object.values(AGREE_AT)
  .flat()
  .flatMap(sentences)
  .filter((sentence) => /\{when\}/i.test(sentence) && sentence.trim().split(/\s+/).length >= 2)
  .map(
    (line) =>
      new RegExp(
        `^${line
          .split(/\{when\}/i)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
          .join('.+')}$`,
        'i',
      ),
  );

export function scoreCall(call: CallRecord): ScriptScore {
  const f = PERSONA_FACTS[call.script.stage];
  // An agreement is one of the persona's agreeing sentences (not a bare "Fine.").
  const agreeKeys = new Set(
    f.agree
      .flatMap((a) => sentences(a))
      .map(sentenceKey)
      .filter((k) => k.split(' ').length >= 4),
  );
  const seen = new Set(sentences(call.opening).map(sentenceKey));
  const score: ScriptScore = {
    name: call.script.name,
    stage: call.script.stage,
    style: call.script.style,
    turns: call.turns.length,
    answered: 0,
    sentences: 0,
    repeated: 0,
    questions: 0,
    onTopic: 0,
    goodbyes: 0,
    goodbyesAnswered: 0,
    proposals: 0,
    proposalsAnswered: 0,
    proposalMisses: [],
    pushy: call.script.style === 'pushy',
    pushyEnded: call.ended === 'homeowner',
    offTopicAgreements: 0,
    contradictions: [],
    offTopicMisses: [],
    latencies: [],
  };
  call.turns.forEach((turn, i) => {
    const said = sentences(turn.reply);
    if (said.length > 0) score.answered++;
    score.latencies.push(turn.ms);
    for (const s of said) {
      score.sentences++;
      const key = sentenceKey(s);
      if (seen.has(key)) score.repeated++;
      seen.add(key);
    }
    const topic = turn.tags.find((t) => t.startsWith('q:'))?.slice(2) as Topic | undefined;
    if (topic && (TOPICS as string[]).includes(topic)) {
      score.questions++;
      if (onTopic(turn.reply, topic, f)) score.onTopic++;
      else score.offTopicMisses.push(`${turn.rep} -> ${turn.reply}`);
    }
    if (turn.tags.includes('close') && JUDGE_DAY.test(turn.rep.toLowerCase())) {
      score.proposals++;
      if (takesUpADay(turn.reply)) score.proposalsAnswered++;
      else score.proposalMisses.push(`${turn.rep} -> ${turn.reply}`);
    }
    if (turn.tags.includes('goodbye')) {
      score.goodbyes++;
      const last = i === call.turns.length - 1;
      if (GOODBYE_RE.test(turn.reply) && last && call.ended === 'goodbye') score.goodbyesAnswered++;
    }
    if (turn.tags.includes('offtopic') || turn.tags.includes('smalltalk')) {
      if (said.some((s) => agreeKeys.has(sentenceKey(s)) || AGREE_AT_RE.some((re) => re.test(s))))
        score.offTopicAgreements++;
    }
    score.contradictions.push(...contradictions(turn.reply, f, turn.rep));
  });
  return score;
}

/**
 * The judge's own reading of a proposed day, kept apart from the homeowner's readers so that
 * changing them cannot move the score: a weekday, tomorrow or a clock time in a close, and a
 * reply that takes it up by naming a day or time (yes, or another day) or by refusing or
 * correcting it.
 */
const JUDGE_DAY =
  /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|wed|thurs|fri|sat|sun|tomorrow|tonight|weekend|\d{1,2}(:\d\d)? ?(am|pm|a\.m\.|p\.m\.)|(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve) (o'clock|thirty|a\.m\.|p\.m\.)|half (past )?(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)|noon)\b/;
const TAKES_UP =
  /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|weekend|morning|afternoon|evening|neither|not yet|not so fast|hold on|didn't say|never agreed|haven't (agreed|set|booked|settled)|not booking|not agreeing|not picking|not choosing|works for us|works\.|instead)\b/i;
function takesUpADay(reply: string): boolean {
  return TAKES_UP.test(reply);
}

export function p95(values: number[]): number {
  if (values.length === 0) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(sorted.length * 0.95) - 1)];
}
