/**
 * Telling a follow-up from a repeat: a question on a topic already answered is a follow-up
 * (it gets the next detail) unless it comes back in much the same words or says it is asking
 * again.
 */

/** Words that carry no content when comparing two questions. */
const FUNCTION_WORDS = new Set(
  'a an the and or but so to of in on at for with about you your i me my we us our it its is are was were be been do does did have has had can could would will should what whats how hows why when where who whos which that this there just really like um uh again any anything tell more kind sort type right now get got going look want need think yeah okay they them their he she him her his those these then all some much very too also still ever even else time after before while'.split(
    ' ',
  ),
);

/** A question asked again in much the same words (not a follow-up on the same topic). */
export function repeatsAnEarlierQuestion(earlier: Set<string>[] | undefined, now: Set<string>): boolean {
  if (!earlier || now.size === 0) return false;
  return earlier.some((prev) => {
    const shared = [...now].filter((w) => prev.has(w)).length;
    return shared / Math.max(1, Math.min(now.size, prev.size)) >= 0.5;
  });
}

/** "What was your budget again?", "and your budget was...": asked again, not a follow-up. */
export function saysItAsksAgain(words: readonly string[]): boolean {
  return /\b(again|remind me|one more time|you said|did you say|you mentioned)\b|\bwas$/.test(
    words.join(' '),
  );
}

/** Counts and clock times ("two o'clock", "three rooms") say nothing about which detail is meant. */
const NUMBER_WORDS = new Set(
  'one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty forty fifty hundred thousand clock'.split(
    ' ',
  ),
);

/** Everyday names for the same thing: "the pup" is the dog, "the kiddos" the kids. */
const SAME_AS: Record<string, string> = {
  pup: 'dog',
  puppy: 'dog',
  doggy: 'dog',
  doggo: 'dog',
  kiddo: 'kid',
  child: 'kid',
  children: 'kid',
  tub: 'bathroom',
  shower: 'bathroom',
  // Looking after it, however it is put.
  maintenance: 'service',
  maintain: 'service',
  maintained: 'service',
  // What something cost, however it is put.
  charge: 'price',
  cost: 'price',
  quote: 'price',
  estimate: 'price',
};

/** A word as the same thing's everyday name ("pup" is "dog", "charge" is "price"). */
export function sameAs(word: string): string {
  return SAME_AS[word] ?? word;
}

/** The content words of a question, for comparing it with earlier ones. */
export function contentWords(lemmas: readonly string[]): Set<string> {
  return new Set(
    lemmas
      .filter((w) => w.length > 2 && !FUNCTION_WORDS.has(w) && !NUMBER_WORDS.has(w) && !/^\d/.test(w))
      .map(sameAs),
  );
}

/** Words of a detail that says when or for how long. */
const TIME_WORDS = [
  'start',
  'since',
  'ago',
  'year',
  'month',
  'week',
  'winter',
  'summer',
  'spring',
  'fall',
  'last',
  'storm',
];
/** Words of a detail that says where. */
const PLACE_WORDS = [
  'room',
  'upstairs',
  'downstairs',
  'living',
  'bedroom',
  'kitchen',
  'hallway',
  'back',
  'front',
  'attic',
  'ceiling',
  'slope',
  'bathroom',
  'basement',
];

/** Words of a detail about its care so far: who came out and what they did. */
const SERVICE_WORDS = [
  'guy',
  'come',
  'clean',
  'service',
  'fix',
  'repair',
  'redo',
  'caulk',
  'stain',
  'upkeep',
];

/** "Has it ever had work done on it?", "on a maintenance plan?": asks who has looked after it. */
export function serviceWords(words: readonly string[]): string[] {
  return /\b(work done|repair(s|ed)?|fixed|serviced|service(d)?|looked at|worked on|tune ?up|maintenance|maintained|breaks)\b/.test(
    words.join(' '),
  )
    ? SERVICE_WORDS
    : [];
}

/** Words of a detail that says when something is at its worst. */
const WHEN_WORDS = ['bad', 'worst', 'worse', 'every', 'night', 'cold', 'rain', 'humid', 'winter', 'storm'];

/** Words of a detail that says how much. */
const MONEY_WORDS = ['grand', 'thousand', 'hundred', 'dollar', 'buck'];

/** "What did he charge?", "how much was it?": asks for an amount, so a detail with one answers it. */
export function amountWords(words: readonly string[]): string[] {
  return /\b(how much|charge|charged|cost|price|quote|quoted)\b/.test(words.join(' ')) ? MONEY_WORDS : [];
}

/** Words of a detail about the inside of the home, and about the outside. */
const INDOOR_WORDS = [
  'door',
  'bathroom',
  'fan',
  'kitchen',
  'bedroom',
  'living',
  'hallway',
  'ceiling',
  'upstairs',
  'downstairs',
  'basement',
];
const OUTDOOR_WORDS = ['deck', 'yard', 'porch', 'step', 'gutter', 'slope', 'outside', 'siding', 'driveway'];

/**
 * The question's content words plus the kind of answer it asks for: "how long has it been doing
 * that?" points at a detail that says when ("started last winter"), "where is it worst?" at one
 * that says where, even when no word is shared.
 */
export function questionWords(lemmas: readonly string[], words: readonly string[]): Set<string> {
  const content = contentWords(lemmas);
  const text = words.join(' ');
  if (/\b(how long|since when|when (did|do|does|was|were)|start(ed)?|begin|began)\b/.test(text))
    for (const w of TIME_WORDS) content.add(w);
  if (/\b(where|which (room|part|side|area|one)s?)\b/.test(text)) for (const w of PLACE_WORDS) content.add(w);
  for (const w of serviceWords(words)) content.add(w);
  // "Does it happen all the time?", "is it worse when it rains?": when it is at its worst.
  if (
    /\b(all the time|every (time|day|night|winter|year)|how often|always|constant(ly)?|(only|just|mostly|worse|worst|better) (when|at|in|on|after|during)|the \w+ ones)\b/.test(
      text,
    )
  )
    for (const w of WHEN_WORDS) content.add(w);
  for (const w of amountWords(words)) content.add(w);
  // "How long have you lived here?": how long they have been in the house, not its age.
  if (
    /\bhow long (have |has |ve )?(you|ya|y all)( \w+){0,2} (lived|been|owned|had the (house|home|place))\b/.test(
      text,
    )
  )
    for (const w of ['live', 'here', 'move']) content.add(w);
  // "Anything going on inside?": the trouble indoors; "what about outside?": out of doors.
  if (/\b(inside|indoors|in the house)\b/.test(text)) for (const w of INDOOR_WORDS) content.add(w);
  if (/\b(outside|outdoors|out back|out front)\b/.test(text)) for (const w of OUTDOOR_WORDS) content.add(w);
  return content;
}

/**
 * A detail that denies something ("Bills? No, nothing like that.", "The bills are fine.")
 * answers a question about it; said unprompted, it answers nothing.
 */
const DENIAL =
  /^\w+\?|\bnothing like that\b|\b(bills?|it|that|those|they) (are|is|s|re) (fine|alright|okay)\b/i;
export function deniesIt(line: string): boolean {
  return DENIAL.test(line);
}

/** "Yeah, a guy quoted...": an answer's opening word, dropped when the answer is said again. */
const INTERJECTION = /^(yeah|yes|well|oh|fine|alright|okay|ok|honestly|so|short version)[,:.]?\s+/i;
export function withoutInterjection(line: string): string {
  return line.replace(INTERJECTION, '');
}

/** Words that point back at what was just said ("when did that start?", "how old are they?"). */
export const POINTING_WORDS = [
  'it',
  'that',
  'this',
  'they',
  'them',
  'those',
  'these',
  'there',
  'he',
  'she',
  'him',
  'her',
  'his',
  'their',
];

/** Day names, to tell two ways of saying one day ("Saturday", "Saturday morning") from two days. */
export const DAY_NAMES = [
  'monday',
  'tuesday',
  'wednesday',
  'thursday',
  'friday',
  'saturday',
  'sunday',
  'tomorrow',
  'tonight',
  'today',
];

/** A question about the claim that names a detail of it (the deductible, what it covers, paying). */
export const CLAIM_DETAIL_WORDS = [
  'deductible',
  'deductibles',
  'cover',
  'covers',
  'covered',
  'covering',
  'pay',
  'pays',
  'paying',
  'paid',
  'pocket',
];

/** Words that bring the spouse into a proposal ("when you're both home"). */
export const TOGETHER_WORDS = ['both', 'spouse', 'husband', 'wife', 'partner', 'together'];

/** "Can I pop into the attic first? ...before I go up top": words that put what follows later. */
export const LATER_WORDS = ['before', 'then', 'after that', 'afterwards', 'later'];
