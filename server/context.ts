import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './env';
import type { Database } from './db/client';
import type { Providers } from './providers/registry';
import type { JobWorker } from './jobs/queue';
import type { AutoModelsStatus } from './models/auto';
import type { LimitStore } from './limits/store';

/** Everything a route or job needs, built once at boot and passed down explicitly. */
export interface AppContext {
  config: Config;
  database: Database;
  providers: Providers;
  /** The background fetch of better engines' models (AUTO_MODELS). */
  models?: { status(): AutoModelsStatus };
  /** Present when this process runs the worker role. */
  worker: JobWorker | null;
  log: FastifyBaseLogger;
  /** Per-client counters (connections, calls, failed operator logins): server/limits/store.ts. */
  limits: LimitStore;
  /** Called after enqueueing so an in-process worker starts at once. */
  wakeWorker(): void;
  /** Graceful shutdown (SIGTERM): live calls end with a message and keep their transcripts. */
  shutdown: {
    /** Aborted when the server starts shutting down. */
    signal: AbortSignal;
    /** Runs fn before connections close (bounded by SHUTDOWN_GRACE_MS); returns an unsubscribe. */
    onShutdown(fn: () => void | Promise<void>): () => void;
  };
}
