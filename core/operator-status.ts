import { z } from 'zod';
import { engineInfoSchema } from './voice-protocol';
import { engineQualitySchema } from './engines';

/**
 * GET /api/health: public, for load balancers and uptime checks. Says whether the app works and
 * which capabilities are available; never paths, model files, binaries or hosts (docs/api.md).
 */
export const healthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  database: z.object({ ok: z.boolean() }),
  capabilities: z.array(
    z.object({
      capability: z.string(),
      ok: z.boolean(),
      quality: engineQualitySchema,
    }),
  ),
});
export type Health = z.infer<typeof healthSchema>;

/** An engine as the operator sees it: the public engine info plus why it was chosen and whether it works. */
export const operatorEngineSchema = engineInfoSchema.extend({
  /** Why this engine serves the capability (may name model paths and hosts, never credentials). */
  reason: z.string(),
  ok: z.boolean(),
  /** Embedded engine pieces missing on this machine, and the one command that adds them. */
  missing: z.array(z.string()).optional(),
  installCommand: z.string().optional(),
});
export type OperatorEngine = z.infer<typeof operatorEngineSchema>;

export const MODEL_DOWNLOAD_STATES = [
  'queued',
  'downloading',
  'verifying',
  'unpacking',
  'ready',
  'failed',
] as const;
export type ModelDownloadState = (typeof MODEL_DOWNLOAD_STATES)[number];

/** One model of the upgrade set fetched in the background (AUTO_MODELS). */
export const modelDownloadSchema = z.object({
  id: z.string(),
  capability: z.string(),
  description: z.string(),
  licence: z.string(),
  state: z.enum(MODEL_DOWNLOAD_STATES),
  bytesDone: z.number(),
  bytesTotal: z.number().nullable(),
  /** Why it failed, or why it is waiting. */
  reason: z.string().optional(),
  nextAttemptAt: z.string().optional(),
});
export type ModelDownload = z.infer<typeof modelDownloadSchema>;

/**
 * GET /api/status: the operator's view (the /status page). Open in development; in production
 * only with `Authorization: Bearer <METRICS_TOKEN>` (401 without it), and 404 when no token is set.
 */
export const operatorStatusSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  checkedAt: z.string(),
  database: z.object({
    driver: z.enum(['pglite', 'postgres']),
    ok: z.boolean(),
    /** Where the data lives, without credentials. */
    describe: z.string(),
    error: z.string().optional(),
  }),
  jobs: z.object({
    queued: z.number(),
    running: z.number(),
    failed: z.number(),
    done: z.number(),
    /** Recurring work waiting for its time (the daily retention run), not a backlog. */
    scheduled: z.number(),
    worker: z.object({ running: z.boolean(), kinds: z.array(z.string()) }),
  }),
  /** Coaching worker threads (null when no coach runs on them). */
  coaching: z
    .object({
      size: z.number(),
      started: z.number(),
      running: z.number(),
      queued: z.number(),
      maxQueue: z.number(),
    })
    .nullable(),
  engines: z.array(operatorEngineSchema),
  /** The background fetch of better engines' models at start (absent in older servers). */
  models: z
    .object({
      enabled: z.boolean(),
      /** Why it is off, or when it tries again. */
      note: z.string().optional(),
      models: z.array(modelDownloadSchema),
    })
    .optional(),
});
export type OperatorStatus = z.infer<typeof operatorStatusSchema>;
