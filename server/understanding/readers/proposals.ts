import { normalizeText, splitSentences } from '../text/normalise';

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
  '\\d{1,2}(:\\d\\d)? ?(am|pm|a m|p m|ish)?|(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)( (thirty|fifteen|forty five|o clock|ish))?|noon|half (past )?\\w+|quarter (to|past) \\w+|first thing';
const WHEN = new RegExp(`\\b(${DAY})\\b|\\bat (${CLOCK})\\b|\\b(${CLOCK}) (am|pm|o clock)\\b`);
const FITS =
  /\b(work|works|suit|suits|good|ok|okay|fine|free|available|open|better|possible|doable)\b|\bhow (about|s|does|is)\b|\bwhat about\b|\bcan (you|we) do\b|\bcould (you|we) do\b|\bwould you be (home|around|free|there)\b|\b(are|will) you (be )?(home|around|free|there)\b/;
const OFFERS_STEP =
  /\b(i|we|i ll|ill|we ll|i can|we can|i could|we could|let me|let s|lets|i d like to|we d like to|i will|we will|i m going to|we re going to) (\w+ ){0,2}(come|be|swing|stop|drop|get|have|put|pencil|book|schedule|start|set|bring|meet|call|lock|hold|save|reserve|do|install|measure|say)\b/;
const NOT_A_STEP =
  /\b(called|came|was|were|had|did|happened|started|last|ago|every|most|usually|typical|normally|have a (good|great|nice)|enjoy (your|the)|ends?|expires?|gone|goes up|only good|until)\b/;

/** Whether a line proposes a definite day or time for a next step. */
export function proposesDay(text: string): boolean {
  const sentences = splitSentences(text);
  for (const s of sentences.length ? sentences : [text]) {
    const n = normalizeText(s);
    if (!WHEN.test(n) || NOT_A_STEP.test(n)) continue;
    const asked =
      s.trim().endsWith('?') || /^(does|do|would|will|could|can|is|how|what|shall|should)\b/.test(n);
    // "Thursday?", "Saturday morning at nine?": little but the time itself, put as a question.
    const rest = n.replace(new RegExp(WHEN.source, 'g'), ' ').replace(/\b(at|or|and|so|um|uh|then|maybe|how|about|what|morning|afternoon|evening|night|the)\b/g, ' ');
    if (asked && (FITS.test(n) || rest.trim().split(/\s+/).filter(Boolean).length <= 1)) return true;
    if (OFFERS_STEP.test(n)) return true;
  }
  return false;
}

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
  const n = normalizeText(text).replace(/-/g, ' ');
  const m = WHEN_PHRASE.exec(n);
  if (!m) return null;
  const phrase = m[0]
    .split(' ')
    .map((w) => SHORT_DAYS[w] ?? w.replace(/^(monday|tuesday|wednesday|thursday|friday|saturday|sunday)s$/, '$1'))
    .join(' ')
    .replace(/^(at|around) /, 'at ');
  return phrase.replace(/\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/g, (d) => d[0].toUpperCase() + d.slice(1));
}
