import nlpCompromise from 'compromise';
import type { SectionKey } from '../../../../core/coaching-format';
import { normalizeText, splitSentences } from '../../../understanding/text/normalise';
import { personaFor } from '../../../../core/stages';
import type { Analysis, Evidence, Finding } from './detectors';
import { needAreas } from './vocabulary';
import { QUANTITY_AFTER } from './options';

/**
 * "Try this next time", written from the call itself: the homeowner's stated problem in their
 * own words (turned to "you"), the people and the price or day actually mentioned, and the
 * rep's own near-miss line improved. Nothing is invented: a person, pet or date appears only
 * if the call mentioned it, and no line carries a fixed date or clock time.
 */
export interface CallFacts {
  name: string;
  /** The homeowner's problem in their words, turned to the second person ("your back bedroom is freezing"). */
  problem: string | null;
  /** People named or referred to in the call (names, "your wife"). */
  people: string[];
  /** Prices the rep said. */
  prices: string[];
  /** A weekday or "tomorrow" that came up in the call. */
  day: string | null;
}

const RELATION =
  /\b(wife|husband|partner|son|daughter|mom|mother|dad|father|sister|brother|kids|children|grandkids)\b/;
const RIVAL =
  /\b(in law|on the side|quoted|(could|can|would|d) (probably )?do (it|the job|the whole thing) for|cheaper|for less|paid (way |a lot |much )?less)\b/;
const DISTRESS =
  /\b(leak\w*|drip\w*|water|cold|freezing|hot|heat|oven|drafty|draft\w*|noise|loud|bills?|broke\w*|not working|stopped|short cycling|turning on and off|stain\w*|rot\w*|soft|wobbl\w*|fall|fell|hip|breathe|smell\w*|fog\w*|peel\w*|holes?|damage\w*|missing|hail|storm|flood\w*|nightmare|worried|scared|afraid|hate|ripped off|burned|can t|cant|cannot)\b/;

const NUMBER_WORD =
  '(?:zero|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|hundred|thousand|grand)';
const PRICE_RE = new RegExp(
  `\\$\\s?\\d[\\d,.]*k?|\\b\\d[\\d,.]*\\s?(?:k|grand|dollars)\\b|\\b${NUMBER_WORD}(?:[ -](?:${NUMBER_WORD}|and|a))*\\s(?:hundred|thousand|grand)(?:[ -](?:${NUMBER_WORD}|and))*\\b`,
  'gi',
);
/** A deadline put on the homeowner, not a next step. */
const DEADLINE =
  /\b(ends?|ending|expires?|expiring|until|till|only good|only valid|deadline|special|offer|promotion|goes up|go up)\b/;

const toYou = (s: string) =>
  s
    .replace(/\bI'm\b/gi, "you're")
    .replace(/\bI've\b/gi, "you've")
    .replace(/\bI'd\b/gi, "you'd")
    .replace(/\bI\b/g, 'you')
    .replace(/\b(my|our)\b/gi, 'your')
    .replace(/\bme\b/gi, 'you')
    .replace(/\bwe're\b/gi, "you're")
    .replace(/\bwe\b/gi, 'you')
    .replace(/\bus\b/gi, 'you')
    .replace(/\bmine\b/gi, 'yours');

function shortClause(sentence: string, max = 12): string {
  const s = sentence
    // Answer words and asides are not the trouble: "Yes, the wind took some off", "maybe the
    // dining room too, like I said".
    .replace(/^((well|so|oh|um|uh|yeah|yes|no|maybe|mostly|hmm|honestly|and|but|okay|ok)[,\s]+)+/i, '')
    .replace(/[.!?]+$/, '')
    .replace(/,? like (i|you) (said|say|mentioned)$/i, '')
    // "Since last winter, and it lets the cold in": the lead-in says when, the rest is the trouble.
    .replace(/^(ever since|since|for|about|around|after|during|over)\b[^,]{0,30},\s*(and\s+)?/i, '')
    .trim();
  const words = s.split(/\s+/);
  if (words.length <= max) return s;
  // Cut where a clause ends (a comma, "and", "but", "because", "so"), not mid-phrase.
  for (let i = max; i >= 4; i--) {
    if (/,$/.test(words[i - 1])) return words.slice(0, i).join(' ').replace(/,$/, '');
    if (/^(and|but|because|so|when|which|though)$/i.test(words[i] ?? '')) return words.slice(0, i).join(' ');
  }
  return words.slice(0, max).join(' ');
}

export function callFacts(a: Analysis, personaName: string | undefined): CallFacts {
  const owner = a.turns.filter((t) => t.role === 'assistant');
  const areas = needAreas(a.stage);
  // The homeowner's trouble in their words: a line of distress first ("there's a spot in the
  // closet", "the upstairs never gets warm"), else one about the home's condition; never a line
  // only about its age, the budget, the timing or who decides.
  const NOT_PROBLEM = ['budget', 'horizon', 'timeline', 'decision', 'age'];
  const ownerSentences = owner
    .flatMap((t) => splitSentences(t.text))
    .filter((s) => normalizeText(s).split(' ').length >= 4 && !/\?\s*$/.test(s));
  const aboutProblem = (text: string) => {
    const n = normalizeText(text);
    return DISTRESS.test(n) || areas.some((x) => !NOT_PROBLEM.includes(x.id) && x.pattern.test(n));
  };
  // The homeowner's answer to the rep's question about the trouble ("any leaks or stains?" ->
  // "there's a small spot in the upstairs closet"), whatever words it uses.
  const answerToProblemQuestion = () => {
    for (let i = 1; i < a.turns.length; i++) {
      const asked = a.turns[i - 1];
      if (asked.role !== 'user' || !asked.text.includes('?') || !aboutProblem(asked.text)) continue;
      if (a.turns[i].role !== 'assistant') continue;
      const answer = splitSentences(a.turns[i].text).find(
        (s) => normalizeText(s).split(' ').length >= 4 && !/\?\s*$/.test(s),
      );
      if (answer) return answer;
    }
    return undefined;
  };
  const pick =
    ownerSentences.find((s) => DISTRESS.test(normalizeText(s))) ??
    answerToProblemQuestion() ??
    ownerSentences.find((s) => aboutProblem(s));
  // "I did find some shingles" -> "you found some shingles": the emphatic "did" reads oddly when quoted back.
  const plain = (clause: string) =>
    clause.replace(/\b(you|we|they) did ([a-z]+)\b/, (_m, who: string, verb: string) => {
      const past = (nlpCompromise(verb).verbs() as unknown as { toPastTense(): { text(): string } })
        .toPastTense()
        .text();
      return `${who} ${past || verb}`;
    });
  const problem = pick ? plain(toYou(shortClause(pick)).toLowerCase()) : null;
  const people = new Set<string>();
  const ownerText = owner.map((t) => t.text).join(' ');
  // Names the homeowner calls the rep by, or the rep introduces themselves with, are not people to bring.
  const repNames = new Set(
    [
      ...ownerText.matchAll(
        /\b(?:[Yy]ou must be|[Yy]ou're|[Yy]ou are|[Aa]re you|[Tt]hanks,?|[Tt]hank you,?|[Bb]ye(?: now)?,?|[Hh]i,?|[Hh]ello,?)\s+([A-Z][a-z]+)/g,
      ),
      // Spoken to at the end of a sentence ("this has been really helpful, Sofia."): the one
      // person the homeowner talks to is the rep.
      ...ownerText.matchAll(/, ([A-Z][a-z]+)[.!?]/g),
      ...a.rep
        .map((t) => t.text)
        .join(' ')
        .matchAll(/\b(?:I'm|I am|this is|that's me,?|it's)\s+([A-Z][a-z]+)/gi),
    ].map((m) => m[1].toLowerCase()),
  );
  for (const p of nlpCompromise(ownerText).people().out('array') as string[]) {
    const clean = p
      .replace(/[^\p{L}' -]/gu, '')
      .trim()
      .split(' ')[0];
    if (!clean || clean.length < 2 || repNames.has(clean.toLowerCase())) continue;
    if (normalizeText(clean) === normalizeText(personaName ?? '')) continue;
    const proper = clean.charAt(0).toUpperCase() + clean.slice(1).toLowerCase();
    // A name is written with a capital (and is not part of a place name), or, in recogniser
    // text, follows "my wife", "my son"...
    const capitalised = new RegExp(`(?<![.?!] |^)\\b${proper}\\b(?! [A-Z])`).test(ownerText);
    const related = new RegExp(`\\b${RELATION.source} ${proper.toLowerCase()}\\b`).test(
      normalizeText(ownerText),
    );
    if (capitalised || related) people.add(proper);
  }
  for (const t of owner) {
    // A relative who would do the job ("my brother-in-law does roofing on the side") is the
    // competition, not someone to invite.
    if (RIVAL.test(normalizeText(t.text))) continue;
    const m = normalizeText(t.text).match(new RegExp(`\\b(my|our) ${RELATION.source}( \\w+)?`));
    const named = m?.[3] && [...people].some((p) => p.toLowerCase() === m[3].trim());
    if (m && !named && people.size < 3) people.add(`your ${m[2]}`);
  }
  // Prices the rep said: "$9,400", "9k", "nine thousand four hundred" (one price, not two).
  const prices = [
    ...new Set(
      a.rep.flatMap((t) =>
        [...t.text.matchAll(PRICE_RE)]
          // "Four hundred eighty square feet" is the size of the job, not a price.
          .filter((m) => !QUANTITY_AFTER.test(t.text.slice((m.index ?? 0) + m[0].length).slice(0, 30)))
          .map((m) => m[0].replace(/\s+(and|a)$/i, '').trim())
          .filter((p) => /\d|thousand|hundred|grand/i.test(p)),
      ),
    ),
  ].slice(0, 3);
  // The day the rep put forward for the next step, not a day in the homeowner's story ("since
  // Sunday") nor a deadline ("the special ends Friday").
  const day =
    a.rep
      .flatMap((t) => splitSentences(t.text))
      .filter((s) => !DEADLINE.test(normalizeText(s)))
      .map((s) =>
        normalizeText(s).match(/\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)\b/),
      )
      .find(Boolean)?.[0] ?? null;
  return { name: personaName ?? '', problem, people: [...people].slice(0, 2), prices, day };
}

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
const list = (xs: string[]) =>
  xs.length <= 1 ? (xs[0] ?? '') : `${xs.slice(0, -1).join(', ')} and ${xs[xs.length - 1]}`;
const shortQuote = (e: Evidence | undefined, max = 16) => {
  if (!e) return '';
  const w = e.quote.replace(/\s+/g, ' ').trim().split(' ');
  return w.length > max ? `${w.slice(0, max).join(' ')}...` : w.join(' ');
};

/** Opens a line on the homeowner's problem, which is a clause ("there's a spot in the closet"). */
function since(problem: string | null): string {
  if (!problem) return 'From what you told me,';
  return isClause(problem) ? `Since ${problem},` : `You mentioned ${problem}, so`;
}

/**
 * "The tub has a high step" is a clause; "the dining room too" (no verb) and "the one over the
 * sink you can't open" (its verb belongs to a later subject) are things, which "since" cannot take.
 */
function isClause(problem: string): boolean {
  if (!/^(the|a|an|this|that|these|those|one|some|just|only)\b/i.test(problem)) return true;
  const verb = (nlpCompromise(problem).verbs().out('array') as string[])[0];
  if (!verb) return false;
  const at = problem.toLowerCase().indexOf(verb.toLowerCase().split(' ')[0]);
  return at < 0 || !/\b(you|i|we|they|he|she)\s*$/i.test(problem.slice(0, at).trim());
}

/** He, she or they for "your husband", "your wife", a name or nobody. */
function pronounFor(who: string): string {
  if (/\b(husband|son|dad|father|brother)\b/.test(who)) return 'he';
  if (/\b(wife|daughter|mom|mother|sister)\b/.test(who)) return 'she';
  return who.startsWith('your ') ? 'they' : who;
}

function feelingFor(problem: string): string {
  const p = problem.toLowerCase();
  if (/\b(passed|died|used to|widow|hospital|hip|fall|fell|breathe|sick|er)\b/.test(p)) return 'really hard';
  if (/\b(ripped off|burned|disappeared|scam|trust)\b/.test(p)) return 'like a good reason to be careful';
  if (/\b(bill|money|cost|price|grand|thousand|paint)\w*\b/.test(p))
    return 'like a lot of money going out the door';
  if (/\b(leak|drip|water|stain|flood)\w*\b/.test(p)) return 'like a real worry every time it rains';
  if (/\b(cold|freezing|hot|heat|oven|draft)\w*\b/.test(p)) return 'miserable to live with';
  return 'like a lot to deal with';
}

const DEPTH_QUESTION: Record<string, string> = {
  budget: 'what range were you hoping to stay within',
  horizon: 'how long do you see yourself in the house',
  decision: 'who else will want a say in this',
  timeline: 'when would you like it done by',
  priorities: 'what matters most to you in how it gets done',
  outcome: 'what would a good result look like for you',
  alternatives: 'what have you tried or been quoted so far',
};

const OBJECTION_TOPIC: Record<string, string> = {
  price: 'the price',
  competitor: 'the other quote',
  stall: 'deciding now',
  trust: 'whether to trust you',
  need: 'whether it needs doing at all',
  time: 'the timing',
  worry: 'that worry',
};

function objectionLine(kind: string, f: CallFacts, stage: string): string {
  const who = f.people[0];
  switch (kind) {
    case 'price':
      return `That's a fair reaction, it's real money. Can I ask what you were comparing it to? Here's what that price covers, line by line. Does that explain it, or is something else holding you back?`;
    case 'competitor':
      return `You should compare. Can I see what their quote includes? Then I'll show you where ours differs, item by item, so you can put them side by side. Is there anything else in theirs I should look at?`;
    case 'stall':
      return who
        ? `Of course, ${who} should be part of this. What do you think ${pronounFor(who)} will care about most? Could we set a time when you're both here, so I can answer it directly?`
        : `That makes sense, it's a big decision. What part are you still weighing? If it helps, I can come back when everyone who decides is there. Would that work?`;
    case 'trust':
      return `After what you've heard, I'd be careful too. What would you need to see to feel safe? Here's my licence and insurance, and you can check them right now. Does that settle it, or is there anything else you'd want to check?`;
    case 'time':
      return `I don't want to keep you, so I'll be quick: one question about the ${stage === 'General' ? 'job' : stage.toLowerCase()}, then could I come back at a time that suits you better? Which day works?`;
    case 'need':
      return `Fair enough, it may be fine. What did the last person who looked at it find? Let me show you what I saw, and you decide. Does that seem fair?`;
    default:
      return `That's a real worry. What have you seen go wrong before? Here's how we'd handle it on your job. Would that take care of it?`;
  }
}

/** One better line for a section, from what this call contained. */
export function betterLine(
  key: SectionKey,
  a: Analysis,
  found: Finding,
  score: number,
  f: CallFacts,
): string {
  const problem = f.problem ?? 'what you told me';
  const hi = f.name ? `${f.name}, ` : '';
  const nearMiss = [...found.missteps].sort((x, y) => y.strength - x.strength)[0];
  const strong = score >= 8;
  switch (key) {
    case 'empathy': {
      if (strong)
        return `Keep it, and take it one step further: tie the feeling to your proposal, "${since(f.problem)} I'd start with what fixes that first."`;
      const opener = hi ? `${hi}${problem}` : cap(problem);
      const line = `"${opener} — that sounds ${feelingFor(problem)}. What has that been like for you?"`;
      return nearMiss ? `Instead of "${shortQuote(nearMiss)}", answer what they shared first: ${line}` : line;
    }
    case 'needsAnalysis': {
      const missing = Object.keys(DEPTH_QUESTION).filter((id) => !a.needAreasCovered.includes(id));
      const ask = missing.slice(0, 2).map((id) => DEPTH_QUESTION[id]);
      if (strong)
        return `Keep it, and close the loop: play it back before you pitch, "So if I have it right, ${problem}. ${ask[0] ? `And ${ask[0]}?` : 'Did I get that right?'}"`;
      const closed = a.questions.find((q) => q.form === 'yesno');
      const line = `"You mentioned ${problem}. Tell me more: ${ask.length ? `${list(ask)}?` : 'what would make this a success for you?'}"`;
      return closed && a.questions.filter((q) => q.form === 'yesno').length >= 2
        ? `Turn closed questions like "${shortQuote({ quote: closed.text } as Evidence, 12)}" into open ones: ${line}`
        : line;
    }
    case 'exploringOptions': {
      if (strong)
        return `Keep it, and say why your pick fits in their words: "${since(f.problem)} this is the one I'd choose, because it's the one that fixes that."`;
      const priced =
        f.prices.length >= 2
          ? ` You already had the numbers (${list(f.prices)}): put them side by side.`
          : '';
      return `"${since(f.problem)} there are three ways to go: a basic fix, a middle option and the full job. Here's what each costs, and I'd recommend the middle one because it fixes exactly that."${priced}`;
    }
    case 'objectionHandling': {
      const kind = a.objections.kinds[0];
      if (!a.objections.raised)
        return `No objection came up, so raise the likely one yourself: "A lot of people in your spot wonder about the cost and the disruption. Is either of those on your mind?"`;
      if (strong)
        return `Keep it, and end every answer with the same check you used on ${OBJECTION_TOPIC[kind] ?? 'it'}: "Does that answer it, or is there anything else holding you back?"`;
      const line = `"${objectionLine(kind, f, a.stage)}"`;
      return nearMiss
        ? `When ${f.name || 'the homeowner'} pushed back on ${OBJECTION_TOPIC[kind] ?? 'it'}, instead of "${shortQuote(nearMiss)}", try: ${line}`
        : `When ${f.name || 'the homeowner'} pushed back on ${OBJECTION_TOPIC[kind] ?? 'it'}, try: ${line}`;
    }
    case 'closing': {
      const deadline = found.missteps.find((m) => /deadline/.test(m.label));
      const people = f.people.length ? ` with ${list(f.people)}` : '';
      if (strong)
        return `Keep it, and confirm the choice in their words before you ask: "${since(f.problem)} is that the one you want? Then let's get it on the schedule."`;
      if (deadline)
        return `Drop "${shortQuote(deadline)}" and ask on the value instead: "${since(f.problem)} does this feel like the right fit? Would you like to go ahead?"`;
      const soft = found.evidence.find((e) => /floated/.test(e.label));
      if (soft)
        return `Pin down "${shortQuote(soft, 14)}": "Which day works for you${people}, and what time?"`;
      if (found.gaps.some((g) => /first 'no'/.test(g)))
        return `After the "no", find out why before you leave: "What would you need to see to feel comfortable going ahead?"`;
      return `"${since(f.problem)} this is the one that fits. Would you like to go ahead and get it on the schedule?"`;
    }
    case 'followUp': {
      const who = f.people.length
        ? `you, ${list(f.people)} and me`
        : 'you and me, and anyone else who should be there';
      if (strong)
        return `Keep it, and put it in writing: before you leave, text ${f.name || 'them'} what you agreed: ${f.day ? (f.day === 'tomorrow' ? f.day : cap(f.day)) : 'the day'}, the time and who is coming${f.people.length ? ` (${list(f.people)} too)` : ''}, so nobody has to remember it.`;
      // Ask only for what the call left open: the day, the time, who comes.
      const noDay = found.gaps.some((g) => /no day/.test(g));
      const noTime = found.gaps.some((g) => /no time/.test(g));
      const noWho = found.gaps.some((g) => /who will be there/.test(g));
      const when =
        noDay || !f.day
          ? 'Which day and time work best?'
          : noTime
            ? `${cap(f.day)} then. What time works best?`
            : `${cap(f.day)} it is.`;
      const whoLine = noDay || noWho ? ` That's ${who}.` : '';
      return `"${when}${whoLine} I'll send you a summary tonight with what we agreed. Does that work?"`;
    }
  }
}

/** What the persona is testing, said in the coaching so the advice reads as tuned to them. */
export function personaFocusNote(stage: string): string | null {
  const p = personaFor(stage);
  if (!p) return null;
  return `${p.buyerType} buyer; the focus is ${p.focus.toLowerCase()}.`;
}
