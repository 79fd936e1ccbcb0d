/**
 * How a reply opens: with a no (or a noncommittal hum). Read on normalized text.
 */

/** Opens with "no". */
export const opensWithNo = (norm: string): boolean => /^no\b/.test(norm);

/** Opens with "no" or a noncommittal "mm", "mhm", "mm hm". */
export const opensWithNoOrHum = (norm: string): boolean => /^(no|mm|mhm|mm hm)\b/.test(norm);
