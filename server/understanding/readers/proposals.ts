import { looseContractions as loose, normalizeText, splitSentences } from '../text/normalise';

/**
 * A day or time put to the other person for a next step, by its shape: a day named and asked
 * whether it fits ("would Wednesday at four-thirty work?", "how's Thursday?", "Saturday morning at
 * nine?"), or a day the speaker offers to come, book or start ("I can have a crew out Monday", "let's
 * say Tuesday at ten"). Not a day in the past ("she called Tuesday"), a day that describes
 * ("most evenings"), a deadline on an offer, or a day in a goodbye ("have a good weekend").
 */
const DAY =
  '(monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tues|tue|wed|weds|thurs|thu|fri|sat|sun)s?|tomorrow|tmrw|tonight|this (week|weekend|afternoon|evening)|next (week|weekend|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|the (\\d{1,2}(st|nd|rd|th)|first|second|third|\\w+teenth|twentieth|twenty \\w+|thirtieth)';
const CLOCK =
  '\\d{1,2}(:\\d\\d)? ?(am|pm|a m|p m|ish)?|(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)( (thirty|fifteen|forty five|o clock|ish))?|noon|half (past )?\\w+|quarter (to|past) \\w+|first thing|ish';
const WHEN = new RegExp(`\\b(${DAY})\\b|\\bat (${CLOCK})\\b|\\b(${CLOCK}) (am|pm|o clock)\\b`);
/** The day put as fitting the two people at the table: "does Thursday work for you?", "how about six?". */
const FITS = loose(
  /\b(work|works|suit|suits|good|ok|okay|fine|better|doable|possible|free|open) (for|with) (you|ya|u|us|you both|both of you|the two of you|your family)\b|\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight|morning|afternoon|evening|\d|one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|thirty)s? (\w+ ){0,4}(work|works|suit|suits|good|ok|okay|fine|better|doable)\b|\b(how|what) about\b|\bhow s\b|\b(can|could) (you|we|ya|u) do\b|\b(are|will|would|re) (you|ya|u|you both|you guys) (be )?(free|home|around|available|there|in)\b|\bwhich( one| day| time|d)?\b|\b(rather|prefer)\b|\bwhen (is|s) (good|best|better)\b/,
);
/** "What about Saturday?", "how's Thursday?", "which'd you rather?": put to them, whoever else is named. */
const SUGGESTS = loose(/\b(how|what) about\b|\bhow s\b|\bwhich( one| day| time|d)?\b|\b(rather|prefer)\b/);
const OFFERS_STEP = loose(
  /\b(i|we|i ll|ill|we ll|i can|we can|i could|we could|let me|let s|lets|i d like to|we d like to|i will|we will|i m going to|we re going to) (\w+ ){0,2}(come|be|swing|stop|drop|get|have|put|pencil|book|schedule|start|set|bring|meet|call|lock|hold|save|reserve|do|install|measure|say)\b|\b(i ve got|i have|we ve got|we have|there s|i got) (\w+ ){0,3}(open|free|available)\b/,
);
const NOT_A_STEP = loose(
  /\b(called|came|was|were|had|did|happened|started|last|ago|every|most|usually|typical|normally|have a (good|great|nice)|enjoy (your|the)|ends?|expires?|gone|goes up|only good|until)\b/,
);

/** Whether a line proposes a definite day or time for a next step. */
export function proposesDay(text: string): boolean {
  const sentences = splitSentences(text);
  for (const s of sentences.length ? sentences : [text]) {
    const n = normalizeText(s);
    if (!WHEN.test(n) || NOT_A_STEP.test(n)) continue;
    const asked =
      s.trim().endsWith('?') || /^(does|do|would|will|could|can|is|how|what|shall|should)\b/.test(n);
    // "Thursday?", "Saturday morning at nine?": little but the time itself, put as a question.
    const rest = n
      .replace(new RegExp(WHEN.source, 'g'), ' ')
      .replace(
        /\b(at|or|and|so|um|uh|like|ish|then|maybe|how|about|what|morning|afternoon|evening|night|the)\b/g,
        ' ',
      );
    const bare = rest.trim().split(/\s+/).filter(Boolean).length <= 1;
    // "Thursday, half four?", "like tuesday ish afternoon": a day said on its own puts it forward.
    // Asked of the two people at the table ("does Thursday work for you?"), not of a bakery's hours.
    const between = /\b(you|we|i|us|me|ya|u)\b/.test(n) || SUGGESTS.test(n);
    if ((asked && between && FITS.test(n)) || (bare && n.split(' ').length <= 6)) return true;
    if (OFFERS_STEP.test(n)) return true;
  }
  return false;
}

/** "No wait, I'm out of town Wednesday": a day taken back. */
const RETRACTS = loose(
  /\b(no wait|scratch that|actually no|out of town|i m away|im away|can t do|cant do|won t work|wont work|not (on )?(monday|tuesday|wednesday|thursday|friday|saturday|sunday))\b/,
);
const SENT_WHEN = loose(
  /\b(i ll|ill|i will|we ll|well|i can|let me) (\w+ ){0,2}(text|email|send|call|ring|mail|shoot|drop|get) (you |it |them |the \w+ |over )*(\w+ ){0,3}(tonight|tomorrow|today|later|by)\b/,
);
const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
const SHORT_DAYS: Record<string, string> = {
  mon: 'monday',
  tues: 'tuesday',
  tue: 'tuesday',
  wed: 'wednesday',
  weds: 'wednesday',
  thurs: 'thursday',
  thu: 'thursday',
  fri: 'friday',
  sat: 'saturday',
  sun: 'sunday',
  tmrw: 'tomorrow',
};
const CLOCK_WORD =
  '(\\d{1,2}(:\\d\\d)?( ?(am|pm))?|(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)( (thirty|fifteen|forty five|o clock))?( ?(am|pm))?|noon|half (past )?(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)|quarter (to|past) (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve))';
const WHEN_PHRASE = new RegExp(
  `\\b((next |this )?(${WEEKDAYS.join('|')}|${Object.keys(SHORT_DAYS).join('|')}|tomorrow|tonight)s?( (morning|afternoon|evening|night))?( (at|around|about) ${CLOCK_WORD})?|(first thing )?(tomorrow|monday|tuesday|wednesday|thursday|friday|saturday|sunday)|(at|around) ${CLOCK_WORD}( (on )?(${WEEKDAYS.join('|')}))?)\\b`,
);

/**
 * The day and time a line proposes, as the homeowner would say it back: "Wednesday at four
 * thirty", "Saturday morning at nine", "tomorrow morning". Null when it names none.
 */
export function proposedWhen(text: string): string | null {
  return proposedWhens(text).at(-1) ?? null;
}

/**
 * Every day and time a line puts forward, in order: "Friday first thing or Saturday morning" gives
 * two. A day taken back ("Wednesday... no wait, I'm out of town Wednesday. Friday?") is left out.
 */
export function proposedWhens(text: string): string[] {
  const out: string[] = [];
  const retracted = new Set<string>();
  for (const sentence of splitSentences(text.replace(/\.\.\.|…/g, '. '))) {
    const n = normalizeText(sentence).replace(/-/g, ' ');
    const found = [...n.matchAll(new RegExp(WHEN_PHRASE.source, 'g'))].map((m) => sayWhen(m[0]));
    // "I'll text you the confirmation tonight": when something is sent, not a day for a visit.
    const marker = n.search(RETRACTS);
    if (SENT_WHEN.test(n)) for (const w of found) retracted.add(w);
    else if (marker >= 0) {
      // "half four on wednesday no wait thursday": what follows the retraction stands.
      const after = [...n.slice(marker).matchAll(new RegExp(WHEN_PHRASE.source, 'g'))].map((m) =>
        sayWhen(m[0]),
      );
      for (const w of found) if (!after.includes(w)) retracted.add(w);
      out.push(...after.filter((w) => !/^(no|wait)$/.test(w)));
    } else out.push(...found);
  }
  return [...new Set(out)].filter((w) => !retracted.has(w));
}

function sayWhen(found: string): string {
  const phrase = found
    .split(' ')
    .map(
      (w) =>
        SHORT_DAYS[w] ?? w.replace(/^(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s$/, '$1'),
    )
    .join(' ')
    .replace(/^(at|around) /, 'at ');
  return phrase.replace(
    /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/g,
    (d) => d[0].toUpperCase() + d.slice(1),
  );
}

/** "Are evenings better for Mark, or weekends?", "when's a good time for you both?": asks when they are free. */
const WHEN_FREE = loose(
  /\b(when (is|s|would be) (a |the )?(good|best|better|easiest) (time|day)|(what|which) (day|days|time|times) (is|s|are|works?|would|suits?) (\w+ ){0,2}(good|best|better|easiest|work|suit|for (you|him|her|them|your|the|both))|(are|is|would) (evenings?|mornings?|afternoons?|weekends?|weekdays?|days?) (better|best|easier|good|ok|okay)|(evenings?|mornings?|weekends?|weekdays?) or (evenings?|mornings?|weekends?|weekdays?)|best time|good time (for|to)|when (are|is) (you|he|she|they|your \w+|\w+) ((usually|normally|generally|typically|mostly) )?(free|home|around|available|off|back))\b/,
);

/** Whether a line asks when the household is free to meet. */
export function asksWhenFree(text: string): boolean {
  const n = normalizeText(text);
  return (
    (text.includes('?') ||
      /(^|\b(lol|ok|okay|so|sorry|right|and|but|then) )(when|what|are|is|would)\b/.test(n)) &&
    WHEN_FREE.test(n) &&
    !proposesDay(text)
  );
}

/** "And if Monday's awkward, I've got Wednesday too": a second day only in case the first does not suit. */
const FALLBACK = loose(
  /\bif (that|it|\w+day|\w+day s|\w+days|the \w+) (\w+ ){0,2}(is |s |are )?(awkward|no good|bad|not good|a problem|doesn t work|doesnt work|won t work|wont work|tricky)\b|\b(otherwise|as a (backup|fallback)|failing that|or if you d rather)\b|\bor if (\w+ ){1,3}(are|is|s|would be) (easier|better|simpler)\b|\b(is|s) (open|free) too\b|\bif neither (of (those|them|these) )?(suits|works|work|is any good)\b/,
);
export function offersFallback(text: string): boolean {
  return FALLBACK.test(normalizeText(text));
}

/** "Would you maybe want someone to come look at it sometime?": a visit offered without a day. */
const VISIT_OFFERED = loose(
  /\b(want|like|need) (me|someone|somebody|a tech|a technician|us|one of our guys) to (come|pop|swing|stop) (out|by|round|over|and (look|take a look|have a look))\b|\b(want|like) (me|us) to (come )?(take|have) a look (at it )?(some ?time|next week|another day|later)\b/,
);
export function offersVisit(text: string): boolean {
  return VISIT_OFFERED.test(normalizeText(text));
}
