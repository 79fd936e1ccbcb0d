import type { z } from 'zod';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../env';
import { rateLimited } from '../observability/metrics';
import { parseBody } from './validation';

/**
 * Every per-client limit, with its setting and what the 429 message calls the requests.
 * A route names one of these where it is registered (`limit:` in `route()`, or `limitConfig()`
 * for the WebSocket); routes that share a name share one budget per client.
 */
export const LIMITS = {
  upload: { setting: 'RATE_LIMIT_UPLOAD', what: 'uploads' },
  coaching: { setting: 'RATE_LIMIT_COACHING', what: 'coaching requests' },
  voice: { setting: 'RATE_LIMIT_VOICE', what: 'voice calls' },
  feedback: { setting: 'RATE_LIMIT_FEEDBACK', what: 'feedback submissions' },
  leads: { setting: 'RATE_LIMIT_LEADS', what: 'sign-ups' },
  sessions: { setting: 'RATE_LIMIT_SESSIONS', what: 'new practice sessions' },
  transcripts: { setting: 'RATE_LIMIT_TRANSCRIPTS', what: 'transcript saves' },
  retry: { setting: 'RATE_LIMIT_RETRY', what: 'transcription retries' },
  edits: { setting: 'RATE_LIMIT_EDITS', what: 'changes to a recording' },
  reports: { setting: 'RATE_LIMIT_REPORTS', what: 'report downloads' },
  reads: { setting: 'RATE_LIMIT_READS', what: 'session reads' },
  signIn: { setting: 'RATE_LIMIT_SIGN_IN', what: 'sign-in requests' },
  account: { setting: 'RATE_LIMIT_ACCOUNT', what: 'requests' },
  teams: { setting: 'RATE_LIMIT_TEAMS', what: 'team requests' },
} as const satisfies Record<string, { setting: keyof Config; what: string }>;

export type LimitName = keyof typeof LIMITS;

/** Methods that change state: each of their routes must name a limit. */
export const MUTATING_METHODS = ['POST', 'PUT', 'PATCH', 'DELETE'] as const;
type MutatingMethod = (typeof MUTATING_METHODS)[number];

export function limitFor(config: Config, name: LimitName): number {
  return config[LIMITS[name].setting];
}

/**
 * The route config for a named limit: `limit` records the declaration (checked by
 * route-limits.int.test.ts), `rateLimit` is what @fastify/rate-limit enforces; a limit set to 0
 * in the environment is declared but not enforced.
 */
export function limitConfig(config: Config, name: LimitName): { limit: LimitName; rateLimit?: object } {
  const max = limitFor(config, name);
  if (max <= 0) return { limit: name };
  const seconds = Math.ceil(config.RATE_LIMIT_WINDOW_MS / 1000);
  return {
    limit: name,
    rateLimit: {
      max,
      timeWindow: config.RATE_LIMIT_WINDOW_MS,
      groupId: name,
      onExceeded: () => rateLimited.inc({ limit: name }),
      errorResponseBuilder: (_req: unknown, ctx: { ttl: number; statusCode: number }) => {
        const wait = Math.max(1, Math.ceil(ctx.ttl / 1000));
        const err = new Error(
          `Too many ${LIMITS[name].what}: at most ${max} every ${seconds} seconds. Try again in ${wait} seconds.`,
        ) as Error & { statusCode: number; code: string };
        err.statusCode = ctx.statusCode;
        err.code = 'rate_limited';
        return err;
      },
    },
  };
}

interface RouteInput<B> {
  body: B;
  params: Record<string, string>;
  request: FastifyRequest;
  reply: FastifyReply;
}

type BodySpec<S extends z.ZodType> = {
  /** Parsed before the handler runs; a failure is a 400 naming the field. */
  schema: S;
  /** The expected shape, shown when the body is not a JSON object at all. */
  example: string;
};

type RouteSpec<S extends z.ZodType | undefined> = {
  url: string;
  /**
   * The body may take the server's whole request timeout to arrive (uploads); other bodies
   * must arrive within BODY_TIMEOUT_MS (server/http/connections.ts).
   */
  longBody?: boolean;
  body?: S extends z.ZodType ? BodySpec<S> : undefined;
  handler: (input: RouteInput<S extends z.ZodType ? z.infer<S> : undefined>) => unknown;
} & ({ method: MutatingMethod; limit: LimitName } | { method: 'GET'; limit?: LimitName });

/**
 * Registers one HTTP route with its limiter, its validation and its handler in one place
 * (docs/ARCHITECTURE.md, "Routes"). A state-changing route cannot be declared without a limit.
 */
export function route<S extends z.ZodType | undefined = undefined>(
  app: FastifyInstance,
  config: Config,
  spec: RouteSpec<S>,
): void {
  const body = spec.body as BodySpec<z.ZodType> | undefined;
  const routeConfig: Record<string, unknown> = {
    ...(spec.limit ? limitConfig(config, spec.limit) : {}),
    ...(spec.longBody ? { longBody: true } : {}),
  };
  app.route({
    method: spec.method,
    url: spec.url,
    config: routeConfig,
    handler: async (request: FastifyRequest, reply: FastifyReply) =>
      spec.handler({
        body: (body ? parseBody(body.schema, request.body, body.example) : undefined) as never,
        params: (request.params ?? {}) as Record<string, string>,
        request,
        reply,
      }),
  });
}
