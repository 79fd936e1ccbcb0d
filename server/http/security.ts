import type { IncomingMessage, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import helmet, { type HelmetOptions } from 'helmet';
import fastifyRateLimit from '@fastify/rate-limit';
import type { Config } from '../env';

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

/**
 * Security headers and the rate-limit plugin. Must be registered before any route: each route
 * names its own limit where it is registered (server/http/route.ts), and the plugin applies it.
 */
export async function registerSecurity(app: FastifyInstance, config: Config): Promise<void> {
  await app.register(fastifyRateLimit, { global: false });

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
