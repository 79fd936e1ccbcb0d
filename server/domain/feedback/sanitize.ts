import { NAME_MAX } from '../../../core/schemas';

/**
 * Control characters (CR/LF enable header injection), Unicode line separators and bidi
 * overrides (which can disguise text in a mail client) never belong in a person's name.
 */
// eslint-disable-next-line no-control-regex
const UNSAFE_CHARS = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff]/g;

/**
 * The name as stored and shown: markup removed rather than escaped, so the stored row is
 * harmless wherever it is later read (the page, the email, an export), and one line long.
 */
export function cleanName(raw: string): string {
  return raw
    .normalize('NFC')
    .replace(/<[^>]*>?/g, ' ')
    .replace(/[<>]/g, '')
    .replace(UNSAFE_CHARS, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, NAME_MAX)
    .trim();
}

/** Emails are already validated by the schema (no spaces or brackets); this only normalises case of the domain. */
export function cleanEmail(raw: string): string {
  const email = raw.trim();
  const at = email.lastIndexOf('@');
  return at < 0 ? email : email.slice(0, at) + '@' + email.slice(at + 1).toLowerCase();
}
