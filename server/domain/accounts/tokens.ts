import { createHash, randomBytes } from 'node:crypto';

/** 32 random bytes as base64url (43 characters): a sign-in link's token, a cookie's id. */
export function randomToken(): string {
  return randomBytes(32).toString('base64url');
}

/**
 * What is stored in place of a token or cookie id: its SHA-256 (hex). The secrets are 256 random
 * bits, so a plain hash is enough (no salt or slow hash is needed against guessing).
 */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/** An email address as an account knows it: trimmed and lower-cased. */
export function accountEmail(email: string): string {
  return email.trim().toLowerCase();
}
