import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { STAGES, type Stage } from '../../core/stages';
import { queueDepth } from '../jobs/queue';

const PING_TIMEOUT = 2000;

function withTimeout<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** The settings the page needs. Only public values: never the LLM key or the SMTP URL. */
export function publicConfig(ctx: AppContext) {
  const c = ctx.config;
  const assistants = Object.fromEntries(
    STAGES.map((s) => [s, (c[`VAPI_ASSISTANT_${s.toUpperCase()}` as keyof typeof c] as string) ?? null]),
  ) as Record<Stage, string | null>;
  const vapi =
    c.VOICE_PROVIDER === 'vapi' && c.VAPI_PUBLIC_KEY ? { publicKey: c.VAPI_PUBLIC_KEY, assistants } : null;
  const hubspot =
    c.HUBSPOT_PORTAL_ID && c.HUBSPOT_FORM_ID
      ? { portalId: c.HUBSPOT_PORTAL_ID, formId: c.HUBSPOT_FORM_ID, region: 'na1' as const }
      : null;
  return {
    // Vapi without a public key cannot place calls, so the page uses the built-in voice.
    voiceProvider: vapi ? ('vapi' as const) : ('local' as const),
    vapi,
    hubspot,
    /** Days a call recording is kept after upload (0 = kept until deleted by hand). */
    retentionDays: c.RETENTION_DAYS,
    deviceSpeech: { mode: c.DEVICE_SPEECH, cloud: c.DEVICE_SPEECH_CLOUD },
    engines: ctx.providers.infos.map((i) => ({
      capability: i.capability,
      engine: i.engine,
      label: i.label,
      quality: i.quality,
      ok: i.ok,
      ...(i.upgradeHint ? { upgradeHint: i.upgradeHint } : {}),
    })),
  };
}

/** GET /api/health and GET /api/config (public client settings). */
export async function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/api/health', async (_request, reply) => {
    const { database } = ctx;
    let dbOk = true;
    let dbError: string | undefined;
    let depth: Record<string, number> = {};
    try {
      await withTimeout(database.ping(), PING_TIMEOUT, 'The database');
      depth = await withTimeout(queueDepth(database.db), PING_TIMEOUT, 'The job queue');
    } catch (err) {
      dbOk = false;
      dbError = err instanceof Error ? err.message : String(err);
    }
    const enginesOk = ctx.providers.infos.every((i) => i.ok);
    const body = {
      status: dbOk && enginesOk ? ('ok' as const) : ('degraded' as const),
      database: {
        driver: database.driver,
        ok: dbOk,
        describe: database.describe,
        ...(dbError ? { error: dbError } : {}),
      },
      jobs: {
        queued: depth.queued ?? 0,
        running: depth.running ?? 0,
        failed: depth.failed ?? 0,
        done: depth.done ?? 0,
        worker: ctx.worker ? { running: true, kinds: ctx.worker.kinds } : { running: false, kinds: [] },
      },
      engines: ctx.providers.infos,
    };
    // Load balancers take a 503 as "send traffic elsewhere"; a missing optional engine is not that.
    return reply.status(dbOk ? 200 : 503).send(body);
  });

  app.get('/api/config', async () => publicConfig(ctx));
}
