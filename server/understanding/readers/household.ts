import { looseContractions as loose, normalizeText } from '../text/normalise';

/**
 * Questions about the household itself rather than the job: how old the thing is (apart from the
 * house), whether someone is home right now, and who someone named is.
 */
const HOW_OLD = loose(
  /\bhow (old|olds) (is |s |was |d (you|u|ya) say |did (you|u|ya) say |do (you|u|ya) think )?(it|that|this|the|your|ur|yours)\b|\bhow old (are|re) (the|your|ur) (windows|shingles|floors|boards|cabinets|units?)\b|\bhow (long|many years) (have you had (it|the \w+)|ago did you (get|put in|install))\b|\bhow old s\b|\bwhat year (was|is|did) (it|the \w+) (put in|installed|go in|built)\b/,
);
const NOT_THE_THING =
  /\b(house|home|place|kids?|children|son|daughter|you|he|she|him|her|dog|cat|grandkids?|baby)\b/;

/** "How old is the furnace?", "how old's the deck, roughly?": the thing's age, not the house's. */
export function asksThingAge(text: string): boolean {
  const n = normalizeText(text);
  const at = n.search(HOW_OLD);
  if (at < 0) return false;
  // The word the question is about: the first after its determiner ("the deck", "your furnace").
  const words = n.slice(at).split(' ');
  const det = words.findIndex(
    (w, i) => i >= 2 && /^(it|that|this|the|your|ur|yours|had|get|put|install)$/.test(w),
  );
  const subject = det >= 0 ? (words[det + 1] ?? words[det]) : '';
  return !NOT_THE_THING.test(subject);
}

/** "Is Mark about today, or just you?", "is your husband home?": whether someone is there now. */
export function asksWhoIsHome(text: string, names: readonly string[]): boolean {
  const n = normalizeText(text);
  const who = [
    'your (husband|wife|partner|spouse|other half)',
    'he',
    'she',
    ...names.map((x) => x.toLowerCase()),
  ].join('|');
  return (
    new RegExp(
      `\\b(is|s|will) (${who}) (about|around|home|here|in|there|joining|coming|going to be (here|home))\\b`,
    ).test(n) ||
    /\bjust (you|yourself) (today|tonight|this (morning|afternoon|evening)|here|home|at home)\b/.test(n)
  );
}

/** "Is Susan your wife or your daughter?", "who's Raj?": who someone named is. */
export function asksWhoSomeoneIs(text: string, names: readonly string[]): boolean {
  const n = normalizeText(text);
  return names.some((name) => {
    const x = name.toLowerCase();
    return (
      new RegExp(
        `\\b(is|s) ${x} (your|ur|the) (wife|husband|daughter|son|partner|sister|brother|mom|mother|dad|father|spouse)\\b`,
      ).test(n) || new RegExp(`\\b(who is|who s|whos) ${x}\\b`).test(n)
    );
  });
}

/** "Do you know what size filter's in it?": a detail a homeowner may simply not know. */
const DETAIL_ASKED = loose(
  /\b(do|would) you (happen to )?know (what|which|the|how many|how big|if)\b.{0,30}\b(size|model|brand|make|serial|tonnage|btu|btus|seer|afue|rating|filter|gauge|thickness|r value|warranty number|part number|year it was (made|built))\b|\bwhat (size|model|brand|make|tonnage|seer|gauge) (is|s|of)\b/,
);

/** Whether a line asks for a technical detail (a model, a size, a rating) rather than about the home. */
export function asksTechnicalDetail(text: string): boolean {
  return DETAIL_ASKED.test(normalizeText(text));
}

/** The things each trade works on: naming another trade's thing means the rep has the wrong job. */
const TRADE_THINGS: Record<string, RegExp> = {
  Windows: /\b(windows?|panes?|glass|sills?|frames?)\b/,
  HVAC: /\b(furnace|heating|heat pump|boiler|ac|air conditioning|hvac|ducts?)\b/,
  Roofing: /\b(roof|roofing|shingles?|gutters?)\b/,
  Flooring: /\b(floors?|flooring|carpet|hardwood|laminate|vinyl plank|tiles?)\b/,
  General: /\b(deck|back door|bathroom fan|kitchen|remodel)\b/,
};

/** The trades whose things a line names ("so it's the roof you wanted looked at?" names Roofing). */
export function tradesNamed(text: string): string[] {
  const n = normalizeText(text);
  return Object.entries(TRADE_THINGS)
    .filter(([, re]) => re.test(n))
    .map(([trade]) => trade);
}

/** "So it's the gutters, right?", "you wanted the roof looked at?": a check on what the visit is for. */
const JOB_CHECK = loose(
  /\b(you (called|wanted|rang|asked) (about|for|us)|wanted (\w+ ){0,3}looked at|you re after|the job|is it the|it s the|so it s|so this is|here (about|for) the|(right|yeah|correct|yes)\??$)/,
);

/** Whether a question checks what the visit is for (where a wrong trade named is worth putting right). */
export function checksTheJob(text: string): boolean {
  return JOB_CHECK.test(normalizeText(text));
}
