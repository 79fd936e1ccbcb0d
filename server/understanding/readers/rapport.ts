import { looseContractions as loose } from '../text/normalise';
import { COUNTING_WORDS } from '../entities/numbers';

/**
 * Rapport as read from the lines of a call: a homeowner sharing a worry or being cut off, the
 * rep playing their words back, a feeling named of the homeowner, their good news shared, a claim
 * to understand overridden in the same breath, and the homeowner pointing out they were not
 * heard. The coach scores Empathy and Connection with these.
 */

/** The homeowner shares a worry or a pressure: nervous, burned before, not sure, in a hurry, how do I know. */
export const SHARES_CONCERN = loose(
  /\b(nervous|worried|worry|scared|afraid|concerned|hate (it|that|when)|frustrat\w*|ripped off|burned|burnt|overpay|not (handing|signing|deciding)|not sure (about|if|whether|we|i|it s worth|its worth|this|that (we|i))|dont want|never saw (him|them)|took a deposit|gotta go|got to go|not a (great|good) time|bad time|busy|in a hurry|how do i know|isnt even here|is not even here|not even here)\b/,
);

/** A line cut off mid-sentence (a dash or an ellipsis at its end). */
export const CUT_OFF_MID_SENTENCE = loose(/[—–]\s*$|-{2,}\s*$|\.\.\.\s*$/);

/** Opens as a reflection: "so", "sounds like", "so what I'm hearing", "so you're". */
export const REFLECTS_BACK = loose(
  /^((oh|okay|ok|right|yeah|ugh|oof|wow|so|and) )*(so|sounds like|so it sounds like|so this is|so what i m hearing|so what im hearing|so you re|so youre|so it s|so its|so the)\b/,
);

const NUMBER_WORD = new RegExp(
  `^(\\d.*|${Object.keys(COUNTING_WORDS)
    .filter((w) => COUNTING_WORDS[w] <= 12)
    .join('|')}|\\w+teen|${Object.keys(COUNTING_WORDS)
    .filter((w) => COUNTING_WORDS[w] >= 20)
    .join('|')}|hundred|thousand)(-\\w+)?$`,
);

/** A feeling named of the homeowner themselves: "sounds like you're slammed", "sorry you went through that". */
export const FEELING_OF_THEM = loose(
  /\b(sounds like|you must|you re|youre|you ve|youve|you were|sorry (you|that happened|about your|for your|to hear))\b/,
);

/**
 * Shares the homeowner's good news: "congratulations", "good for her", "you must be so proud",
 * "how exciting". Meeting a happy feeling is meeting a feeling.
 */
export const SHARES_GOOD_NEWS = loose(
  /\bcongrat\w*|(^|\b(that s|thats|oh|wow|well|awesome|great|amazing|nice|fantastic|brilliant) )good for (him|her|them|you|the (kids?|team|family))\b|\byou must be (so |really |very )?proud\b|\b(how|that s|thats|that is|so) (so |really )?exciting\b|\b(what|that s|thats|such) (great|wonderful|fantastic|amazing|happy|good) news\b/,
);

/** "I completely understand how you feel. But doing them all at once is the smart way." */
export const CLAIMS_THEN_OVERRIDES = loose(
  /\bi (totally |completely |really |fully )?(understand|get it|get that|hear you|know how you feel)\b.{0,40}\bbut\b/,
);

/** "I get it, but what would make it work for you?" asks; it does not override. */
export const asksAfterBut = (norm: string) =>
  /\bbut\b.{0,20}\b(what|how|can i|could i|would you|is it|is that|do you)\b/.test(norm);

/**
 * The homeowner points out that the rep was not listening: "I just said that", "I already told
 * you", "like I said", "you asked me that already", "weren't you listening?". Whatever warmth the
 * rep shows elsewhere, having to repeat herself tells her she was not heard.
 */
export const NOT_HEARD = loose(
  /\b(i|we) (just|already) (said|told you|told you that|said that|answered that|went over that|mentioned (that|it))\b|\b(i|we) told you (that )?(already|before|earlier|a minute ago|twice)\b|^((um|uh|well|yeah|yes|no|okay|ok) )*(like|as) (i|we) (said|told you|just said|already said)\b|\byou (just|already) asked (me )?(that|this)\b|\byou asked (me )?(that|this) already\b|\b(were|are) you (even )?listening\b|\bweren t you listening\b|\bwerent you listening\b/,
);

/** A word that is a number (digits or a number word, "twenty-five" too). */
export const isNumberWord = (word: string): boolean => NUMBER_WORD.test(word);
