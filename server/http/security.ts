import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import type { Config } from '../env';
import type { LimitStore, WindowCount } from '../limits/store';

// Origins the page talks to only when the matching service is configured.
const VAPI_ORIGINS = {
  script: ['https://c.daily.co', 'https://*.daily.co'],
  connect: [
    'https://api.vapi.ai',
    'wss://*.vapi.ai',
    'https://*.daily.co',
    'wss://*.daily.co',
    'https://*.wss.daily.co',
    'wss://*.wss.daily.co',
  ],
  media: ['https://*.daily.co'],
  frame: [] as string[],
  img: [] as string[],
};
const HUBSPOT_ORIGINS = {
  script: [
    'https://js.hsforms.net',
    'https://*.hsforms.net',
    'https://*.hsforms.com',
    'https://*.hubspot.com',
    'https://*.hs-scripts.com',
  ],
  connect: ['https://*.hsforms.com', 'https://*.hubspot.com', 'https://*.hsforms.net'],
  media: [] as string[],
  frame: ['https://*.hsforms.net', 'https://*.hsforms.com', 'https://*.hubspot.com'],
  img: ['https://*.hsforms.com', 'https://*.hsforms.net', 'https://*.hubspot.com'],
};

export function vapiEnabled(config: Config): boolean {
  return config.VOICE_PROVIDER === 'vapi' && Boolean(config.VAPI_PUBLIC_KEY);
}

export function hubspotEnabled(config: Config): boolean {
  return Boolean(config.HUBSPOT_PORTAL_ID && config.HUBSPOT_FORM_ID);
}

/** The Content-Security-Policy: our own origin, plus Vapi and HubSpot only when configured. */
export function cspDirectives(config: Config): Record<string, string[]> {
  const extra = [
    vapiEnabled(config) ? VAPI_ORIGINS : null,
    hubspotEnabled(config) ? HUBSPOT_ORIGINS : null,
  ].filter((x) => x !== null);
  const pick = (key: keyof typeof VAPI_ORIGINS) => extra.flatMap((o) => o[key]);
  return {
    'default-src': ["'self'"],
    'script-src': ["'self'", ...pick('script')],
    // The dialog and form libraries inject <style> elements at run time.
    'style-src': ["'self'", "'unsafe-inline'"],
    'img-src': ["'self'", 'data:', 'blob:', ...pick('img')],
    'font-src': ["'self'", 'data:'],
    'connect-src': ["'self'", ...pick('connect')],
    'media-src': ["'self'", 'blob:', ...pick('media')],
    // Audio worklets and recorders may run from blob URLs.
    'worker-src': ["'self'", 'blob:'],
    'frame-src': extra.length ? pick('frame') : ["'none'"],
    'object-src': ["'none'"],
    'base-uri': ["'self'"],
    'form-action': ["'self'"],
    'frame-ancestors': ["'self'"],
  };
}

/**
 * Fastify's trustProxy for TRUST_PROXY. A hop count becomes "the first n addresses counted from
 * the socket are proxies" (Fastify itself refuses numbers); an address list is passed through.
 */
export function trustProxyOption(
  trust: Config['TRUST_PROXY'],
): false | string | ((address: string, hop: number) => boolean) {
  if (typeof trust === 'number') return (_address, hop) => hop < trust;
  return trust;
}

type Counted = (err: Error | null, result?: { current: number; ttl: number }) => void;
/** What the plugin passes a store (its typings say otherwise: a route's merged limit settings). */
interface StoreOptions {
  continueExceeding?: boolean;
  exponentialBackoff?: boolean;
  routeInfo?: { method?: string | string[]; url?: string };
}

/**
 * A store for @fastify/rate-limit whose counts are a limit store's fixed windows (`hit`), so
 * every process sharing that store shares each route's allowance. Like the plugin's own stores,
 * each route counts apart (its method and URL prefix the key).
 */
export function sharedRateLimitStore(hit: (key: string, windowMs: number) => Promise<WindowCount>) {
  return class SharedRateLimitStore {
    constructor(
      options: object,
      private readonly prefix = '',
    ) {
      const { continueExceeding, exponentialBackoff } = options as StoreOptions;
      // Neither is used here; refused rather than silently ignored.
      if (continueExceeding || exponentialBackoff) {
        throw new Error('the shared rate-limit store counts fixed windows only');
      }
    }

    // The plugin passes the route's window (its typings leave it out).
    incr(key: string, done: Counted, timeWindow?: number): void {
      if (!timeWindow) return done(new Error('the rate-limit plugin gave no time window'));
      void hit(this.prefix + key, timeWindow).then(
        (r) => done(null, { current: r.count, ttl: r.resetInMs }),
        (err: Error) => done(err),
      );
    }

    child(options: object): SharedRateLimitStore {
      const route = (options as StoreOptions).routeInfo ?? {};
      return new SharedRateLimitStore(options, `rate:${String(route.method ?? '')} ${route.url ?? ''}:`);
    }
  };
}

/**
 * Security headers and the rate-limit plugin. Must be registered before any route: each route
 * names its own limit where it is registered (server/http/route.ts), and the plugin applies it.
 * Its counts go to `limits` when that store is shared between processes (`hit`), otherwise to
 * this process's memory.
 */
export async function registerSecurity(
  app: FastifyInstance,
  config: Config,
  limits?: LimitStore,
): Promise<void> {
  const hit = limits?.hit?.bind(limits);
  await app.register(fastifyRateLimit, {
    global: false,
    ...(hit ? { store: sharedRateLimitStore(hit) } : {}),
  });

  // Helmet's headers depend only on the configuration, so they are worked out once here and
  // copied onto every reply, instead of building the helmet middleware again on every request.
  const headers = securityHeaders({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: cspDirectives(config),
    },
    // Vapi's audio runs through cross-origin media; isolation headers would block it.
    crossOriginEmbedderPolicy: false,
    // The app may be served over plain HTTP on a private network.
    hsts: config.PUBLIC_URL?.startsWith('https://') ? { maxAge: 15552000 } : false,
  });
  app.addHook('onRequest', (_request, reply, done) => {
    reply.headers(headers);
    done();
  });
}

/**
 * The response headers helmet sets with these options (lower-case names). Every directive is
 * a fixed string, so the headers are the same for every request.
 */
export function securityHeaders(options: HelmetOptions): Record<string, string> {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader(name: string, value: string | number | readonly string[]) {
      headers[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : String(value);
    },
    removeHeader(name: string) {
      delete headers[name.toLowerCase()];
    },
  };
  let failure: unknown;
  helmet(options)({} as IncomingMessage, recorder as unknown as ServerResponse, (err?: unknown) => {
    failure = err;
  });
  if (failure) throw failure;
  return headers;
}
