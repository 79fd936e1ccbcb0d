import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyError, type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import fastifyMultipart from '@fastify/multipart';
import { ZodError } from 'zod';
import { MAX_AUDIO_BYTES } from '../core/constants';
import type { Config } from './env';
import type { AppContext } from './context';
import { openDatabase } from './db/client';
import { createProviders, reselectForModel } from './providers/registry';
import { autoModelsEnabled, ModelFetcher, wantedUpgrades } from './models/auto';
import { JobWorker } from './jobs/queue';
import { jobKinds } from './domain/jobs';
import { HttpError } from './errors';
import { registerSecurity, trustProxyOption } from './http/security';
import { httpServerOptions, registerConnectionLimits } from './http/connections';
import { createLimitStore } from './limits/store';
import { registerSessionRoutes } from './http/sessions';
import { registerAudioRoutes } from './http/audio';
import { registerFeedbackRoutes } from './http/feedback';
import { registerHealthRoutes } from './http/health';
import { registerVoiceRoutes } from './voice/routes';
import { logSerializers } from './observability/log-safety';
import { instrumentJob, instrumentProviders, registerObservability } from './observability/instrument';
import {
  annotateMissingEngines,
  missingSystemEngines,
  SETUP_COMMAND,
  systemProbe,
} from './providers/system-engines';
import { cleanDebris, setTempRoot } from './temp';
import { scheduleRetention } from './domain/audio/retention';
import { isClientRoute as isKnownClientRoute } from '../core/routes';

const clientDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/client');

/** Live calls are told why they end when the server stops. */
export const SHUTDOWN_CLOSE_REASON = 'The server is restarting. Your conversation so far has been saved.';

interface ShutdownSocket {
  send(data: string): void;
  close(code: number, reason: string): void;
}

export interface Server {
  app: FastifyInstance;
  ctx: AppContext;
  /** Every route registered, so tests can check they cover all of them. */
  routes: { method: string; url: string; websocket: boolean; limit: string | null }[];
  /** Listens on config.PORT/HOST (0 = a free port); resolves to the base URL. */
  listen(): Promise<string>;
  /** Graceful stop: ends live calls, finishes in-flight requests, returns running jobs to the queue. */
  close(): Promise<void>;
}

/** Messages the multipart parser (busboy) uses for bodies that are not a valid form. */
const MULTIPART_PARSE_ERROR =
  /^(Unexpected end of (multipart data|form|file)|Malformed part header|Multipart: Boundary not found|Part terminated early|Malformed urlencoded form)/;

function errorBody(code: string, message: string) {
  return { error: { code, message } };
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Fastify's and its plugins' own 4xx errors, reworded so a client developer knows what to fix. */
function describeClientError(
  err: FastifyError,
  config: Config,
): { status: number; code: string; message: string } {
  const status = err.statusCode ?? 400;
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        code: 'payload_too_large',
        message: `The request body is larger than the ${formatBytes(config.BODY_LIMIT_BYTES)} limit.`,
      };
    case 'FST_REQ_FILE_TOO_LARGE':
      return {
        status: 413,
        code: 'payload_too_large',
        message: `The file is larger than the ${formatBytes(MAX_AUDIO_BYTES)} limit.`,
      };
    case 'FST_FILES_LIMIT':
      return {
        status: 400,
        code: 'one_file_per_upload',
        message: 'Send one recording per upload. This upload had more than one file.',
      };
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return {
        status: 413,
        code: 'payload_too_large',
        message: `Too many parts in the form: ${err.message}`,
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return {
        status: 415,
        code: 'unsupported_media_type',
        message: `${err.message}. Send JSON with Content-Type: application/json (uploads: multipart/form-data).`,
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 'invalid_json', message: 'The body is empty but Content-Type says JSON.' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: 'invalid_json', message: `The body is not valid JSON: ${err.message}` };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, code: 'bad_request', message: 'Content-Length does not match the body.' };
    case 'FST_PROTO_VIOLATION':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return { status: 400, code: 'bad_request', message: err.message };
    default:
      break;
  }
  if (err.name === 'SyntaxError' || /JSON/.test(err.message)) {
    return { status: 400, code: 'invalid_json', message: `The body is not valid JSON: ${err.message}` };
  }
  const code =
    typeof err.code === 'string' && /^[a-z][a-z_]*$/.test(err.code)
      ? err.code
      : status === 413
        ? 'payload_too_large'
        : status === 415
          ? 'unsupported_media_type'
          : status === 429
            ? 'rate_limited'
            : status === 404
              ? 'not_found'
              : 'bad_request';
  return { status, code, message: err.message || 'Bad request' };
}

/** Builds the whole app: database, engines, routes, and (for the worker role) the job worker. */
export async function createServer(
  config: Config,
  opts: { logStream?: { write(line: string): void } } = {},
): Promise<Server> {
  const clientDistReal = fs.existsSync(clientDist) ? fs.realpathSync(clientDist) : clientDist;
  if (config.dataDir === clientDistReal || config.dataDir.startsWith(clientDistReal + path.sep)) {
    // Uploads live under DATA_DIR and must never be reachable as static files.
    throw new Error(`DATA_DIR (${config.dataDir}) must not be inside the served folder ${clientDistReal}.`);
  }

  const silent = config.LOG_LEVEL === 'silent';
  const app = Fastify({
    logger: silent
      ? false
      : {
          level: config.LOG_LEVEL,
          // Error lines carry no request data (server/observability/log-safety.ts).
          serializers: logSerializers,
          ...(opts.logStream ? { stream: opts.logStream } : {}),
        },
    ...(silent || config.NODE_ENV !== 'test' ? {} : { disableRequestLogging: true }),
    bodyLimit: config.BODY_LIMIT_BYTES,
    trustProxy: trustProxyOption(config.TRUST_PROXY),
    // Slow or stalled clients cannot hold a connection forever (a 25 MB upload on a slow link
    // fits); headers must arrive within HEADERS_TIMEOUT_MS and JSON bodies within
    // BODY_TIMEOUT_MS (http/connections.ts).
    requestTimeout: 300_000,
    http: httpServerOptions(config),
    connectionTimeout: 0,
    keepAliveTimeout: 72_000,
    return503OnClosing: true,
    forceCloseConnections: 'idle',
    clientErrorHandler: (err: NodeJS.ErrnoException, socket) => {
      // Requests too broken for HTTP parsing still get the API's JSON error shape.
      if (!socket.writable) return socket.destroy();
      const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
      const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
      const status = tooLarge ? 431 : timedOut ? 408 : 400;
      const body = JSON.stringify(
        errorBody(
          tooLarge ? 'headers_too_large' : timedOut ? 'request_timeout' : 'bad_request',
          tooLarge
            ? 'The request headers are too large.'
            : timedOut
              ? 'The request took too long to arrive.'
              : 'The request is not valid HTTP.',
        ),
      );
      const reason = tooLarge
        ? 'Request Header Fields Too Large'
        : timedOut
          ? 'Request Timeout'
          : 'Bad Request';
      socket.end(
        `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
          `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
      );
    },
    frameworkErrors: (err, _request, reply: any) => {
      const message =
        err.code === 'FST_ERR_BAD_URL' ? 'The URL is not valid (bad percent-encoding).' : err.message;
      void reply.status(400).send(errorBody('bad_request', message));
    },
  });

  // Scratch files go under DATA_DIR/tmp; what a crashed process left there and in uploads goes now.
  setTempRoot(path.join(config.dataDir, 'tmp'));
  const debris = await cleanDebris({
    uploadsDir: path.join(config.dataDir, 'uploads'),
    tempDir: path.join(config.dataDir, 'tmp'),
  });
  if (debris.files > 0) {
    app.log.info(debris, 'removed partial uploads and scratch files left by a stopped process');
  }
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  const providers = await createProviders(config, database, app.log);
  const worker = config.roles.worker
    ? new JobWorker(database.db, {
        concurrency: 2,
        reclaimOnStart: database.driver === 'pglite',
        log: app.log,
      })
    : null;

  const limits = createLimitStore();
  registerConnectionLimits(app, config, limits);

  const shutdownAbort = new AbortController();
  const shutdownHooks = new Set<() => void | Promise<void>>();
  // Better engines' models fetched in the background; each one ready switches engines for new calls.
  const autoModels = autoModelsEnabled(config);
  const upgrades = wantedUpgrades(config);
  const fetcher = autoModels.enabled
    ? new ModelFetcher({
        modelsDir: config.modelsDir,
        entries: upgrades.entries,
        baseUrl: config.MODELS_BASE_URL,
        log: app.log,
        onReady: async (entry) => {
          await reselectForModel(providers, config, entry.capability, app.log);
        },
      })
    : null;
  const ctx: AppContext = {
    config,
    database,
    providers,
    models: {
      status: () => fetcher?.status() ?? { enabled: false, note: autoModels.why, models: [] },
    },
    worker,
    log: app.log,
    limits,
    wakeWorker: () => worker?.wake(),
    shutdown: {
      signal: shutdownAbort.signal,
      onShutdown(fn) {
        shutdownHooks.add(fn);
        return () => shutdownHooks.delete(fn);
      },
    },
  };
  if (worker) for (const kind of jobKinds) worker.register(instrumentJob(kind), ctx);
  // Today's retention run is queued at each start (one per day however many processes start).
  if (worker)
    await scheduleRetention(ctx).catch((err) => app.log.warn({ err }, 'could not queue the retention job'));

  app.setErrorHandler((err: any, request, reply) => {
    if (err instanceof HttpError) {
      // A dependency that did not answer (storage): the client is told to retry, the operator why.
      if (err.statusCode >= 500) request.log.warn({ err }, 'request could not be served');
      for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
      return reply.status(err.statusCode).send(errorBody(err.code, err.message));
    }
    if (err instanceof ZodError) {
      const issue = err.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      return reply
        .status(400)
        .send(errorBody('invalid_request', `${where}${issue?.message ?? 'Invalid request'}`));
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const described = describeClientError(err, config);
      return reply.status(described.status).send(errorBody(described.code, described.message));
    }
    if (status >= 500 && err instanceof Error && MULTIPART_PARSE_ERROR.test(err.message)) {
      // The form parser rejects a broken body with a plain Error; the client sent it, so it is a 400.
      return reply
        .status(400)
        .send(errorBody('invalid_multipart', `The upload form could not be read (${err.message}).`));
    }
    request.log.error({ err }, 'request failed');
    if (status === 503) {
      return reply
        .status(503)
        .send(errorBody('unavailable', 'The server is busy or restarting. Please try again shortly.'));
    }
    return reply
      .status(500)
      .send(errorBody('internal_error', 'Something went wrong on our side. Please try again.'));
  });

  // The API speaks JSON (and multipart for uploads); plain text gets a clear 415 instead of a confusing 400.
  app.removeContentTypeParser('text/plain');

  const indexHtml = path.join(clientDist, 'index.html');
  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    const lastSegment = url.slice(url.lastIndexOf('/') + 1);
    const isClientRoute =
      (request.method === 'GET' || request.method === 'HEAD') &&
      !url.startsWith('/api/') &&
      url !== '/api' &&
      url !== '/metrics' &&
      // A missing asset (/assets/x.js) is a 404, not the page.
      !lastSegment.includes('.') &&
      fs.existsSync(indexHtml);
    if (!isClientRoute) {
      return reply.status(404).send(errorBody('not_found', `No route for ${request.method} ${url}`));
    }
    // Client-side routes (/, /audio, /debug, /status); any other page gets the app's own 404 page
    // with a real 404 status, so crawlers and monitors see it is missing.
    return reply
      .status(isKnownClientRoute(url) ? 200 : 404)
      .header('cache-control', 'no-cache')
      .type('text/html')
      .sendFile('index.html', clientDist);
  });

  const routes: Server['routes'] = [];
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method === 'HEAD') continue;
      const limit = (route.config as { limit?: string } | undefined)?.limit ?? null;
      routes.push({ method, url: route.url, websocket: Boolean(route.websocket), limit });
    }
  });
  await registerSecurity(app, config);
  instrumentProviders(providers);
  registerObservability(app, ctx);

  // Runs before the WebSocket plugin's own preClose: live calls get to say goodbye and save first.
  app.addHook('preClose', async () => {
    shutdownAbort.abort();
    const hooks = [...shutdownHooks].map((fn) => Promise.resolve().then(fn));
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.allSettled(hooks),
      new Promise((resolve) => {
        timer = setTimeout(resolve, config.SHUTDOWN_GRACE_MS);
      }),
    ]);
    clearTimeout(timer);
    const wss = (app as unknown as { websocketServer?: { clients: Set<ShutdownSocket> } }).websocketServer;
    for (const client of wss?.clients ?? []) {
      try {
        client.send(
          JSON.stringify({ type: 'error', code: 'server-restarting', message: SHUTDOWN_CLOSE_REASON }),
        );
        client.send(JSON.stringify({ type: 'ended', reason: 'error' }));
      } catch {
        // The socket is already going away.
      }
      client.close(1001, 'server-restarting');
    }
  });

  await app.register(fastifyWebsocket, { options: { maxPayload: 1024 * 1024 } });
  await app.register(fastifyMultipart, {
    limits: {
      fileSize: MAX_AUDIO_BYTES,
      files: 1,
      fields: 10,
      fieldSize: 1024,
      parts: 20,
      headerPairs: 100,
    },
  });

  await registerHealthRoutes(app, ctx);
  await registerSessionRoutes(app, ctx);
  await registerAudioRoutes(app, ctx);
  await registerFeedbackRoutes(app, ctx);
  await registerVoiceRoutes(app, ctx);
  // Said once at start, for operators: what is missing and the one command that adds it.
  const missingLine = annotateMissingEngines(providers.infos, missingSystemEngines(systemProbe(config)));
  if (missingLine) app.log.warn({ installCommand: SETUP_COMMAND }, missingLine);
  if (fetcher) {
    const waiting = fetcher.status().models.filter((m) => m.state !== 'ready');
    if (waiting.length) {
      app.log.info(
        { models: waiting.map((m) => m.id), skipped: upgrades.skipped, turnOff: 'AUTO_MODELS=off' },
        'fetching better engines in the background; the built-in engines serve until they are ready',
      );
    }
    fetcher.start();
  }

  if (fs.existsSync(clientDist)) {
    await app.register(fastifyStatic, {
      root: clientDist,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
      setHeaders(res, filePath) {
        // Built assets carry a content hash in their names; the page itself must revalidate.
        res.setHeader(
          'cache-control',
          filePath.includes(`${path.sep}assets${path.sep}`)
            ? 'public, max-age=31536000, immutable'
            : 'no-cache',
        );
      },
    });
  }

  let closing: Promise<void> | null = null;
  return {
    app,
    ctx,
    routes,
    async listen() {
      const address = await app.listen({ port: config.PORT, host: config.HOST });
      if (worker) await worker.start();
      return address.replace('[::1]', 'localhost').replace('0.0.0.0', 'localhost');
    },
    close() {
      closing ??= (async () => {
        // Stop taking jobs and return running ones to the queue while requests finish.
        await Promise.all([app.close(), worker?.stop(), fetcher?.stop()]);
        await providers.close();
        await database.close();
      })();
      return closing;
    },
  };
}
