import fs from 'node:fs';
import type { Socket } from 'node:net';
import { PassThrough } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../env';
import { HttpError } from '../errors';
import type { LimitStore } from '../limits/store';

/**
 * What one client's connections may hold (SECURITY.md, "Connections"): a cap on open
 * connections for the process and per client address, a short deadline for JSON bodies (uploads
 * keep the server's five minutes), and no waiting for the rest of a body the server will not
 * read: any answer given before the request's body has fully arrived closes the connection.
 */

/** How often Node checks requests against the headers and request deadlines. */
export const CONNECTION_CHECK_INTERVAL_MS = 1000;

/** The soft open-file limit of this process (Linux), or null where it cannot be read. */
export function openFileLimit(): number | null {
  try {
    const line = fs
      .readFileSync('/proc/self/limits', 'utf8')
      .split('\n')
      .find((l) => l.startsWith('Max open files'));
    const soft = line?.slice('Max open files'.length).trim().split(/\s+/)[0];
    return soft && /^\d+$/.test(soft) ? Number(soft) : null;
  } catch {
    return null;
  }
}

/**
 * Default MAX_CONNECTIONS: three quarters of the open-file limit less 100 kept for the
 * database, models, recordings and child processes, between 256 and 10,000 (4,096 when the
 * limit cannot be read).
 */
export function defaultMaxConnections(fileLimit = openFileLimit()): number {
  if (fileLimit === null) return 4096;
  return Math.max(256, Math.min(10_000, Math.floor(fileLimit * 0.75) - 100));
}

/** The options Node's HTTP server is created with (Fastify's `http`). */
export function httpServerOptions(config: Config): {
  headersTimeout: number;
  connectionsCheckingInterval: number;
} {
  return {
    headersTimeout: config.HEADERS_TIMEOUT_MS,
    connectionsCheckingInterval: CONNECTION_CHECK_INTERVAL_MS,
  };
}

const TOO_MANY_BODY = JSON.stringify({
  error: {
    code: 'too_many_connections',
    message: 'Too many open connections from your address. Close some and try again.',
  },
});
const TOO_MANY_CONNECTIONS =
  'HTTP/1.1 429 Too Many Requests\r\nConnection: close\r\nRetry-After: 5\r\n' +
  `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(TOO_MANY_BODY)}\r\n\r\n${TOO_MANY_BODY}`;

/** Route config flag: this route's body may take the server's whole request timeout (uploads). */
export interface LongBodyConfig {
  longBody?: boolean;
}

/**
 * Registers the connection limits on `app` (before any route). `limits` counts connections per
 * client address.
 */
export function registerConnectionLimits(app: FastifyInstance, config: Config, limits: LimitStore): void {
  const server = app.server;
  server.maxConnections = config.MAX_CONNECTIONS ?? defaultMaxConnections();

  // Per address, counted on the socket: behind a proxy every connection is the proxy's, so
  // the cap is left to the proxy there (TRUST_PROXY).
  const perClient = config.TRUST_PROXY === false ? config.MAX_CONNECTIONS_PER_CLIENT : 0;
  if (perClient > 0) {
    server.on('connection', (socket: Socket) => {
      const key = `connection:${socket.remoteAddress ?? 'unknown'}`;
      void limits.acquire(key, perClient).then(
        (taken) => {
          if (taken) {
            socket.once('close', () => void limits.release(key));
            return;
          }
          if (socket.destroyed) return;
          socket.end(TOO_MANY_CONNECTIONS);
          socket.destroySoon();
        },
        () => socket.destroy(),
      );
    });
  }

  // A JSON body that has not arrived within BODY_TIMEOUT_MS is answered 408 (and, being
  // unread, closes the connection below). Uploads stream for up to the request timeout.
  const seconds = Math.round(config.BODY_TIMEOUT_MS / 100) / 10;
  app.addHook('preParsing', (request, _reply, payload, done) => {
    const routeConfig = request.routeOptions.config as LongBodyConfig | undefined;
    // `complete` is false only on a real socket whose body is still arriving (injected requests
    // in tests carry no socket and no such flag).
    if (request.raw.complete !== false || routeConfig?.longBody || typeof payload.pipe !== 'function')
      return done(null, payload);
    // Only bodies still arriving get a watched copy: whole requests (nearly all) pass untouched.
    const watched = new PassThrough();
    // The body parser listens for errors; this keeps a late one from being unhandled.
    watched.on('error', () => undefined);
    payload.pipe(watched);
    const timer = setTimeout(() => {
      if (watched.destroyed || watched.writableFinished) return;
      payload.unpipe(watched);
      watched.destroy(
        new HttpError(408, 'request_timeout', `The request body did not arrive within ${seconds} seconds.`),
      );
    }, config.BODY_TIMEOUT_MS);
    const clear = () => clearTimeout(timer);
    watched.once('finish', clear);
    watched.once('close', clear);
    request.raw.once('close', clear);
    done(null, watched);
  });

  // Answered before the whole body arrived (a 429 from a limit, a 404, a 413, a 408): the rest
  // is never read, so the connection closes once the answer is sent instead of waiting for it.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.raw.complete === false) reply.header('connection', 'close');
    done(null, payload);
  });
}
