/**
 * Telling a follow-up from a repeat: a question on a topic already answered is a follow-up
 * (it gets the next detail) unless it comes back in much the same words or says it is asking
 * again.
 */

/** Words that carry no content when comparing two questions. */
const FUNCTION_WORDS = new Set(
  'a an the and or but so to of in on at for with about you your i me my we us our it its is are was were be been do does did have has had can could would will should what whats how hows why when where who whos which that this there just really like um uh again any anything tell more kind sort type'.split(
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

/** The content words of a question, for comparing it with earlier ones. */
export function contentWords(lemmas: readonly string[]): Set<string> {
  return new Set(
    lemmas.filter((w) => w.length > 2 && !FUNCTION_WORDS.has(w) && !NUMBER_WORDS.has(w) && !/^\d/.test(w)),
  );
}
