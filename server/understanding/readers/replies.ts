import { looseContractions as loose } from '../text/normalise';
import { saysWord } from '../text/marks';
import { weekdaysOrTonightNamed } from './next-step';

/**
 * A reply to what the rep put forward, read on normalized text: opening with a no (or a
 * noncommittal hum), a grudging assent, a can't or a busy, and the rep's day named back.
 */

/** Opens with "no". */
export const opensWithNo = (norm: string): boolean => /^no\b/.test(norm);

/** Opens with "no" or a noncommittal "mm", "mhm", "mm hm". */
export const opensWithNoOrHum = (norm: string): boolean => /^(no|mm|mhm|mm hm)\b/.test(norm);

/** Assent without will: "I suppose", "I guess so", "if you want", "whatever you think", "fine, I guess". */
export const ASSENTS_RELUCTANTLY = loose(
  /^((um|uh|oh|well|okay|ok|fine|sure|yeah|mm|hm) )*(i suppose|i guess|suppose so|guess so|if you want|if you like|if you have to|if you must|whatever (you (think|want|like))?|i mean (sure|okay|ok|fine))\b/,
);

/** Says it cannot or will not, or that they are busy, working or away. */
export const negatesOrIsBusy = (norm: string): boolean =>
  /\b(can t|cant|won t|wont|doesn t|doesnt|don t|dont|not|busy|working|away)\b/.test(norm);

/** The reply names a weekday, "tomorrow" or "tonight" that the rep's line names too ("Thursday at six-thirty, yeah"). */
export const repliesWithRepsDay = (replyNorm: string, repNorm: string): boolean =>
  weekdaysOrTonightNamed(replyNorm).some((d) => saysWord(repNorm, d));
