import { SECTION_KEYS, SECTION_TITLES, GATED_SECTIONS, type SectionKey } from '../../../core/coaching-format';
import { storedDocument } from '../../../core/coaching-document';
import { isConversationMetrics } from '../../../core/conversation-metrics';
import {
  PROGRESS_MAX_ITEMS,
  SIGN_IN_LINK_MINUTES,
  type Claimable,
  type ProgressItem,
  type ProgressView,
} from '../../../core/accounts';
import type { AppContext } from '../../context';
import { HttpError } from '../../errors';
import { renderSignInEmail } from '../../email/sign-in-link';
import { countClaimable, findSignedIn, listOwnedPractice, type OwnedPractice, type SignedIn } from './data';
import {
  claimDevicePractice,
  consumeSignInLink,
  deleteAccountSession,
  deleteAccountSessions,
  insertAccountSession,
  insertSignInLink,
  markPractice,
  upsertAccount,
} from './mutations';
import { accountEmail, hashSecret, randomToken } from './tokens';
import { LINK_INVALID_MESSAGE } from '../../../core/accounts';

export type { SignedIn } from './data';

const ADDRESS_WINDOW_MS = SIGN_IN_LINK_MINUTES * 60_000;
const CLIENT_WINDOW_MS = 3600_000;

/**
 * Where sign-in links point: PUBLIC_URL, or outside production the address the request came
 * to. In production a link never takes its host from the request (a forged Host header would
 * send the victim's token to another site), so sign-in needs PUBLIC_URL there.
 */
export function signInLinkBase(ctx: Pick<AppContext, 'config'>, requestOrigin: string | null): string | null {
  const base = ctx.config.PUBLIC_URL ?? (ctx.config.NODE_ENV === 'production' ? null : requestOrigin);
  if (!base) return null;
  return base.endsWith('/') ? base : `${base}/`;
}

/**
 * Whether links can reach an inbox: through SMTP, or (outside production) the database outbox,
 * which only development shows. Without either, sign-in is off rather than storing live links
 * where nobody will read them.
 */
export function signInAvailable(ctx: Pick<AppContext, 'config'>): boolean {
  return Boolean(ctx.config.SMTP_URL) || ctx.config.NODE_ENV !== 'production';
}

const notAvailable = () =>
  new HttpError(
    503,
    'sign_in_unavailable',
    'Signing in is not available on this site yet. Practice works without it.',
  );

function tooMany(message: string, resetInMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
  return new HttpError(429, 'rate_limited', message, { 'retry-after': String(seconds) });
}

/**
 * Emails a sign-in link. Only the token's hash is stored; the token itself exists in the email
 * alone. At most SIGN_IN_LINKS_PER_ADDRESS links to one address in 15 minutes and
 * SIGN_IN_LINKS_PER_CLIENT requests from one client address in an hour, counted in the shared
 * limit store (every web process on PostgreSQL). The answer is the same whether or not the
 * address has an account.
 */
export async function requestSignInLink(
  ctx: AppContext,
  input: { email: string; client: string; origin: string | null },
): Promise<void> {
  const base = signInLinkBase(ctx, input.origin);
  if (!signInAvailable(ctx) || !base) throw notAvailable();
  const email = accountEmail(input.email);
  const perAddress = ctx.config.SIGN_IN_LINKS_PER_ADDRESS;
  const perClient = ctx.config.SIGN_IN_LINKS_PER_CLIENT;
  const addressKey = `sign-in-address:${hashSecret(email)}`;
  const clientKey = `sign-in-client:${input.client}`;
  // Every request counts against the client (refused ones too: probing many addresses costs);
  // only links actually sent count against the address.
  if (perClient > 0) {
    const used = await ctx.limits.add(clientKey, CLIENT_WINDOW_MS);
    if (used.count > perClient) {
      throw tooMany('Too many sign-in links asked for from here. Please try again later.', used.resetInMs);
    }
  }
  if (perAddress > 0) {
    const sent = await ctx.limits.count(addressKey, ADDRESS_WINDOW_MS);
    if (sent.count >= perAddress) {
      throw tooMany(
        `We've already sent ${perAddress} sign-in links to that address. Use the newest one, or try again in ${Math.max(1, Math.ceil(sent.resetInMs / 60_000))} minutes.`,
        sent.resetInMs,
      );
    }
  }
  if (perAddress > 0) await ctx.limits.add(addressKey, ADDRESS_WINDOW_MS);

  const token = randomToken();
  await insertSignInLink(ctx.database.db, {
    tokenHash: hashSecret(token),
    email,
    expiresAt: new Date(Date.now() + ADDRESS_WINDOW_MS),
  });
  // The token goes in the fragment: browsers never send it to the server with the page request,
  // so it stays out of access logs and proxies; the sign-in page posts it once the rep confirms.
  const message = renderSignInEmail(`${base}sign-in#token=${token}`);
  try {
    await ctx.providers.get('mailer').send({ to: email, from: ctx.config.SMTP_FROM, ...message });
  } catch (err) {
    ctx.log.warn({ err }, 'could not send a sign-in link');
    throw new HttpError(
      503,
      'email_unavailable',
      "We couldn't send the email just now. Please try again in a few minutes.",
      { 'retry-after': '60' },
    );
  }
}

/**
 * Signs a browser in with a link's token: the link is used up in the same statement, the
 * account is made on first use, and the new sign-in is stored by the hash of the cookie id that
 * is returned (the only copy of the id is the browser's cookie).
 */
export async function signInWithLink(
  ctx: AppContext,
  token: string,
): Promise<{ cookieId: string; email: string; maxAgeSec: number }> {
  const db = ctx.database.db;
  const email = await consumeSignInLink(db, hashSecret(token));
  if (!email) throw new HttpError(400, 'link_invalid', LINK_INVALID_MESSAGE);
  const account = await upsertAccount(db, email);
  const cookieId = randomToken();
  const maxAgeSec = ctx.config.SIGN_IN_DAYS * 86_400;
  await insertAccountSession(db, {
    idHash: hashSecret(cookieId),
    accountId: account.id,
    expiresAt: new Date(Date.now() + maxAgeSec * 1000),
  });
  return { cookieId, email: account.email, maxAgeSec };
}

/** The account a sign-in cookie belongs to, or null (no cookie, unknown, expired or signed out). */
export async function signedInAs(ctx: AppContext, cookieId: string | null): Promise<SignedIn | null> {
  if (!cookieId) return null;
  return findSignedIn(ctx.database.db, hashSecret(cookieId));
}

export async function signOut(ctx: AppContext, cookieId: string): Promise<void> {
  await deleteAccountSession(ctx.database.db, hashSecret(cookieId));
}

export async function signOutEverywhere(ctx: AppContext, account: SignedIn): Promise<number> {
  return deleteAccountSessions(ctx.database.db, account.accountId);
}

/** Records the device (by its cookie's hash) and the signed-in account on a new role-play or recording. */
export async function recordPracticeOwner(
  ctx: AppContext,
  kind: 'roleplay' | 'audio',
  id: string,
  deviceId: string,
  signInCookieId: string | null,
): Promise<void> {
  await markPractice(
    ctx.database.db,
    kind,
    id,
    hashSecret(deviceId),
    signInCookieId ? hashSecret(signInCookieId) : null,
  );
}

export async function claimable(ctx: AppContext, deviceId: string | null): Promise<Claimable> {
  if (!deviceId) return { roleplays: 0, recordings: 0 };
  return countClaimable(ctx.database.db, hashSecret(deviceId));
}

/** Takes this device's unclaimed practice into the account (nothing else can be named). */
export async function claimDevice(
  ctx: AppContext,
  account: SignedIn,
  deviceId: string | null,
): Promise<Claimable> {
  if (!deviceId) return { roleplays: 0, recordings: 0 };
  return claimDevicePractice(ctx.database.db, account.accountId, hashSecret(deviceId));
}

/** One call's scores and key numbers; gated sections stay unscored until that call is unlocked. */
export function progressItem(row: OwnedPractice): ProgressItem {
  const doc = storedDocument(row.coaching);
  const scores: ProgressItem['scores'] = {};
  for (const key of SECTION_KEYS) {
    const section = doc?.sections.find((s) => s.key === key);
    const locked = !row.unlocked && GATED_SECTIONS.includes(key);
    scores[key] = section && !locked ? section.score : null;
  }
  const known = SECTION_KEYS.map((k) => scores[k]).filter((v): v is number => typeof v === 'number');
  const metrics = isConversationMetrics(row.metrics) ? row.metrics : null;
  return {
    kind: row.kind,
    id: row.id,
    stage: row.stage,
    at: row.at.toISOString(),
    fileName: row.fileName,
    coached: doc !== null,
    scores,
    overall:
      known.length === SECTION_KEYS.length
        ? Math.round((known.reduce((a, b) => a + b, 0) / known.length) * 10) / 10
        : null,
    talkRatio: metrics ? metrics.talkRatioWordsPercent : null,
    questions: metrics ? metrics.questions.total : null,
    longestMonologueWords: metrics ? metrics.longestMonologueWords : null,
  };
}

/** The section with the lowest average score over the calls that scored it. */
export function weakestSection(items: ProgressItem[]): ProgressView['weakest'] {
  let weakest: ProgressView['weakest'] = null;
  for (const key of SECTION_KEYS as readonly SectionKey[]) {
    const values = items.map((i) => i.scores[key]).filter((v): v is number => typeof v === 'number');
    if (!values.length) continue;
    const average = Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10;
    if (!weakest || average < weakest.average) {
      weakest = { key, title: SECTION_TITLES[key], average, calls: values.length };
    }
  }
  return weakest;
}

/** Everything the signed-in rep practised or uploaded, on any device, newest first. */
export async function progressFor(ctx: AppContext, account: SignedIn): Promise<ProgressView> {
  const rows = await listOwnedPractice(ctx.database.db, account.accountId, PROGRESS_MAX_ITEMS + 1);
  const truncated = rows.length > PROGRESS_MAX_ITEMS;
  const items = rows.slice(0, PROGRESS_MAX_ITEMS).map(progressItem);
  return { email: account.email, items, weakest: weakestSection(items), truncated };
}
