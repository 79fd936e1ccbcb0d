import {
  GATED_SECTIONS,
  SECTION_TITLES,
  type CoachingDocument,
  type SectionKey,
} from '../../../../core/coaching-format';
import { invitable, type CallFacts, type PersonFact } from '../../../understanding/call-facts';
import {
  findMoney,
  findPeople,
  findTimes,
  isSpanDay,
  type MoneyEntity,
  type PersonEntity,
  type TimeEntity,
} from '../../../understanding/entities';
import {
  claimsIn,
  coachingLines,
  countsIn,
  namesOfPeopleIn,
  longestSharedRun,
  quotedIn,
  unclipped,
  withoutScores,
  type Claim,
} from '../../../understanding/readers/coaching-text';
import { normalizeText } from '../../../understanding/text/normalise';
import { readsClearly } from '../../../understanding/text/quote';
import type { CallView } from '../rubric/view';

/**
 * The grounding audit: reads a coaching text with the same readers that read the call, and checks
 * every name, relation, day, time, price, count, quote and claim in it against the call's facts.
 * Whatever cannot be traced to the call is a finding; the coach writes none, and an LLM's
 * sentences with one are dropped (ground.ts).
 */
export type Part = 'summary' | 'best' | SectionKey;

export interface GroundingFinding {
  part: Part;
  /** The sentence or quote at fault. */
  text: string;
  kind: 'person' | 'day' | 'money' | 'count' | 'quote' | 'claim' | 'best' | 'paste';
  problem: string;
}

/** What the coaching may state as figures: the Summary's, which the sections must not exceed. */
export interface StatedFigures {
  questions: { total: number; open: number };
  /** Options the rep laid out, priced or not. */
  options: number;
}

export interface AuditContext {
  view: CallView;
  figures: StatedFigures;
}

/** A run of this many of the homeowner's words in a line of advice is their clause pasted in. */
const PASTED_WORDS = 6;

interface Said {
  rep: string;
  homeowner: string;
  all: string;
}

const saidIn = (facts: CallFacts): Said => {
  const of = (s: 'rep' | 'homeowner') =>
    normalizeText(
      facts.turns
        .filter((t) => t.speaker === s)
        .map((t) => t.text)
        .join(' \u0000 '),
    );
  const rep = of('rep');
  const homeowner = of('homeowner');
  return { rep, homeowner, all: `${rep} ${homeowner}` };
};

const eqName = (a: string | null | undefined, b: string | null | undefined) =>
  !!a && !!b && a.toLowerCase() === b.toLowerCase();

function personFact(p: PersonEntity, facts: CallFacts): PersonFact | undefined {
  if (p.name) return facts.people.find((f) => eqName(f.name, p.name));
  return facts.people.find((f) => f.relation === p.relation);
}

/** The people a sentence names: by relation or name frame, and by any name said bare. */
function mentions(sentence: string): PersonEntity[] {
  const found = findPeople(sentence);
  const bare = namesOfPeopleIn(sentence)
    .filter((w) => !found.some((p) => eqName(p.name, w)))
    .map((w): PersonEntity => ({
      start: 0,
      end: 0,
      text: w,
      name: w,
      relation: 'other',
      status: null,
      decides: null,
    }));
  return [...found, ...bare];
}

function checkPeople(sentence: string, claims: Claim[], facts: CallFacts, ctx: AuditContext): string[] {
  const problems: string[] = [];
  const inviting = claims.includes('INVITE') || findTimes(sentence).length > 0;
  for (const p of mentions(sentence)) {
    if (p.relation === 'self' || p.relation === 'contractor' || p.relation === 'colleague') continue;
    if (eqName(p.name, facts.homeownerName) || eqName(p.name, ctx.view.name)) continue;
    if (p.relation === 'addressee' && !p.name) continue;
    const fact = personFact(p, facts);
    const who = p.name ?? p.text;
    if (!fact) problems.push(`names ${who}, who is no one in the call`);
    else if (fact.deceased) problems.push(`names ${who}, who has died`);
    else if (inviting && !invitable(fact))
      problems.push(`brings ${who} into the next step, though the homeowner did not make them part of it`);
  }
  return problems;
}

const sameDay = (t: TimeEntity, day: string | null, time: string | null) =>
  (!!t.day && t.day === day) || (!t.day && !!t.time && t.time === time);

function checkTimes(sentence: string, claims: Claim[], facts: CallFacts): string[] {
  const problems: string[] = [];
  for (const t of findTimes(sentence)) {
    // A span a line of advice may suggest ("this week", "tonight") names no day of the call.
    if ((!t.day || isSpanDay(t.day)) && !t.time) continue;
    const agreed = facts.agreedStep && sameDay(t, facts.agreedStep.day, facts.agreedStep.time);
    if (claims.includes('AGREED') && !agreed) {
      problems.push(
        `gives ${t.text} as the agreed day, but the homeowner agreed to ${facts.agreedStep ? `${facts.agreedStep.day ?? facts.agreedStep.time}` : 'no day'}`,
      );
      continue;
    }
    const proposed = facts.proposals.some((p) => sameDay(t, p.day, p.time));
    if (!agreed && !proposed) problems.push(`names ${t.text}, which was never put forward for a next step`);
  }
  return problems;
}

const amountOf = (m: Pick<MoneyEntity, 'value' | 'min' | 'max'>) =>
  [m.value, m.min, m.max].filter((x) => x !== undefined);

function checkMoney(sentence: string, facts: CallFacts): string[] {
  const said = facts.turns.flatMap((t) => t.entities.money.flatMap(amountOf));
  return findMoney(sentence)
    .filter((m) => amountOf(m).some((v) => !said.includes(v)))
    .map((m) => `names ${m.text}, which nobody said in the call`);
}

/** Whether a claim of the coaching holds for this call. */
function claimHolds(claim: Claim, facts: CallFacts, ctx: AuditContext): string | null {
  switch (claim) {
    case 'NO_ASK':
      return facts.asks.length ? 'says the rep never asked, but the call holds an ask' : null;
    case 'NO_AGREEMENT': {
      const yes = facts.agreedStep || facts.asks.some((a) => a.answer === 'agreed');
      return yes ? 'says the homeowner never agreed, but they said yes' : null;
    }
    case 'NO_OBJECTION':
      return facts.objections.length ? 'says no objection came up, but the homeowner raised one' : null;
    case 'SINGLE_OFFER':
      return facts.offers.length > 1
        ? `says one package was offered, but the rep priced ${facts.offers.length}`
        : null;
    case 'NO_PRICES':
      return facts.offers.length > 1
        ? `says the options had no prices, but the rep priced ${facts.offers.length}`
        : null;
    case 'GOT_YES':
    case 'AGREED':
      return facts.agreedStep || facts.asks.some((a) => a.answer === 'agreed')
        ? null
        : 'says the homeowner agreed, but they agreed to no next step';
    case 'NO_DAY':
      return facts.proposals.some((p) => p.day) ? 'says no day was set, but one was put forward' : null;
    case 'PRICE_OBJECTION':
      return facts.objections.some((o) => o.kind === 'price')
        ? null
        : 'names a price objection the homeowner never raised';
    case 'ROLE_PLAY':
      return ctx.view.source === 'recording' ? 'speaks of a role-play in the coaching of a real call' : null;
    case 'TIMING':
      return ctx.view.typed ? 'speaks of timing in a call the rep typed' : null;
    default:
      return null;
  }
}

/** The figures a part states, against the call's: Summary's exactly, a section's never above them. */
function checkCounts(sentence: string, part: Part, facts: CallFacts, ctx: AuditContext): string[] {
  const problems: string[] = [];
  const { questions, options } = ctx.figures;
  for (const c of countsIn(sentence)) {
    if (c.noun === 'option' || c.noun === 'priced option' || c.noun === 'package') {
      const most = Math.max(options, facts.offers.length);
      if (c.n > most) problems.push(`counts ${c.n} options, but the rep laid out ${most}`);
    } else if (c.noun === 'question' || c.noun === 'discovery question') {
      if (part === 'summary' ? c.n !== questions.total : c.n > questions.total)
        problems.push(`counts ${c.n} questions, where the Summary counts ${questions.total}`);
    } else if (c.noun === 'open question') {
      if (part === 'summary' ? c.n !== questions.open : c.n > questions.open)
        problems.push(`counts ${c.n} open questions, where the Summary counts ${questions.open}`);
    } else if (c.noun === 'objection' && c.n > facts.objections.length)
      problems.push(`counts ${c.n} objections, but the homeowner raised ${facts.objections.length}`);
  }
  return problems;
}

function checkQuote(quote: string, said: Said, ctx: AuditContext): string | null {
  const n = normalizeText(unclipped(quote));
  if (!n) return null;
  if (!said.all.includes(n)) return 'quotes words nobody said in the call';
  if (ctx.view.recognition === 'basic' && !readsClearly(unclipped(quote)))
    return 'quotes a span too short or garbled to stand from basic recognition';
  return null;
}

/** A sentence with the words it quotes from the call taken out (their days and names are the call's own). */
function withoutCallQuotes(sentence: string, said: Said): { prose: string; quotes: string[] } {
  let prose = sentence;
  const quotes: string[] = [];
  for (const q of quotedIn(sentence)) {
    if (said.all.includes(normalizeText(unclipped(q))) && normalizeText(q)) {
      quotes.push(q);
      prose = prose.replace(q, ' ');
    }
  }
  return { prose, quotes };
}

function auditPart(
  part: Part,
  text: string,
  facts: CallFacts,
  said: Said,
  ctx: AuditContext,
): GroundingFinding[] {
  const out: GroundingFinding[] = [];
  const { quotes, sentences } = coachingLines(text);
  for (const q of quotes) {
    const problem = checkQuote(q, said, ctx);
    if (problem) out.push({ part, text: q, kind: 'quote', problem });
  }
  for (const s of sentences) {
    const { prose, quotes: inline } = withoutCallQuotes(s, said);
    for (const q of inline) {
      const problem =
        ctx.view.recognition === 'basic' && !readsClearly(unclipped(q)) ? checkQuote(q, said, ctx) : null;
      if (problem) out.push({ part, text: s, kind: 'quote', problem });
    }
    const claims = claimsIn(prose);
    const add = (kind: GroundingFinding['kind'], problems: string[]) =>
      problems.forEach((problem) => out.push({ part, text: s, kind, problem }));
    add('person', checkPeople(prose, claims, facts, ctx));
    add('day', checkTimes(withoutScores(prose), claims, facts));
    add('money', checkMoney(withoutScores(prose), facts));
    add('count', checkCounts(prose, part, facts, ctx));
    add(
      'claim',
      claims.map((c) => claimHolds(c, facts, ctx)).filter((x): x is string => !!x),
    );
    if (longestSharedRun(prose, said.homeowner) >= PASTED_WORDS)
      add('paste', ["pastes the homeowner's own clause into the coaching instead of a short, clean phrase"]);
  }
  return out;
}

function auditBest(doc: CoachingDocument): GroundingFinding[] {
  const best = doc.best;
  if (!best) return [];
  const out: GroundingFinding[] = [];
  const text = `${best.title}\n${best.content}`;
  for (const k of GATED_SECTIONS)
    if (text.includes(SECTION_TITLES[k]))
      out.push({
        part: 'best',
        text: best.title,
        kind: 'best',
        problem: `names ${SECTION_TITLES[k]}, a section behind the email gate`,
      });
  if ((best.score ?? 0) < 6)
    out.push({
      part: 'best',
      text: best.title,
      kind: 'best',
      problem: 'holds up a moment that scored below 6',
    });
  const open = doc.sections.filter((s) => !GATED_SECTIONS.includes(s.key)).map((s) => s.score);
  if (!open.includes(best.score))
    out.push({ part: 'best', text: best.title, kind: 'best', problem: "carries no open section's score" });
  return out;
}

/** Every claim of a coaching document that the call does not support. */
export function auditCoaching(
  doc: CoachingDocument,
  facts: CallFacts,
  ctx: AuditContext,
): GroundingFinding[] {
  const said = saidIn(facts);
  const out = [...auditPart('summary', doc.summary, facts, said, ctx), ...auditBest(doc)];
  if (doc.best) out.push(...auditPart('best', doc.best.content, facts, said, ctx));
  for (const s of doc.sections) out.push(...auditPart(s.key, s.content, facts, said, ctx));
  return out;
}
