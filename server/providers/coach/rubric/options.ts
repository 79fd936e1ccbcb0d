import { normalizeText, splitSentences } from '../../../understanding/text/normalise';
import { endsSentence } from '../../../understanding/text/marks';
import { opensWithNo } from '../../../understanding/readers/replies';
import {
  ASKS_FOR_SIMPLER,
  choiceMarkers,
  countedChoices,
  distinctPrices,
  LISTS_CHOICES,
  NAMES_A_PRICE,
  NAMES_ALTERNATIVE,
  OFFERS_UPGRADE,
  ORDINAL_BONUS,
  PUSHES_ONE_PACKAGE,
  qualifiesOrVouches,
  RECOMMENDS_ONE,
  STEERS_BY_NEIGHBOURS,
  TIES_TO_THEIR_WORDS,
} from '../../../understanding/readers/options-offered';

export { choiceMarkers, distinctPrices, ORDINAL_BONUS };
import { overlap } from '../../../nlp';
import type { CallFacts } from '../../../understanding/call-facts';
import { findMoney } from '../../../understanding/entities';
import { TRADE_STAPLES } from '../../../understanding/readers/needs';
import { type Turn, type Finding, has, clamp, nextRep, quoteFrom, OPTIONS_START } from './turns';

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
      !endsSentence(prevTurn.text)
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
      has(NAMES_ALTERNATIVE, t.norm) ||
      has(RECOMMENDS_ONE, t.norm)
    )
      p.forEach((x) => prices.add(x));
    if (!recommend && has(RECOMMENDS_ONE, t.norm) && t.words >= 6) recommend = t;
    if (isOption || has(RECOMMENDS_ONE, t.norm)) {
      if (has(TIES_TO_THEIR_WORDS, t.norm)) ties++;
      overlap(ownerBefore, t.lemmas)
        .filter((w) => !TRADE_STAPLES.has(w))
        .forEach((w) => echoed.add(w));
    }
    if (has(PUSHES_ONE_PACKAGE, t.norm)) {
      push++;
      f.missteps.push({
        quote: quoteFrom(t, PUSHES_ONE_PACKAGE),
        turn: t.index,
        strength: 0.7,
        label: 'pushed one package',
      });
    }
    if (has(STEERS_BY_NEIGHBOURS, t.norm)) steer++;
  }
  if (!recommend && optionTurns.length)
    recommend = lead.find((t) => has(RECOMMENDS_ONE, t.norm) && t.words >= 6);
  turns.forEach((t, i) => {
    if (t.role === 'assistant' && has(ASKS_FOR_SIMPLER, t.norm)) {
      const reply = nextRep(turns, i);
      if (
        reply &&
        (has(PUSHES_ONE_PACKAGE, reply.norm) || qualifiesOrVouches(reply.norm) || opensWithNo(reply.norm)) &&
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
    ordinals = Math.max(ordinals, countedChoices(t.norm));
  }
  // An upgrade offered beside the base job is a second option.
  if (
    ordinals < 2 &&
    rep.some(
      (t) =>
        has(OFFERS_UPGRADE, t.norm) ||
        (has(NAMES_ALTERNATIVE, t.norm) && t.members.some((x) => optionTurns.includes(x))),
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
            splitSentences(first.text).some((x) => LISTS_CHOICES.test(normalizeText(x)))
              ? LISTS_CHOICES
              : NAMES_A_PRICE,
          ),
      turn: first.index,
      strength: optionCount >= 3 ? 0.7 : 0.4,
      label: 'laid out the options',
    });
  if (recommend)
    f.evidence.push({
      quote: quoteFrom(recommend, RECOMMENDS_ONE),
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
