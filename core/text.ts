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

/**
 * Control characters (C0, DEL, C1) and invisible formatting characters: bidirectional overrides
 * and isolates (U+202A-202E, U+2066-2069) that make "evil\u202Eavm.exe" read as "evilexe.mva",
 * zero-width characters, and lone surrogates. Never part of what a person typed or said.
 */
export const CONTROL_OR_INVISIBLE =
  // eslint-disable-next-line no-control-regex -- control characters are what this finds
  /[\u0000-\u001f\u007f-\u009f\u00ad\u061c\u115f\u1160\u180e\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff\ufff9-\ufffb]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

/**
 * Words as shown and stored: line breaks and tabs become spaces, every other control or
 * invisible formatting character (a bell, an escape sequence's ESC, a right-to-left override)
 * is removed.
 */
export function plainText(text: string): string {
  return text.replace(/[\t\n\r\u2028\u2029]/g, ' ').replace(CONTROL_OR_INVISIBLE, '');
}
