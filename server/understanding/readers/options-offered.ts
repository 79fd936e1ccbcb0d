import { looseContractions as loose, normalizeText } from '../text/normalise';
import { COUNTING_WORDS, wordAlternation } from '../entities/numbers';

/**
 * Choices a rep lays out, read from the rep's lines: the prices named (as said, distinct), the
 * markers of a list of choices ("option one", "the cheapest one", "or if you"), choices counted
 * out loud, an upgrade or a second route named beside the main one, a recommendation, ties to
 * what the homeowner said, one package pushed, steering by the neighbours, and the homeowner
 * asking for something simpler. The coach scores Exploring Options with these.
 */

/** A number word (one to ninety, the shared table) or digits, as a pattern source. */
const NUM = wordAlternation([...Object.keys(COUNTING_WORDS), '\\d+']);
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

/** Numbered choices are marked so they can outrank looser markers ("there's a..."). */
export const ORDINAL_BONUS = 100;

export function choiceMarkers(norm: string): number {
  const ordinals = new Set<number>();
  for (const m of norm.matchAll(ORDINAL)) ordinals.add(ORDINAL_VALUE[m[1] ?? m[2] ?? m[3] ?? m[4]] ?? 0);
  if (ordinals.size >= 2) return ordinals.size + ORDINAL_BONUS;
  return Math.max(ordinals.size, norm.match(ENUM)?.length ?? 0);
}

const COUNTED_CHOICES = loose(
  /\b(two|three|four) (basic |main |different |good )?(ways|options|setups|routes|choices|packages|levels|kinds|types|approaches|systems|directions)\b/,
);
export const OFFERS_UPGRADE = loose(/\b(upgrade|step up) too?\b|\bif you (want|wanted) to (go|step) up\b/);
/**
 * A second choice named beside the main one: "we also do an engineered hardwood", "there's also a
 * heat pump", "we can also just patch it", "the other route is a repair".
 */
export const NAMES_ALTERNATIVE = loose(
  /\b(we|i) (also|can also|could also) (do|offer|have|carry|install|sell|make|put in|just) (a|an|the|our|some)\b|\b(there s|theres|there is) also (a|an|the)\b|\b(the other|another) (route|way|choice|path|option|one) (is|would be|we could)\b|^((so|and|okay|ok|then|now) )*the other (is|would be)\b|\bthe (fallback|backup|cheaper|budget|simpler|smaller|lighter|less expensive|bare minimum|minimum) (option |route |way |plan |choice |version |fix )?(is|would be)\b|\bplan b\b/,
);
export const RECOMMENDS_ONE = loose(
  /\b(i d|id|i would) ((just|probably|honestly|personally|definitely|really|still|actually|simply) )?go (for |with )?(the |option )?(?!(up|out|there|back|and|to|in|on|over|through|ahead|check|look|get|see|home|down|around)\b)[a-z]+\b|\b(i d|id|i would|i) ((just|probably|honestly|personally|definitely|really|still|actually|simply) )?(recommend|suggest|go with|lean (toward|towards)|say|pick|choose|put|do option|do the)\b|\b(the one|what) i d (recommend|lean|go|pick)|\bsweet spot\b|\bright fit\b|\bbest fit\b|\bmakes the most sense\b|\bfor (your|you) (plan|situation|needs)\b|\bi think (option \w+|the \w+( one)?|that|it s|its) (is|would be|s) (the|your|a)\b|\b(here s|heres|here is|this is) what ((i d|id|i would) (do|go with|recommend|suggest|pick|put in|install)|i (recommend|suggest))\b|\bwhat (i d|id|i would) (do|go with|pick|recommend|suggest) (is|here|if)\b|\bmy (honest )?(recommendation|suggestion|pick|advice) (is|would be|here)\b|\bif (it were|it was|this were|this was) (my|me)\b|\bif i were (you|in your shoes)\b/,
);
export const TIES_TO_THEIR_WORDS = loose(
  /\b(you (mentioned|said|told me)|from what you ve told me|from what youve told me|based on what you|since you|because you (said|want|re|are)|for your (plan|needs|situation)|how you use|you guys use|for (ten|five|\w+) years on|if you re selling|if youre selling|with your|given (that|your|how|you)|with (a|the|your) \w+ (this|that|so) \w+)\b/,
);
export const PUSHES_ONE_PACKAGE = loose(
  /\b(only one i d|only one id|only one i would|i wouldn t feel good (selling|recommending)|i wouldnt feel good (selling|recommending)|the best \w+ we (make|sell|have)|our flagship|it s the only (one|option|thing|system|product)|its the only (one|option|thing|system|product)|the only (thing|one|option) i d (put|recommend|do|sell)|the only (thing|one|option) id (put|recommend|do|sell))\b/,
);
export const STEERS_BY_NEIGHBOURS = loose(
  /\b(most people on your street|what (most|all) (people|your neighbors|everyone) (are|is) doing|everyone on (your|the) street)\b/,
);
export const ASKS_FOR_SIMPLER = loose(
  /\b(something (less|cheaper|smaller|simpler)|less fancy|cheaper (option|one)|other options|anything (less|cheaper)|(do you have|is there|have you got) (a |an |something )?(cheaper|less expensive|lower priced|smaller|basic|simpler))\b/,
);

const QUANTITY_AFTER =
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

/** A sentence that lists choices ("the basic one is", "another option", "or if you"). */
export const LISTS_CHOICES = new RegExp(ENUM.source);

/** A sentence that names a price. */
export const NAMES_A_PRICE = new RegExp(PRICE.source, 'i');

/** How many choices the rep counts out loud ("there are two ways to go", "three options"), else 0. */
export function countedChoices(norm: string): number {
  const m = norm.match(COUNTED_CHOICES);
  return m ? (ORDINAL_VALUE[m[1]] ?? 0) : 0;
}

/** A reply that qualifies with "but" or vouches with "honestly". */
export const qualifiesOrVouches = (norm: string): boolean => /\b(but|honest\w*)\b/.test(norm);
