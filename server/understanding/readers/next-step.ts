import { findPeople } from '../entities/people';
import { looseContractions as loose, normalizeText } from '../text/normalise';
import { clausesOf } from '../text/marks';

/**
 * The next step as the rep sets it, read from the lines at the end of a call (normalized): a day,
 * a date, a time, a vague span instead of a day, who attends, what happens, the homeowner's yes or
 * no to it, a send promised and when it arrives, the next move handed to the homeowner, and what
 * names a day without setting one (a parting wish about their weekend, a routine of the job). The
 * coach scores Follow-Up (and reads days named back in Closing) with these.
 */

/** A day, a relative day, a week or weekend, or a month. */
export const NAMES_DAY = loose(
  /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|next week|this week|weekend|january|february|march|april|may|june|july|august|september|october|november|december)\b/,
);

/** A date: "the fourteenth", "the 3rd". */
export const NAMES_DATE = loose(
  /\b(the )?(first|second|third|fourth|fifth|sixth|seventh|eighth|ninth|tenth|eleventh|twelfth|thirteenth|fourteenth|fifteenth|sixteenth|seventeenth|eighteenth|nineteenth|twentieth|twenty[ -]\w+th|thirtieth|\d{1,2}(st|nd|rd|th))\b/,
);

/** A time of day. A number read as money ("at eleven four", "six twenty a month") is not a time. */
// A number read as money ("at eleven four", "six twenty a month") is not a time.
export const NAMES_TIME = loose(
  /\b(\d{1,2}(:\d\d)? ?(a ?m|p ?m)\b|\d{1,2}:\d\d|at (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|\d{1,2})\b|(one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve)[ -](thirty|fifteen|forty[ -]five|oclock|o clock)|noon|(ten|nine|eight|\w+) (a m|p m|am|pm|in the morning|in the evening|in the afternoon)|around (one|two|three|four|five|six|seven|eight|nine|ten|eleven|twelve|noon|\d{1,2}))\b(?! (hundred|thousand|grand|dollars|bucks|percent|years|minutes|windows|squares|one|two|three|four|five|six|seven|eight|nine)\b| (\w+ )?(a|per) (month|year|week)\b)/,
);

/**
 * A span instead of a day: "sometime", "in a few days", "later this week", "in a week or two",
 * "over the next couple of days". It names no moment anyone can agree to.
 */
export const VAGUE_SPAN = loose(
  /\b(sometime|some time|at some point|down the road|go from there|be in touch|touch base|reach out|circle back|whenever|in (a|the next) (few|couple)( of)? (days|weeks)|in (a|one) (day|week) or (two|so)|in (a|the) (day|week) or (two|so)|(later|early|earlier) (this|next|in the) (week|month)|(end|middle|start) of (the|this|next) (week|month)|(next|this) week or (so|two)|over the next (few|couple)( of)? (days|weeks)|a few days|couple (of )?days|one of these days)\b/,
);

/** A month with no date in it ("before March", "in April") is a horizon, not a day. */
const MONTH = /\b(january|february|march|april|may|june|july|august|september|october|november|december)\b/g;

/** Who attends: "you and Dave", "both of you", "to let the crew in", "the project manager comes out". */
export const NAMES_ATTENDEES = loose(
  /\b((you|me|i) and (\w+)|(\w+) and (me|i|you)|both of you|you both|with you (at home|home|there|here)|to let (the crew|us|them|the installers) in|(wife|husband|partner|\w+) (s|is|are)? ?(there|home) too|make sure (\w+) (is|s|are) there|it ll be me|itll be me|(project manager|advisor|installer|estimator|manager|technician)[\w ]{0,20}(comes?|will come|ll come|out))\b/,
);

/** What happens next: "I'll email", "come out", the final measure, the paperwork, a confirmation. */
export const NAMES_ACTION = loose(
  /\b(i ll|ill|i will|we ll|well|i m going to|im going to) (email|text|send|bring|drop|call|come|swing|leave|have)\b|\b(comes? out|final measure|load calc\w*|inspection|paperwork|contract|drawing|confirmation)\b/,
);

/** The homeowner takes the step: "sounds good", "works", "see you", "we're both home". */
export const AGREES_TO_STEP = loose(
  /\b(sounds good|works|good|fine|sure|okay|ok|yes|yeah|see you|we re both home|were both home|home by|alright)\b/,
);

/** The homeowner refuses or puts off the step. */
// "I didn't say yes to Monday" refuses the day it names; "I need to talk to my husband first"
// puts it off.
export const DECLINES_STEP = loose(
  /^((um|uh|well|oh) )*no\b|\bnot (booking|signing|interested)\b|\bif i want you\b|\b(didn t|didnt|did not|never|haven t|havent|have not) (say|said|agree\w*|book\w*|want\w*)\b|\b(need|have|got|want) to (talk|check|speak) (to|with) (my|our)\b/,
);

/**
 * A parting wish about the homeowner's own plans ("good luck this weekend", "have a great
 * Saturday", "enjoy the rest of your week") names a day that belongs to them, not a next step.
 */
const WELL_WISH = loose(
  /\b(good luck|best of luck|have (a|an) (\w+ )?(good|great|nice|lovely|fun|wonderful|safe|relaxing|happy)|enjoy (your|the)( rest of (your|the))?)( \w+){0,4}? (weekend|week|monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight)\b/g,
);

/**
 * A routine of the job once it runs ("texts you every Friday", "on Mondays the crew...", "each
 * morning", "weekly check-ins on Tuesdays") describes the work, not a next step anyone set.
 */
const RECURRING =
  /\b(every|each|every other) (monday|tuesday|wednesday|thursday|friday|saturday|sunday|week|weekday|morning|evening|afternoon|day)\b|\b(mondays|tuesdays|wednesdays|thursdays|fridays|saturdays|sundays|weekly|daily)\b/;

/** When a promised send arrives: "tonight", "today", "by tomorrow morning", "within the hour". */
export const SEND_WHEN = loose(
  /\b(tonight|today|this (afternoon|evening|morning)|by (tomorrow|the morning|end of (the )?day|noon|tonight)|within the hour|in an hour|first thing|right away|as soon as (i|we) (get|m|am) (back|home|to the (office|truck|car)))\b/,
);

const DAY_WORD = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow)\b/g;

/** A concrete thing the rep will send, one-sided but real ("I'll email you the quote tonight"). */
export const SEND_PROMISE = loose(
  /\b(i ll|ill|i will|we ll|well) (email|send|text|drop off|mail) (you |over |it |them )?(the |a |an |our |over |it )?(\w+ ){0,3}(quote|paperwork|estimate|proposal|agreement|contract|numbers|sheet|details|photos|references|info|link|application|form|brochure|specs|pricing|order|summary|write ?up|report)\b|\b(i|we|i ll|ill|we ll|i will|we will|i m going to|im going to|we re going to) (email|send|text|mail) (it|that|this|them|everything|the whole thing) (to you|over|your way|through)\b|\b(you ll|youll|you will|you should) (have|get|see|find|receive) (it|that|them|everything|the \w+|a \w+)( \w+){0,2} (in your (inbox|email|mailbox|mail|texts)|by (email|text|mail))\b/,
);

/** Leaves the next move to the homeowner. */
export const HANDS_OFF = loose(
  /\b(you ve got my card|youve got my card|if you change your mind|(give|shoot) (us|me) a (call|text|ring)|call (us|me) (whenever|when you re ready|if)|whenever you re ready|whenever youre ready|at some point|check back)\b/,
);

/** The weekdays and "tomorrow" the text names, in order (repeats kept). */
export const daysNamed = (norm: string): string[] => norm.match(DAY_WORD) ?? [];

const WEEKDAY_OR_TONIGHT = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight)\b/g;

/** The weekdays, "tomorrow" and "tonight" the text names, in order (repeats kept). */
export const weekdaysOrTonightNamed = (norm: string): string[] => norm.match(WEEKDAY_OR_TONIGHT) ?? [];

/** Names a weekday, "tomorrow" or "tonight". */
export const namesWeekdayOrTonight = (norm: string): boolean => weekdaysOrTonightNamed(norm).length > 0;

/** Names a part of the day: morning, afternoon or evening. */
export const namesPartOfDay = (norm: string): boolean => /\b(morning|afternoon|evening)\b/.test(norm);

/** The reply names one of the rep's days within its first three words ("Thursday works", "oh Monday's fine"). */
export const namesDayBackFirst = (repNorm: string, replyNorm: string): boolean =>
  daysNamed(repNorm).some((d) => new RegExp(`^(\\w+ ){0,2}${d}\\b`).test(replyNorm));

/** The text without the months it names ("before March" is a horizon, not a day). */
export const withoutMonths = (norm: string): string => norm.replace(MONTH, '');

/** The text without parting wishes about the homeowner's own days ("have a great weekend"). */
export const withoutWellWishes = (norm: string): string => norm.replace(WELL_WISH, ' ');

/**
 * A line's normalized text without the clauses that describe a routine of the job ("texts you
 * every Friday"): `norm` itself when it holds none.
 */
export function withoutRoutine(text: string, norm: string): string {
  const routine = clausesOf(text).filter((c) => RECURRING.test(normalizeText(c)));
  return routine.length
    ? normalizeText(
        clausesOf(text)
          .filter((c) => !RECURRING.test(normalizeText(c)))
          .join('. '),
      )
    : norm;
}

/** The rep only promises to call, text or email on a day ("I'll call you Thursday"): no visit put to anyone. */
export const promisesToCallOnDay = (norm: string): boolean =>
  /\b(i ll|ill|i will) (call|text|email|send)( you)?( on| around| at| by)? (monday|tuesday|wednesday|thursday|friday|saturday|sunday|tomorrow|tonight)\b/.test(
    norm,
  );

/**
 * The first names of the people a call mentions who are living ("my daughter Anjali"): a later
 * line that names one of them names a person even where the names list does not know the name.
 */
export function livingNames(lines: readonly { text: string; speaker: 'rep' | 'homeowner' }[]): string[] {
  const people = lines.flatMap((l) => findPeople(l.text, { speaker: l.speaker }));
  const dead = new Set(people.filter((p) => p.status === 'deceased').flatMap((p) => p.name ?? []));
  return [...new Set(people.flatMap((p) => p.name ?? []))].filter((n) => !dead.has(n));
}

/**
 * Whether a line names someone living besides the speaker ("Marcus on speaker", "my project
 * manager", or a name the call gave earlier): a step that names a person may well say who will be
 * there, so its absence is not claimed, even where the reading of who attends is unsure.
 */
export function namesSomeoneLiving(text: string, known: readonly string[] = []): boolean {
  if (findPeople(text, { speaker: 'rep' }).some((p) => p.status !== 'deceased')) return true;
  const words = new Set(normalizeText(text).split(' '));
  return known.some((n) => words.has(normalizeText(n)));
}
