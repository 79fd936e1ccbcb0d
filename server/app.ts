import path from 'node:path';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import fastifyWebsocket from '@fastify/websocket';
import fastifyMultipart from '@fastify/multipart';
import { MAX_AUDIO_BYTES } from '../core/constants';
import type { Config } from './env';
import type { AppContext } from './context';
import { openDatabase, type Database } from './db/client';
import { createProviders, reselectForModel, type Providers } from './providers/registry';
import { autoModelsEnabled, ModelFetcher, wantedUpgrades } from './models/auto';
import { JobWorker } from './jobs/queue';
import { jobKinds } from './domain/jobs';
import { registerSecurity, trustProxyOption } from './http/security';
import { httpServerOptions, registerConnectionLimits } from './http/connections';
import { createLimitStore, MemoryLimitStore } from './limits/store';
import { registerSessionRoutes } from './http/sessions';
import { registerAudioRoutes } from './http/audio';
import { registerFeedbackRoutes } from './http/feedback';
import { registerAccountRoutes } from './http/accounts';
import { registerTeamRoutes } from './http/teams';
import { registerHealthRoutes } from './http/health';
import { checkDataDirOutsideClient, registerClient, registerClientRoutes } from './http/client';
import { clientErrorHandler, frameworkErrors, registerErrorReplies } from './http/replies';
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

/** Fastify with the server's limits, logging and error shapes. */
function createFastify(config: Config, logStream?: { write(line: string): void }): FastifyInstance {
  const silent = config.LOG_LEVEL === 'silent';
  return Fastify({
    logger: silent
      ? false
      : {
          level: config.LOG_LEVEL,
          // Error lines carry no request data (server/observability/log-safety.ts).
          serializers: logSerializers,
          ...(logStream ? { stream: logStream } : {}),
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
    clientErrorHandler,
    frameworkErrors,
  }) as unknown as FastifyInstance;
}

/** Scratch files go under DATA_DIR/tmp; what a crashed process left there and in uploads goes now. */
async function clearDebris(config: Config, log: FastifyBaseLogger): Promise<void> {
  setTempRoot(path.join(config.dataDir, 'tmp'));
  const debris = await cleanDebris({
    uploadsDir: path.join(config.dataDir, 'uploads'),
    tempDir: path.join(config.dataDir, 'tmp'),
  });
  if (debris.files > 0) {
    log.info(debris, 'removed partial uploads and scratch files left by a stopped process');
  }
}

/** The job worker of the worker role: two recordings at a time (one per client), two short jobs beside. */
function createWorker(config: Config, database: Database, log: FastifyBaseLogger): JobWorker | null {
  if (!config.roles.worker) return null;
  return new JobWorker(database.db, {
    concurrency: 2,
    lanes: { recordings: 2 },
    perOwner: 1,
    reclaimOnStart: database.driver === 'pglite',
    log,
  });
}

/** Better engines' models fetched in the background; each one ready switches engines for new calls. */
function createModelFetcher(config: Config, providers: Providers, log: FastifyBaseLogger) {
  const autoModels = autoModelsEnabled(config);
  const upgrades = wantedUpgrades(config);
  const fetcher = autoModels.enabled
    ? new ModelFetcher({
        modelsDir: config.modelsDir,
        entries: upgrades.entries,
        baseUrl: config.MODELS_BASE_URL,
        log,
        onReady: async (entry) => {
          await reselectForModel(providers, config, entry.capability, log);
        },
      })
    : null;
  return {
    fetcher,
    status: () => fetcher?.status() ?? { enabled: false, note: autoModels.why, models: [] },
    /** Says what is being fetched, then starts. */
    start() {
      if (!fetcher) return;
      const waiting = fetcher.status().models.filter((m) => m.state !== 'ready');
      if (waiting.length) {
        log.info(
          { models: waiting.map((m) => m.id), skipped: upgrades.skipped, turnOff: 'AUTO_MODELS=off' },
          'fetching better engines in the background; the built-in engines serve until they are ready',
        );
      }
      fetcher.start();
    },
  };
}

/** The shutdown hooks of `ctx.shutdown`, run by `runShutdownHooks` when the server starts closing. */
function createShutdown() {
  const abort = new AbortController();
  const hooks = new Set<() => void | Promise<void>>();
  return {
    api: {
      signal: abort.signal,
      onShutdown(fn: () => void | Promise<void>) {
        hooks.add(fn);
        return () => hooks.delete(fn);
      },
    } satisfies AppContext['shutdown'],
    /** Runs every hook, waiting at most `graceMs` for them. */
    async run(graceMs: number): Promise<void> {
      abort.abort();
      const running = [...hooks].map((fn) => Promise.resolve().then(fn));
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        Promise.allSettled(running),
        new Promise((resolve) => {
          timer = setTimeout(resolve, graceMs);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}

/**
 * Runs before the WebSocket plugin's own preClose: live calls get to say goodbye and save first,
 * then every call's socket is told why it ends.
 */
function registerGoodbyes(app: FastifyInstance, runHooks: () => Promise<void>): void {
  app.addHook('preClose', async () => {
    await runHooks();
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
}

/** Every route as it is registered, so tests can check they cover all of them. */
function recordRoutes(app: FastifyInstance): Server['routes'] {
  const routes: Server['routes'] = [];
  app.addHook('onRoute', (route) => {
    for (const method of Array.isArray(route.method) ? route.method : [route.method]) {
      if (method === 'HEAD') continue;
      const limit = (route.config as { limit?: string } | undefined)?.limit ?? null;
      routes.push({ method, url: route.url, websocket: Boolean(route.websocket), limit });
    }
  });
  return routes;
}

/** The WebSocket and multipart plugins, then every route module and the built client. */
async function registerRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  await app.register(fastifyWebsocket, { options: { maxPayload: 1024 * 1024 } });
  await app.register(fastifyMultipart, {
    limits: {
      // One byte past the limit reaches the upload route, which refuses it (UploadGate) before
      // storage completes the file.
      fileSize: MAX_AUDIO_BYTES + 1,
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
  await registerAccountRoutes(app, ctx);
  await registerTeamRoutes(app, ctx);
  await registerVoiceRoutes(app, ctx);
  await registerClient(app);
}

/** Builds the whole app: database, engines, routes, and (for the worker role) the job worker. */
export async function createServer(
  config: Config,
  opts: { logStream?: { write(line: string): void } } = {},
): Promise<Server> {
  checkDataDirOutsideClient(config);
  const app = createFastify(config, opts.logStream);
  await clearDebris(config, app.log);
  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  const providers = await createProviders(config, database, app.log);
  const worker = createWorker(config, database, app.log);
  const models = createModelFetcher(config, providers, app.log);
  const shutdown = createShutdown();
  // Calls and failed logins per address are counted across processes on PostgreSQL; open
  // connections are this process's own sockets, counted here.
  const limits = createLimitStore(database, (err, what) =>
    app.log.warn({ err }, `limit store: could not ${what}`),
  );
  registerConnectionLimits(app, config, new MemoryLimitStore());
  const ctx: AppContext = {
    config,
    database,
    providers,
    models: { status: models.status },
    worker,
    log: app.log,
    limits,
    wakeWorker: () => worker?.wake(),
    shutdown: shutdown.api,
  };
  if (worker) {
    for (const kind of jobKinds) worker.register(instrumentJob(kind), ctx);
    // Today's retention run is queued at each start (one per day however many processes start).
    await scheduleRetention(ctx).catch((err) => app.log.warn({ err }, 'could not queue the retention job'));
  }

  registerErrorReplies(app, config);
  registerClientRoutes(app);
  const routes = recordRoutes(app);
  await registerSecurity(app, config, limits);
  instrumentProviders(providers);
  registerObservability(app);
  registerGoodbyes(app, () => shutdown.run(config.SHUTDOWN_GRACE_MS));
  await registerRoutes(app, ctx);
  // Said once at start, for operators: what is missing and the one command that adds it.
  const missingLine = annotateMissingEngines(providers.infos, missingSystemEngines(systemProbe(config)));
  if (missingLine) app.log.warn({ installCommand: SETUP_COMMAND }, missingLine);
  models.start();

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
        await Promise.all([app.close(), worker?.stop(), models.fetcher?.stop()]);
        await providers.close();
        await limits.close?.();
        await database.close();
      })();
      return closing;
    },
  };
}
