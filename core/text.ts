import { z } from 'zod';

/**
 * Characters no stored text may hold: NUL (PostgreSQL text and jsonb refuse it) and UTF-16
 * surrogates without their pair (not valid Unicode, so they cannot be stored or encoded).
 */
// eslint-disable-next-line no-control-regex -- NUL is exactly what this looks for
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export const UNSTORABLE_TEXT_MESSAGE =
  'contains a character that cannot be stored (a NUL character or a broken Unicode sequence)';

export function isStorableText(value: string): boolean {
  return !UNSTORABLE.test(value);
}

/**
 * A string field of a request body: the one refinement every JSON string that is stored goes
 * through, so a NUL or a lone surrogate is a 400 naming the field instead of a database error.
 */
export function storableText() {
  return z.string().refine(isStorableText, UNSTORABLE_TEXT_MESSAGE);
}
