import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { HttpError } from '../errors';
import type { JobDefinition } from '../jobs/queue';
import { queueDepth as readQueueDepth } from '../jobs/queue';
import { httpRequestDuration, queueDepth, recordJobDuration, registry } from './metrics';

/** Wraps a job handler so every run records its duration and outcome. */
export function instrumentJob(def: JobDefinition): JobDefinition {
  return {
    ...def,
    handler: async (payload, jobCtx) => {
      const started = performance.now();
      try {
        await def.handler(payload, jobCtx);
        recordJobDuration(def.kind, 'done', performance.now() - started);
      } catch (err) {
        const outcome = jobCtx.signal.aborted
          ? 'interrupted'
          : jobCtx.job.attempts >= jobCtx.job.maxAttempts
            ? 'failed'
            : 'retry';
        recordJobDuration(def.kind, outcome, performance.now() - started);
        throw err;
      }
    },
  };
}

const QUEUE_STATUSES = ['queued', 'running', 'done', 'failed'];

/** Request latency for every route, and GET /metrics in the Prometheus text format. */
export function registerObservability(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onResponse', async (request, reply) => {
    // Unmatched URLs share one label so random paths cannot grow the series without bound.
    const route = request.routeOptions.url ?? 'unmatched';
    httpRequestDuration.observe(
      { method: request.method, route, status: String(reply.statusCode) },
      reply.elapsedTime / 1000,
    );
  });

  app.get('/metrics', async (request, reply) => {
    const token = ctx.config.METRICS_TOKEN;
    if (token && request.headers.authorization !== `Bearer ${token}`) {
      throw new HttpError(401, 'unauthorized', 'Metrics need the bearer token set in METRICS_TOKEN.');
    }
    try {
      const depth = await readQueueDepth(ctx.database.db);
      for (const status of QUEUE_STATUSES) queueDepth.set({ status }, depth[status] ?? 0);
    } catch {
      // The database is down: keep the last known depth; /api/health reports the outage.
    }
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
