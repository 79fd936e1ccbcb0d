import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance } from 'fastify';
import fastifyStatic from '@fastify/static';
import fastifyWebsocket from '@fastify/websocket';
import fastifyMultipart from '@fastify/multipart';
import { ZodError } from 'zod';
import { MAX_AUDIO_BYTES } from '../core/constants';
import type { Config } from './env';
import type { AppContext } from './context';
import { openDatabase } from './db/client';
import { createProviders } from './providers/registry';
import { JobWorker } from './jobs/queue';
import { jobDefinitions } from './jobs';
import { HttpError } from './errors';
import { registerSessionRoutes } from './http/sessions';
import { registerAudioRoutes } from './http/audio';
import { registerFeedbackRoutes } from './http/feedback';
import { registerHealthRoutes } from './http/health';
import { registerVoiceRoutes } from './voice/routes';

const clientDist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist/client');

export interface Server {
  app: FastifyInstance;
  ctx: AppContext;
  /** Listens on config.PORT/HOST (0 = a free port); resolves to the base URL. */
  listen(): Promise<string>;
  close(): Promise<void>;
}

function errorBody(code: string, message: string) {
  return { error: { code, message } };
}

/** Builds the whole app: database, engines, routes, and (for the worker role) the job worker. */
export async function createServer(config: Config): Promise<Server> {
  const app = Fastify({
    logger: config.LOG_LEVEL === 'silent' ? false : { level: config.LOG_LEVEL },
    bodyLimit: 1024 * 1024,
    disableRequestLogging: config.NODE_ENV === 'test',
    trustProxy: true,
  });

  const database = await openDatabase({ databaseUrl: config.DATABASE_URL, dataDir: config.dataDir });
  const providers = await createProviders(config, database, app.log);
  const worker = config.roles.worker
    ? new JobWorker(database.db, {
        concurrency: 2,
        reclaimOnStart: database.driver === 'pglite',
        log: app.log,
      })
    : null;
  const ctx: AppContext = {
    config,
    database,
    providers,
    worker,
    log: app.log,
    wakeWorker: () => worker?.wake(),
  };
  if (worker) for (const def of jobDefinitions(ctx)) worker.register(def);

  app.setErrorHandler((err: any, request, reply) => {
    if (err instanceof HttpError) {
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
      const code = err.code === 'FST_ERR_CTP_BODY_TOO_LARGE' ? 'payload_too_large' : 'bad_request';
      return reply.status(status).send(errorBody(code, err.message || 'Bad request'));
    }
    request.log.error({ err }, 'request failed');
    return reply
      .status(500)
      .send(errorBody('internal_error', 'Something went wrong on our side. Please try again.'));
  });

  app.setNotFoundHandler((request, reply) => {
    const url = request.url.split('?')[0];
    if (
      url.startsWith('/api/') ||
      request.method !== 'GET' ||
      !fs.existsSync(path.join(clientDist, 'index.html'))
    ) {
      return reply.status(404).send(errorBody('not_found', `No route for ${request.method} ${url}`));
    }
    // Client-side routes (/, /audio, /debug, and the client's own 404 page).
    return reply.type('text/html').sendFile('index.html', clientDist);
  });

  await app.register(fastifyWebsocket, { options: { maxPayload: 1024 * 1024 } });
  await app.register(fastifyMultipart, {
    limits: { fileSize: MAX_AUDIO_BYTES, files: 1, fields: 10, fieldSize: 1024, parts: 20 },
  });

  await registerHealthRoutes(app, ctx);
  await registerSessionRoutes(app, ctx);
  await registerAudioRoutes(app, ctx);
  await registerFeedbackRoutes(app, ctx);
  await registerVoiceRoutes(app, ctx);

  if (fs.existsSync(clientDist)) {
    await app.register(fastifyStatic, {
      root: clientDist,
      prefix: '/',
      wildcard: false,
      index: ['index.html'],
    });
  }

  let closed = false;
  return {
    app,
    ctx,
    async listen() {
      const address = await app.listen({ port: config.PORT, host: config.HOST });
      if (worker) await worker.start();
      return address.replace('[::1]', 'localhost').replace('0.0.0.0', 'localhost');
    },
    async close() {
      if (closed) return;
      closed = true;
      await app.close();
      if (worker) await worker.stop();
      await providers.close();
      await database.close();
    },
  };
}
