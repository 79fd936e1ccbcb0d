import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { checkOperatorAccess } from '../http/health';
import type { JobKind } from '../jobs/queue';
import { queueDepth as readQueueDepth } from '../jobs/queue';
import type { Providers } from '../providers/registry';
import { STT_SAMPLE_RATE, type SpeechToText } from '../providers/stt/types';
import {
  httpRequestDuration,
  liveCalls,
  queueDepth,
  recordJobDuration,
  recordSttRealTimeFactor,
  registry,
} from './metrics';

/** Wraps a job handler so every run records its duration and outcome. */
export function instrumentJob<Payload, Deps>(def: JobKind<Payload, Deps>): JobKind<Payload, Deps> {
  return {
    ...def,
    handle: async (payload, jobCtx) => {
      const started = performance.now();
      try {
        await def.handle(payload, jobCtx);
        recordJobDuration(def.name, 'done', performance.now() - started);
      } catch (err) {
        const outcome = jobCtx.signal.aborted
          ? 'interrupted'
          : jobCtx.job.attempts >= jobCtx.job.maxAttempts
            ? 'failed'
            : 'retry';
        recordJobDuration(def.name, outcome, performance.now() - started);
        throw err;
      }
    },
  };
}

const QUEUE_STATUSES = ['queued', 'running', 'done', 'failed'];

/**
 * Measures the speech-to-text engine's real-time factor on every whole-clip transcription
 * (uploads, and the live call's end-of-turn decodes), whichever module calls it.
 */
export function instrumentProviders(providers: Providers): void {
  // An engine switched in after a model download is measured the same way.
  providers.onReplace((key, engine) => {
    if (key === 'stt') instrumentStt(engine as SpeechToText);
  });
  if (providers.has('stt')) instrumentStt(providers.get('stt'));
}

function instrumentStt(stt: SpeechToText): void {
  const transcribe = stt.transcribe.bind(stt);
  stt.transcribe = async (pcm, opts) => {
    const started = performance.now();
    const segments = await transcribe(pcm, opts);
    const audioMs = (pcm.length / STT_SAMPLE_RATE) * 1000;
    // Clips under a quarter second say more about start-up cost than about speed.
    if (audioMs >= 250) recordSttRealTimeFactor(stt.id, 'clip', (performance.now() - started) / audioMs);
    return segments;
  };
}

/** Request latency for every route, and GET /metrics in the Prometheus text format. */
export function registerObservability(
  app: FastifyInstance,
  ctx: AppContext,
  gauges: { liveCalls?: () => number } = {},
): void {
  // A callback hook rather than an async one: it runs on every request and has nothing to await.
  app.addHook('onResponse', (request, reply, done) => {
    try {
      // Unmatched URLs share one label so random paths cannot grow the series without bound.
      const route = request.routeOptions.url ?? 'unmatched';
      httpRequestDuration.observe(
        { method: request.method, route, status: String(reply.statusCode) },
        reply.elapsedTime / 1000,
      );
    } finally {
      done();
    }
  });

  app.get('/metrics', async (request, reply) => {
    // Open while developing; in production only with METRICS_TOKEN (and off without one).
    await checkOperatorAccess(ctx, request);
    try {
      const depth = await readQueueDepth(ctx.database.db);
      for (const status of QUEUE_STATUSES) queueDepth.set({ status }, depth[status] ?? 0);
    } catch {
      // The database is down: keep the last known depth; /api/health reports the outage.
    }
    if (gauges.liveCalls) liveCalls.set(gauges.liveCalls());
    return reply.type(registry.contentType).send(await registry.metrics());
  });
}
