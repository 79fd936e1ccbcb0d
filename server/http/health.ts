import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context';
import { STAGES, type Stage } from '../../core/stages';
import { timingSafeEqual } from 'node:crypto';
import { queueDepth } from '../jobs/queue';
import { HttpError, notFound } from '../errors';
import { metricsText } from '../observability/instrument';
import type { Health, OperatorStatus } from '../../core/operator-status';

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
    })),
  };
}

/** Failed operator-token attempts one client address may make per OPERATOR_FAILURE_WINDOW_MS. */
export const MAX_OPERATOR_FAILURES = 10;
export const OPERATOR_FAILURE_WINDOW_MS = 15 * 60_000;

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case), or null. */
export function bearerToken(authorization: string | undefined): string | null {
  const m = /^bearer[ \t]+(\S+)[ \t]*$/i.exec(authorization ?? '');
  return m ? m[1] : null;
}

/**
 * Whether the operator endpoints (/api/status, /metrics) answer this request; throws 401/404
 * otherwise, and 429 once the client address has sent MAX_OPERATOR_FAILURES wrong tokens in
 * the window (counted in ctx.limits; a request without a token is not a guess and not counted).
 */
export async function checkOperatorAccess(
  ctx: Pick<AppContext, 'config' | 'limits'>,
  request: { ip: string; headers: { authorization?: string } },
): Promise<void> {
  const { config } = ctx;
  const token = config.METRICS_TOKEN;
  if (!token) {
    // Without a token they are open while developing and off in production.
    if (config.NODE_ENV === 'production') throw notFound('Page');
    return;
  }
  const key = `operator-failure:${request.ip}`;
  const failures = await ctx.limits.count(key, OPERATOR_FAILURE_WINDOW_MS);
  if (failures.count >= MAX_OPERATOR_FAILURES) throw tooManyFailures(failures.resetInMs);
  const given = request.headers.authorization;
  if (given !== undefined && safeEqual(bearerToken(given) ?? '', token)) return;
  if (given !== undefined) await ctx.limits.add(key, OPERATOR_FAILURE_WINDOW_MS);
  throw new HttpError(
    401,
    'unauthorized',
    'This needs the operator token: Authorization: Bearer <METRICS_TOKEN>.',
  );
}

function tooManyFailures(resetInMs: number): HttpError {
  const seconds = Math.max(1, Math.ceil(resetInMs / 1000));
  return new HttpError(
    429,
    'rate_limited',
    `Too many wrong operator tokens from your address. Try again in ${Math.ceil(seconds / 60)} minutes.`,
    { 'retry-after': String(seconds) },
  );
}

function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

async function databaseHealth(ctx: AppContext) {
  const { database } = ctx;
  try {
    await withTimeout(database.ping(), PING_TIMEOUT, 'The database');
    const depth = await withTimeout(queueDepth(database.db), PING_TIMEOUT, 'The job queue');
    return { ok: true, depth };
  } catch (err) {
    return {
      ok: false,
      depth: {} as Record<string, number>,
      error: err instanceof Error ? err.message : String(err),
    };
  }
}

/** GET /api/health (public), GET /api/status (operators) and GET /api/config (public client settings). */
export async function registerHealthRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  app.get('/metrics', async (request, reply) => {
    // Open while developing; in production only with METRICS_TOKEN (and off without one).
    await checkOperatorAccess(ctx, request);
    const metrics = await metricsText(ctx);
    return reply.type(metrics.contentType).send(metrics.text);
  });
  app.get('/api/health', async (_request, reply) => {
    const db = await databaseHealth(ctx);
    const body: Health = {
      status: db.ok && ctx.providers.infos.every((i) => i.ok) ? 'ok' : 'degraded',
      database: { ok: db.ok },
      capabilities: ctx.providers.infos.map((i) => ({
        capability: i.capability,
        ok: i.ok,
        quality: i.quality,
      })),
    };
    // Load balancers take a 503 as "send traffic elsewhere"; a missing optional engine is not that.
    return reply.status(db.ok ? 200 : 503).send(body);
  });

  app.get('/api/status', async (request, reply) => {
    await checkOperatorAccess(ctx, request);
    const db = await databaseHealth(ctx);
    const coach = ctx.providers.has('coach') ? ctx.providers.get('coach') : null;
    const pool =
      coach && 'pool' in coach ? (coach as { pool: { stats(): OperatorStatus['coaching'] } }).pool : null;
    const body: OperatorStatus = {
      status: db.ok && ctx.providers.infos.every((i) => i.ok) ? 'ok' : 'degraded',
      checkedAt: new Date().toISOString(),
      database: {
        driver: ctx.database.driver,
        ok: db.ok,
        describe: ctx.database.describe,
        ...(db.error ? { error: db.error } : {}),
      },
      jobs: {
        queued: db.depth.queued ?? 0,
        running: db.depth.running ?? 0,
        failed: db.depth.failed ?? 0,
        done: db.depth.done ?? 0,
        scheduled: db.depth.scheduled ?? 0,
        worker: ctx.worker ? { running: true, kinds: ctx.worker.kinds } : { running: false, kinds: [] },
      },
      coaching: pool ? pool.stats() : null,
      engines: ctx.providers.infos.map((i) => ({
        capability: i.capability,
        engine: i.engine,
        label: i.label,
        quality: i.quality,
        ...(i.upgradeHint ? { upgradeHint: i.upgradeHint } : {}),
        reason: i.reason,
        ok: i.ok,
        ...(i.missing?.length ? { missing: i.missing } : {}),
        ...(i.installCommand ? { installCommand: i.installCommand } : {}),
      })),
      ...(ctx.models ? { models: ctx.models.status() } : {}),
    };
    return reply
      .header('cache-control', 'no-store')
      .status(db.ok ? 200 : 503)
      .send(body);
  });

  app.get('/api/config', async () => publicConfig(ctx));
}
