import { looseContractions as loose, normalizeText, splitSentences } from '../text/normalise';

/**
 * The rep's selling talk, read from one line: arranging things (a day, a number, going ahead)
 * rather than asking about needs, the first laying out of choices, a seller's own words about
 * their company, and a price put forward as their own. The coach reads who sells, where
 * discovery ends and which questions are logistics with these.
 */

/**
 * A question about arrangements, not needs: a day or part of the day put to them, which one is
 * better, the best number or email, getting on the schedule, going ahead, whether it works or helps.
 */
export const LOGISTICS = loose(
  /\b(would|does|is|how about|what about) (\w+ )?(tuesday|monday|wednesday|thursday|friday|saturday|sunday|tomorrow|morning|evening|afternoon)|\bwhich (one s|ones|one is) better\b|\b(best|good) (number|email|time to reach)\b|\bget (it|you) on (the|our) schedule\b|\bgo ahead\b|\bdoes that (work|sound)\b|\bfeel better about\b|\bdoes that (explain|make sense|help)\b/,
);

/** The rep starts laying out choices: "option one", "three ways", "the simplest", a special, a package. */
export const OPTIONS_START = loose(
  /\b(option (one|1|a)|(three|two|a few|four) (ways|options|routes|choices|packages|levels|kinds|types|approaches)|one of (two|three) ways|here s what i d|heres what id|the simplest|if budget s|if budgets|we have (a|two|three)|special (price|pricing|offer|deal|promo\w*|rate|financing|package)|(our|this month s|the) special\b(?! (time|day|occasion|moment))|package|series|our (flagship|best))\b/,
);

/** A seller's own words: our company, crew or warranty, "I'm with", getting it on the schedule, going ahead. */
export const SELLING = loose(
  /\b(our (company|installs|warranty|crew|team|product|prices?)|we (install|offer|do about|have a special)|i m with|im with|with [a-z]+ (roofing|windows?|heating|exteriors|flooring|builders|construction|home)|get (it|you) on (the|our) schedule|(would|do) you (like|want) to (go ahead|get started))\b/,
);

/** The rep puts a price forward as their own: "we can do it for", "I'd charge", "it'll run you". */
export const OWN_OFFER = loose(
  /\b(i|we) (can|could|would|d|ll|will) (do|charge|get|offer|install|put|have)\b|\b(it|that|this) (ll|will|would|d) (run|be|cost|come to)\b|\bfor (you|the whole|all)\b|\b(our|my) (price|number|quote)\b/,
);

/** The words just around a figure (eight before, four after), in its own sentence, normalized. */
export function wordsAroundFigure(text: string, piece: string): string {
  const sentence = normalizeText(splitSentences(text).find((s) => s.toLowerCase().includes(piece)) ?? text);
  const p = normalizeText(piece);
  const at = sentence.indexOf(p);
  if (at < 0) return sentence;
  const before = sentence.slice(0, at).trim().split(' ').slice(-8).join(' ');
  const after = sentence
    .slice(at + p.length)
    .trim()
    .split(' ')
    .slice(0, 4)
    .join(' ');
  return `${before} ${p} ${after}`;
}
