import {
  looseContractions as loose,
  normalizeText,
  splitSentences,
} from '../../../understanding/text/normalise';
import { overlap } from '../../../nlp';
import type { CallFacts } from '../../../understanding/call-facts';
import { findMoney } from '../../../understanding/entities';
import { TRADE_STAPLES } from '../../../understanding/readers/needs';
import { type Turn, type Finding, has, clamp, nextRep, quoteFrom, OPTIONS_START } from './turns';

// ---------------------------------------------------------------- options

const NUM =
  '(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|\\d+)';
const PRICE = new RegExp(
  `\\$\\s?\\d[\\d,.]*k?|\\b\\d[\\d,.]*\\s?(k|grand|dollars|bucks)\\b|\\b${NUM}([ -]${NUM})? (thousand|hundred|grand|dollars|bucks)( (and )?${NUM}([ -]${NUM})? hundred)?\\b(?! (installs|homes|houses|windows|roofs|jobs|customers|people|square|feet|miles|years|families))|(?<=\\b(about|around|is|s|at|for|to|was|costs?|runs|comes to|only|like|be|its|thats) )${NUM}[ -](one|two|three|four|five|six|seven|eight|nine|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety)( (one|two|three|four|five|six|seven|eight|nine))?\\b(?! (minutes|hours|years|days|percent|miles|feet|degrees|times|people|kids|weeks|months|windows|rooms|of))|(?<=, )(ten|eleven|twelve|thirteen|fourteen|fifteen|sixteen|seventeen|eighteen|nineteen|twenty)-(one|two|three|four|five|six|seven|eight|nine)\\b(?=[.,])`,
  'gi',
);
const PRICE_CONTEXT = loose(
  /\b(cost|price|priced|about|around|ballpark|installed|quote|runs|comes out|total|thousand|hundred|grand|dollars|bucks|option|for the|for all|out of pocket|a month|more)\b|\$/,
);
const ENUM = loose(
  /\b(the (simplest|cheapest|basic|middle|top|premium|mid|budget|best|next|entry) (one|option|is|level|package|route)|another option|the other (one|option|kind)|or if you|if you really want|if budget s|if budgets|there s a|theres a|and a (\w+ )?(style|kind|type)|you (keep|do|go) )/g,
);
/** Numbered choices; each distinct number counts once ("One, you keep it... two, ... three"). */
const ORDINAL = loose(
  /\b(?:option (one|two|three|four|1|2|3|4|a|b|c)|(?:the )?(first|second|third) (?:one|option|is)|(one|two|three),? (?:we|you)|(?:or|and) (two|three|four)\b(?! (of|or|more|years|times|days|weeks|kids|people|hundred|thousand)))/g,
);
const ORDINAL_VALUE: Record<string, number> = {
  one: 1,
  '1': 1,
  a: 1,
  first: 1,
  two: 2,
  '2': 2,
  b: 2,
  second: 2,
  three: 3,
  '3': 3,
  c: 3,
  third: 3,
  four: 4,
  '4': 4,
};

export // Numbered choices are marked so they can outrank looser markers ("there's a...").
const ORDINAL_BONUS = 100;

export function choiceMarkers(norm: string): number {
  const ordinals = new Set<number>();
  for (const m of norm.matchAll(ORDINAL)) ordinals.add(ORDINAL_VALUE[m[1] ?? m[2] ?? m[3] ?? m[4]] ?? 0);
  if (ordinals.size >= 2) return ordinals.size + ORDINAL_BONUS;
  return Math.max(ordinals.size, norm.match(ENUM)?.length ?? 0);
}

const COUNTED_CHOICES = loose(
  /\b(two|three|four) (basic |main |different |good )?(ways|options|setups|routes|choices|packages|levels|kinds|types|approaches|systems|directions)\b/,
);
const UPGRADE = loose(/\b(upgrade|step up) too?\b|\bif you (want|wanted) to (go|step) up\b/);
/**
 * A second choice named beside the main one: "we also do an engineered hardwood", "there's also a
 * heat pump", "we can also just patch it", "the other route is a repair".
 */
const ALSO_ALT = loose(
  /\b(we|i) (also|can also|could also) (do|offer|have|carry|install|sell|make|put in|just) (a|an|the|our|some)\b|\b(there s|theres|there is) also (a|an|the)\b|\b(the other|another) (route|way|choice|path|option|one) (is|would be|we could)\b|^((so|and|okay|ok|then|now) )*the other (is|would be)\b|\bthe (fallback|backup|cheaper|budget|simpler|smaller|lighter|less expensive|bare minimum|minimum) (option |route |way |plan |choice |version |fix )?(is|would be)\b|\bplan b\b/,
);
const RECOMMEND = loose(
  /\b(i d|id|i would) ((just|probably|honestly|personally|definitely|really|still|actually|simply) )?go (for |with )?(the |option )?(?!(up|out|there|back|and|to|in|on|over|through|ahead|check|look|get|see|home|down|around)\b)[a-z]+\b|\b(i d|id|i would|i) ((just|probably|honestly|personally|definitely|really|still|actually|simply) )?(recommend|suggest|go with|lean (toward|towards)|say|pick|choose|put|do option|do the)\b|\b(the one|what) i d (recommend|lean|go|pick)|\bsweet spot\b|\bright fit\b|\bbest fit\b|\bmakes the most sense\b|\bfor (your|you) (plan|situation|needs)\b|\bi think (option \w+|the \w+( one)?|that|it s|its) (is|would be|s) (the|your|a)\b|\b(here s|heres|here is|this is) what ((i d|id|i would) (do|go with|recommend|suggest|pick|put in|install)|i (recommend|suggest))\b|\bwhat (i d|id|i would) (do|go with|pick|recommend|suggest) (is|here|if)\b|\bmy (honest )?(recommendation|suggestion|pick|advice) (is|would be|here)\b|\bif (it were|it was|this were|this was) (my|me)\b|\bif i were (you|in your shoes)\b/,
);
const TIE = loose(
  /\b(you (mentioned|said|told me)|from what you ve told me|from what youve told me|based on what you|since you|because you (said|want|re|are)|for your (plan|needs|situation)|how you use|you guys use|for (ten|five|\w+) years on|if you re selling|if youre selling|with your|given (that|your|how|you)|with (a|the|your) \w+ (this|that|so) \w+)\b/,
);
const PUSH = loose(
  /\b(only one i d|only one id|only one i would|i wouldn t feel good (selling|recommending)|i wouldnt feel good (selling|recommending)|the best \w+ we (make|sell|have)|our flagship|it s the only (one|option|thing|system|product)|its the only (one|option|thing|system|product)|the only (thing|one|option) i d (put|recommend|do|sell)|the only (thing|one|option) id (put|recommend|do|sell))\b/,
);
const SOCIAL_STEER = loose(
  /\b(most people on your street|what (most|all) (people|your neighbors|everyone) (are|is) doing|everyone on (your|the) street)\b/,
);
const ASK_ALTERNATIVE = loose(
  /\b(something (less|cheaper|smaller|simpler)|less fancy|cheaper (option|one)|other options|anything (less|cheaper)|(do you have|is there|have you got) (a |an |something )?(cheaper|less expensive|lower priced|smaller|basic|simpler))\b/,
);

export const QUANTITY_AFTER =
  /^[ -]((and )?(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|twenty|thirty|forty|fifty|sixty|seventy|eighty|ninety|\d+)[ -]?){0,2}(square|sq\b|feet|foot|ft\b|linear|windows|doors|rooms|squares|miles|degrees)/i;

export function distinctPrices(text: string): string[] {
  if (!PRICE_CONTEXT.test(normalizeText(text)) && !/\$/.test(text)) return [];
  // "Four hundred eighty square feet" measures the job: a number that goes on to a unit is no price.
  const found = [...text.matchAll(PRICE)].filter(
    (m) => !QUANTITY_AFTER.test(text.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 30)),
  );
  // Once a unit is set ("nine to fourteen thousand"), a second range in shorthand prices another
  // choice: "a repair is more like two to four", "the patch is closer to three or four".
  if (found.length)
    found.push(
      ...[...text.matchAll(SHORT_RANGE)].filter(
        (m) =>
          !QUANTITY_AFTER.test(text.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 30)),
      ),
    );
  return [...new Set(found.map((m) => m[0].toLowerCase().replace(/\s+/g, ' ')))];
}
const SHORT_RANGE = new RegExp(
  `(?<=\\b(is|s|runs?|costs?|be|comes? to|usually|probably)( (about|around|roughly|only|like|more like|closer to|anywhere from|somewhere between|between))? |\\b(more like|closer to|anywhere from|somewhere between) )${NUM} (to|and|or) ${NUM}\\b(?! (thousand|hundred|grand|dollars|bucks|minutes|hours|years|days|weeks|months|percent|people|kids|windows|rooms|feet|degrees|times|of))`,
  'gi',
);

/**
 * Whether a figure the rep said is an option's price by the call facts: not a deposit, and, when
 * said in full (a thousand or more), read as money at all ("twelve thousand floors" is a count).
 * Shorthand ("fifty four" for 5,400) is left to the rep's turn.
 */
function isOfferedMoney(said: string, facts: CallFacts): boolean {
  const m = findMoney(said)[0];
  // A figure a recogniser split across two turns is read whole only here.
  const n = normalizeText(said);
  const inOneTurn = facts.turns.some((t) => t.speaker === 'rep' && normalizeText(t.text).includes(n));
  if (!m || !inOneTurn) return true;
  const amounts = [m.value, m.min, m.max].filter((v) => v !== undefined);
  const matching = facts.money.filter((x) =>
    [x.value, x.min, x.max].some((v) => v !== undefined && amounts.includes(v)),
  );
  if (matching.length && matching.every((x) => x.role === 'deposit')) return false;
  return matching.length > 0 || Math.max(...amounts) < 1000;
}

export function detectOptions(
  turns: Turn[],
  discoveryEnd: number,
  facts?: CallFacts,
): { finding: Finding; optionTurns: number[]; singlePush: boolean } {
  const f: Finding = { score: 0, positives: [], gaps: [], evidence: [], missteps: [] };
  // A recogniser splits a long turn mid-sentence: read an unpunctuated fragment with the rep's
  // next one, so options and prices laid out across the pieces are seen together.
  const blocks: (Turn & { members: number[] })[] = [];
  for (const t of turns) {
    if (t.role !== 'user') continue;
    const last = blocks[blocks.length - 1];
    const prevTurn = turns[t.index - 1];
    if (
      last &&
      prevTurn?.role === 'user' &&
      last.members.includes(prevTurn.index) &&
      !/[.?!]\s*$/.test(prevTurn.text)
    )
      blocks[blocks.length - 1] = {
        ...last,
        text: `${last.text} ${t.text}`,
        norm: `${last.norm} ${t.norm}`,
        words: last.words + t.words,
        lemmas: new Set([...last.lemmas, ...t.lemmas]),
        members: [...last.members, t.index],
      };
    else blocks.push({ ...t, members: [t.index] });
  }
  const rep = blocks.filter((t) => t.members[t.members.length - 1] >= discoveryEnd);
  // A recommendation just before the first price, in the same run of rep turns, belongs to the options.
  let from = discoveryEnd;
  while (from > 0 && turns[from - 1]?.role === 'user') from--;
  const lead = blocks.filter((t) => t.index >= from && t.members[t.members.length - 1] < discoveryEnd);
  const ownerBefore = new Set<string>();
  for (const t of turns)
    if (t.role === 'assistant' && t.index < discoveryEnd + 1) t.lemmas.forEach((l) => ownerBefore.add(l));

  let markers = 0;
  const prices = new Set<string>();
  let recommend: Turn | undefined;
  let ties = 0;
  const echoed = new Set<string>();
  let push = 0;
  let steer = 0;
  let refusedAlternative = false;
  const optionTurns: number[] = [];
  for (const t of rep) {
    const m = choiceMarkers(t.norm);
    const p = distinctPrices(t.text);
    const isOption = m > 0 || p.length > 0 || has(OPTIONS_START, t.norm);
    if (isOption) optionTurns.push(...t.members.filter((x) => x >= discoveryEnd));
    markers = Math.max(markers, m); // choices are laid out in one turn; later mentions repeat them
    // Prices count as options only in turns that lay out choices (not a haggled single price).
    if (
      m > 0 ||
      p.length > 1 ||
      has(OPTIONS_START, t.norm) ||
      has(ALSO_ALT, t.norm) ||
      has(RECOMMEND, t.norm)
    )
      p.forEach((x) => prices.add(x));
    if (!recommend && has(RECOMMEND, t.norm) && t.words >= 6) recommend = t;
    if (isOption || has(RECOMMEND, t.norm)) {
      if (has(TIE, t.norm)) ties++;
      overlap(ownerBefore, t.lemmas)
        .filter((w) => !TRADE_STAPLES.has(w))
        .forEach((w) => echoed.add(w));
    }
    if (has(PUSH, t.norm)) {
      push++;
      f.missteps.push({
        quote: quoteFrom(t, PUSH),
        turn: t.index,
        strength: 0.7,
        label: 'pushed one package',
      });
    }
    if (has(SOCIAL_STEER, t.norm)) steer++;
  }
  if (!recommend && optionTurns.length) recommend = lead.find((t) => has(RECOMMEND, t.norm) && t.words >= 6);
  turns.forEach((t, i) => {
    if (t.role === 'assistant' && has(ASK_ALTERNATIVE, t.norm)) {
      const reply = nextRep(turns, i);
      if (
        reply &&
        (has(PUSH, reply.norm) || /\b(but|honest\w*)\b/.test(reply.norm) || /^no\b/.test(reply.norm)) &&
        distinctPrices(reply.text).length <= 1
      )
        refusedAlternative = true;
    }
  });

  // Spoken enumeration ("option one... two...") is the surer count; prices fill in when it is missing.
  // Spoken numbering ("one... two... or three") is the surest count; then distinct prices;
  // then looser markers.
  let ordinals = markers >= ORDINAL_BONUS ? markers - ORDINAL_BONUS : 0;
  // "There are two ways to go", "I can do two setups": the rep counts the choices out loud.
  for (const t of rep) {
    const m = t.norm.match(COUNTED_CHOICES);
    if (m) ordinals = Math.max(ordinals, ORDINAL_VALUE[m[1]] ?? 0);
  }
  // An upgrade offered beside the base job is a second option.
  if (
    ordinals < 2 &&
    rep.some(
      (t) =>
        has(UPGRADE, t.norm) || (has(ALSO_ALT, t.norm) && t.members.some((x) => optionTurns.includes(x))),
    ) &&
    optionTurns.length
  )
    ordinals = 2;
  // A figure the call facts do not read as the rep's money (a brag about counts: "twelve thousand
  // floors") or read as a deposit is no option's price.
  const priced = facts ? [...prices].filter((p) => isOfferedMoney(p, facts)).length : prices.size;
  const optionCount = Math.min(
    4,
    ordinals >= 2
      ? Math.max(ordinals, Math.min(priced, ordinals + 1))
      : priced >= 2
        ? priced
        : Math.max(markers, priced, optionTurns.length ? 1 : 0),
  );

  const singlePush = optionTurns.length > 0 && (push > 0 || refusedAlternative) && optionCount <= 2;
  let score = [1, 3, 4.5, 6, 6][optionCount];
  score += priced >= 2 ? 1 : priced === 1 ? 0.5 : 0;
  if (recommend) score += 1.5;
  score += Math.min(2, ties * 0.7 + echoed.size * 0.3);
  score -= push * 1.5 + (refusedAlternative ? 2 : 0) + steer * 1;
  if (optionCount <= 1) score = Math.min(score, 4); // one package, however well pitched, is not a choice
  // High means a recommendation among priced choices; turning down a simpler option is a push.
  if (!recommend) score = Math.min(score, 7);
  // High needs the choices priced: a second option named only as "costs more" leaves it half laid out.
  if (priced < 2) score = Math.min(score, 7);
  if (refusedAlternative) score = Math.min(score, 4);
  f.score = clamp(score);
  f.signals = {
    optionTurns: optionTurns.length,
    optionCount,
    prices: priced,
    recommend: recommend ? 1 : 0,
    tied: ties + echoed.size,
    push,
    steer,
    refusedAlternative: refusedAlternative ? 1 : 0,
  };

  // Quote the turn that lays out the most choices.
  const richness = (t: Turn) => (choiceMarkers(t.norm) % ORDINAL_BONUS) + distinctPrices(t.text).length;
  const first = rep
    .filter((t) => t.members.some((x) => optionTurns.includes(x)))
    .sort((a, b) => richness(b) - richness(a) || a.index - b.index)[0];
  // A sentence of the call facts that offers a priced choice, in that turn, before any other.
  const offered = first && facts?.offers.find((o) => first.members.includes(o.price.evidence.turn));
  if (first)
    f.evidence.push({
      // The sentence that lists the choices, else the one naming a price, not whatever the turn
      // opened with ("Yeah, that's old.").
      quote: offered
        ? offered.sentence
        : quoteFrom(
            first,
            splitSentences(first.text).some((x) => new RegExp(ENUM.source).test(normalizeText(x)))
              ? ENUM
              : new RegExp(PRICE.source, 'i'),
          ),
      turn: first.index,
      strength: optionCount >= 3 ? 0.7 : 0.4,
      label: 'laid out the options',
    });
  if (recommend)
    f.evidence.push({
      quote: quoteFrom(recommend, RECOMMEND),
      turn: recommend.index,
      strength: 0.5 + Math.min(0.4, ties * 0.15 + echoed.size * 0.04),
      label: 'recommended one for a reason',
    });

  // No count: a monthly figure, a deposit or a rival's quote can read as one more option, and a
  // wrong number is a false sentence where "a choice" is not.
  if (optionCount >= 2) f.positives.push(`laid out a choice of options${priced >= 2 ? ' with prices' : ''}`);
  if (recommend && !singlePush) f.positives.push('made a clear recommendation');
  if (ties + echoed.size >= 3 && !singlePush) f.positives.push('tied them to what the homeowner said');
  if (!optionTurns.length) f.gaps.push('never presented a solution or options');
  else if (optionCount <= 1) f.gaps.push('offered a single package instead of a choice');
  if (optionTurns.length && ties + echoed.size < 3)
    f.gaps.push("didn't tie the options to the homeowner's own needs");
  if (refusedAlternative) f.gaps.push('turned down a request for a simpler option');
  if (steer) f.gaps.push('steered with "what everyone else is doing" instead of their needs');
  if (optionTurns.length && priced < 2 && optionCount >= 2) f.gaps.push('gave no price for each option');
  return { finding: f, optionTurns, singlePush };
}
