import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { SIGN_IN_TOKEN_PATTERN, signInRequestSchema, signInVerifySchema } from '../../core/accounts';
import {
  claimable,
  claimDevice,
  progressFor,
  recordPracticeOwner,
  requestSignInLink,
  signedInAs,
  signInWithLink,
  signOut,
  signOutEverywhere,
  type SignedIn,
} from '../domain/accounts/service';
import { randomToken } from '../domain/accounts/tokens';
import { HttpError } from '../errors';
import { originAllowed } from '../voice/routes';
import { route } from './route';

/** The browser's sign-in: a random id whose SHA-256 is stored server-side (account_sessions). */
export const SIGN_IN_COOKIE = 'doorstep_signin';
/** The browser's own random id: what a claim of pre-sign-in practice is checked against. */
export const DEVICE_COOKIE = 'doorstep_device';
/** About 400 days, the longest a browser keeps a cookie. */
const DEVICE_MAX_AGE_SEC = 400 * 86_400;

/** A cookie's value from the request, only when it has the shape we issue (43 base64url characters). */
export function readCookie(request: FastifyRequest, name: string): string | null {
  const header = request.headers.cookie;
  if (typeof header !== 'string') return null;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0 || part.slice(0, eq).trim() !== name) continue;
    const value = part.slice(eq + 1).trim();
    if (SIGN_IN_TOKEN_PATTERN.test(value)) return value;
  }
  return null;
}

/** HttpOnly, SameSite=Lax, only under /api, Secure in production. */
export function cookieHeader(ctx: AppContext, name: string, value: string, maxAgeSec: number): string {
  const secure = ctx.config.NODE_ENV === 'production' ? '; Secure' : '';
  return `${name}=${value}; Path=/api; Max-Age=${maxAgeSec}; HttpOnly; SameSite=Lax${secure}`;
}

function addCookie(reply: FastifyReply, cookie: string): void {
  const existing = reply.getHeader('set-cookie');
  const list =
    existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  reply.header('set-cookie', [...list, cookie]);
}

/** This browser's device id, issuing one (as a cookie on the reply) when it has none yet. */
function deviceIdFor(ctx: AppContext, request: FastifyRequest, reply: FastifyReply): string {
  const existing = readCookie(request, DEVICE_COOKIE);
  if (existing) return existing;
  const id = randomToken();
  addCookie(reply, cookieHeader(ctx, DEVICE_COOKIE, id, DEVICE_MAX_AGE_SEC));
  return id;
}

/**
 * Marks a role-play or recording just made with this browser's device id and, when it is
 * signed in, its account. Never fails the request: practice works the same without an account.
 */
export async function recordOwner(
  ctx: AppContext,
  request: FastifyRequest,
  reply: FastifyReply,
  kind: 'roleplay' | 'audio',
  id: string,
): Promise<void> {
  try {
    const deviceId = deviceIdFor(ctx, request, reply);
    await recordPracticeOwner(ctx, kind, id, deviceId, readCookie(request, SIGN_IN_COOKIE));
  } catch (err) {
    ctx.log.warn({ err }, 'could not record who made a practice session');
  }
}

export const signedOut = () => new HttpError(401, 'signed_out', 'Please sign in to see this.');

/** Only this site's own pages may change a sign-in (the cookie is SameSite=Lax as well). */
export function checkOrigin(ctx: AppContext, request: FastifyRequest): void {
  if (!originAllowed(request.headers.origin, request.headers.host, ctx.config)) {
    throw new HttpError(403, 'forbidden_origin', 'This can only be done from this site’s own pages.');
  }
}

/** The account this browser is signed in to, or a 401. */
export async function requireAccount(ctx: AppContext, request: FastifyRequest): Promise<SignedIn> {
  const account = await signedInAs(ctx, readCookie(request, SIGN_IN_COOKIE));
  if (!account) throw signedOut();
  return account;
}

function requestOrigin(request: FastifyRequest): string | null {
  const host = request.headers.host;
  if (!host || !/^[A-Za-z0-9.:[\]-]+$/.test(host)) return null;
  return `${request.protocol}://${host}`;
}

/**
 * Optional sign-in by emailed link, and what a signed-in rep sees: every route answers for the
 * browser's own sign-in only (no route takes an account, email or session id), 401 when signed
 * out, and `Cache-Control: no-store`.
 */
export async function registerAccountRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const config = ctx.config;

  const requireSignedIn = (request: FastifyRequest) => requireAccount(ctx, request);

  route(app, config, {
    method: 'GET',
    url: '/api/account',
    limit: 'account',
    handler: async ({ request, reply }) => {
      reply.header('cache-control', 'no-store');
      const account = await signedInAs(ctx, readCookie(request, SIGN_IN_COOKIE));
      return { account: account ? { email: account.email } : null };
    },
  });

  route(app, config, {
    method: 'POST',
    url: '/api/account/sign-in-link',
    limit: 'signIn',
    body: { schema: signInRequestSchema, example: '{"email": "…"}' },
    handler: async ({ body, request, reply }) => {
      checkOrigin(ctx, request);
      await requestSignInLink(ctx, { email: body.email, client: request.ip, origin: requestOrigin(request) });
      return reply.status(202).send({ sent: true });
    },
  });

  route(app, config, {
    method: 'POST',
    url: '/api/account/sign-in',
    limit: 'signIn',
    body: { schema: signInVerifySchema, example: '{"token": "…"}' },
    handler: async ({ body, request, reply }) => {
      checkOrigin(ctx, request);
      const signedIn = await signInWithLink(ctx, body.token);
      addCookie(reply, cookieHeader(ctx, SIGN_IN_COOKIE, signedIn.cookieId, signedIn.maxAgeSec));
      reply.header('cache-control', 'no-store');
      return { account: { email: signedIn.email } };
    },
  });

  route(app, config, {
    method: 'POST',
    url: '/api/account/sign-out',
    limit: 'account',
    handler: async ({ request, reply }) => {
      checkOrigin(ctx, request);
      const cookieId = readCookie(request, SIGN_IN_COOKIE);
      if (cookieId) await signOut(ctx, cookieId);
      addCookie(reply, cookieHeader(ctx, SIGN_IN_COOKIE, '', 0));
      return reply.status(204).send();
    },
  });

  route(app, config, {
    method: 'POST',
    url: '/api/account/sign-out-everywhere',
    limit: 'account',
    handler: async ({ request, reply }) => {
      checkOrigin(ctx, request);
      const account = await requireSignedIn(request);
      const devices = await signOutEverywhere(ctx, account);
      addCookie(reply, cookieHeader(ctx, SIGN_IN_COOKIE, '', 0));
      return { signedOut: devices };
    },
  });

  route(app, config, {
    method: 'GET',
    url: '/api/account/claimable',
    limit: 'account',
    handler: async ({ request, reply }) => {
      await requireSignedIn(request);
      reply.header('cache-control', 'no-store');
      return claimable(ctx, readCookie(request, DEVICE_COOKIE));
    },
  });

  route(app, config, {
    method: 'POST',
    url: '/api/account/claim',
    limit: 'account',
    handler: async ({ request, reply }) => {
      checkOrigin(ctx, request);
      const account = await requireSignedIn(request);
      reply.header('cache-control', 'no-store');
      return claimDevice(ctx, account, readCookie(request, DEVICE_COOKIE));
    },
  });

  route(app, config, {
    method: 'GET',
    url: '/api/account/progress',
    limit: 'account',
    handler: async ({ request, reply }) => {
      const account = await requireSignedIn(request);
      reply.header('cache-control', 'no-store');
      return progressFor(ctx, account);
    },
  });
}
