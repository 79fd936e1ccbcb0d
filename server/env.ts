import { z } from 'zod';
import path from 'node:path';
import { DEVICE_SPEECH_CLOUD, DEVICE_SPEECH_MODES } from '../core/device-speech';
import net from 'node:net';
import { DEFAULT_RETENTION_DAYS } from '../core/constants';

/** Configuration, parsed once at boot. Names are a contract (docs/ARCHITECTURE.md); add, don't rename. */
const optional = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/** The shortest operator token (METRICS_TOKEN) accepted: 32 characters resist guessing. */
export const MIN_OPERATOR_TOKEN_CHARS = 32;

/** Names proxy-addr understands for whole ranges. */
const PROXY_RANGE_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

function isProxyAddress(entry: string): boolean {
  if (PROXY_RANGE_NAMES.has(entry)) return true;
  const [address, bits, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (!family || rest.length) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * TRUST_PROXY as Fastify's trustProxy takes it: false, a hop count, or a comma list of proxy
 * addresses. `true` is one hop, never Fastify's `true` (which believes the client-written leftmost entry).
 */
export function parseTrustProxy(value: string): false | number | string | null {
  const v = value.trim().toLowerCase();
  if (v === '' || v === 'false' || v === '0') return false;
  if (v === 'true') return 1;
  if (/^\d+$/.test(v)) return Number(v) <= 32 ? Number(v) : null;
  const entries = v
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  if (!entries.length || !entries.every(isProxyAddress)) return null;
  return entries.join(',');
}

const envSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('production'),
  PORT: z.coerce.number().int().min(0).max(65535).default(5000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().default('./data'),
  DATABASE_URL: optional,
  MODELS_DIR: optional,
  SMTP_URL: optional,
  SMTP_FROM: z.string().default('Doorstep <coach@doorstep.local>'),
  PUBLIC_URL: optional,
  LLM_BASE_URL: optional,
  LLM_API_KEY: optional,
  LLM_MODEL: optional,
  LLM_GGUF_PATH: optional,
  STT_PROVIDER: optional,
  /** OpenAI-compatible speech-to-text service (falls back to LLM_BASE_URL / LLM_API_KEY). */
  STT_BASE_URL: optional,
  STT_API_KEY: optional,
  STT_MODEL: optional,
  TTS_PROVIDER: optional,
  /** Voice model of the OpenAI-compatible speech API (TTS_PROVIDER=openai). */
  TTS_MODEL: z.string().default('tts-1'),
  /** `energy` skips Silero VAD even when its model is present. */
  VAD_PROVIDER: z.enum(['auto', 'silero', 'energy', '']).default('auto'),
  /** `off`: live calls decode each utterance as a clip instead of using a warm streaming recogniser. */
  VOICE_STREAMING_STT: z.enum(['auto', 'off', '']).default('auto'),
  /** PocketSphinx model folder (holds en-us/, en-us.lm.bin, cmudict-en-us.dict). */
  POCKETSPHINX_MODEL_DIR: z.string().default('/usr/share/pocketsphinx/model/en-us'),
  /**
   * Share (0-0.9) of the in-home sales conversation model mixed into PocketSphinx's general
   * English model for recordings (needs build/sphinx-batch). Off by default: it helped sales
   * sentences a little and hurt general speech more (docs/benchmarks.md).
   */
  POCKETSPHINX_SALES_LM_WEIGHT: z.coerce.number().min(0).max(0.9).default(0),
  /** Longest recording transcribed, in minutes; longer uploads fail with a clear message. */
  MAX_AUDIO_MINUTES: z.coerce.number().positive().max(1440).default(120),
  /** The warm live-call decoder built by `npm run setup` (default: build/sphinx-live). */
  SPHINX_LIVE_PATH: optional,
  VOICE_PROVIDER: z.enum(['local', 'vapi']).default('local'),
  /** The browser's own speech in calls (core/device-speech.ts): auto, off, listen, speak. */
  DEVICE_SPEECH: z.enum(DEVICE_SPEECH_MODES).default('auto'),
  /** `never`: do not offer reps the browser vendor's online recognition. */
  DEVICE_SPEECH_CLOUD: z.enum(DEVICE_SPEECH_CLOUD).default('ask'),
  /** Live calls this process serves at once; more get `busy`. Default from cores and free memory. */
  MAX_LIVE_CALLS: optional
    .transform((v) => (v === undefined ? undefined : Number(v)))
    .pipe(z.number().int().min(1).optional()),
  /** Text calls (typed turns, speech in the browser) at once; more get `busy`. Default from cores and memory. */
  MAX_TEXT_CALLS: optional
    .transform((v) => (v === undefined ? undefined : Number(v)))
    .pipe(z.number().int().min(1).optional()),
  /** Calls one client address may hold open at once (0 = no limit); more get `busy`. */
  MAX_CALLS_PER_CLIENT: z.coerce.number().int().min(0).default(2),
  /** A call with no rep speech or turn for this long (after the homeowner's last reply) ends; 0 = never. */
  CALL_IDLE_SEC: z.coerce.number().int().min(0).max(300).default(20),
  /**
   * Typed (or browser-recognised) rep turns: one per TURN_INTERVAL_MS on average, up to
   * TURN_BURST in a row; faster turns are refused with `too-fast` and the call goes on. 0 = no limit.
   */
  TURN_INTERVAL_MS: z.coerce.number().int().min(0).max(60_000).default(2000),
  TURN_BURST: z.coerce.number().int().min(1).max(50).default(4),
  VAPI_PUBLIC_KEY: optional,
  VAPI_ASSISTANT_WINDOWS: optional,
  VAPI_ASSISTANT_HVAC: optional,
  VAPI_ASSISTANT_ROOFING: optional,
  VAPI_ASSISTANT_FLOORING: optional,
  VAPI_ASSISTANT_GENERAL: optional,
  HUBSPOT_PORTAL_ID: optional,
  HUBSPOT_FORM_ID: optional,
  /** Which roles this process runs: web, worker, or both (comma-separated). */
  ROLES: z.string().default('web,worker'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /**
   * Which X-Forwarded-For entries to believe (docs: SECURITY.md). A number of trusted proxy hops
   * (`true` = 1: the nearest proxy's view of the client, the rightmost entry), or a comma list of
   * proxy addresses/CIDR ranges. Off by default: clients write that header themselves.
   */
  TRUST_PROXY: z
    .string()
    .default('false')
    .transform((v, ctx) => {
      const parsed = parseTrustProxy(v);
      if (parsed === null) {
        ctx.addIssue({
          code: 'custom',
          message:
            'TRUST_PROXY must be true/false, a number of proxy hops, or a comma list of proxy addresses or CIDR ranges',
        });
        return z.NEVER;
      }
      return parsed;
    }),
  /** Open connections this process accepts at once (default from its open-file limit); more are dropped. */
  MAX_CONNECTIONS: optional
    .transform((v) => (v === undefined ? undefined : Number(v)))
    .pipe(z.number().int().min(8).optional()),
  /**
   * Open connections one client address may hold (0 = no limit); more are answered 429 and
   * closed. Not applied behind a proxy (TRUST_PROXY), where every connection comes from the proxy.
   */
  MAX_CONNECTIONS_PER_CLIENT: z.coerce.number().int().min(0).default(64),
  /** A request's headers must arrive within this long (ms). */
  HEADERS_TIMEOUT_MS: z.coerce.number().int().min(1000).max(120_000).default(10_000),
  /** A JSON request's body must arrive within this long (ms); uploads have five minutes. */
  BODY_TIMEOUT_MS: z.coerce.number().int().min(100).max(300_000).default(10_000),
  /** Largest JSON body accepted, in bytes. */
  BODY_LIMIT_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .default(1024 * 1024),
  /** Per-client limits on expensive routes: requests per RATE_LIMIT_WINDOW_MS; 0 turns a limit off. */
  RATE_LIMIT_WINDOW_MS: z.coerce.number().int().min(1000).default(60_000),
  RATE_LIMIT_UPLOAD: z.coerce.number().int().min(0).default(20),
  RATE_LIMIT_COACHING: z.coerce.number().int().min(0).default(30),
  RATE_LIMIT_VOICE: z.coerce.number().int().min(0).default(10),
  RATE_LIMIT_FEEDBACK: z.coerce.number().int().min(0).default(10),
  RATE_LIMIT_LEADS: z.coerce.number().int().min(0).default(20),
  /** New role-play sessions, transcript saves, recording retries, speaker swaps (each its own budget). */
  RATE_LIMIT_SESSIONS: z.coerce.number().int().min(0).default(30),
  RATE_LIMIT_TRANSCRIPTS: z.coerce.number().int().min(0).default(30),
  RATE_LIMIT_RETRY: z.coerce.number().int().min(0).default(10),
  RATE_LIMIT_EDITS: z.coerce.number().int().min(0).default(30),
  /** Coaching report (PDF) downloads per client per window: each costs a worker thread tens of ms. */
  RATE_LIMIT_REPORTS: z.coerce.number().int().min(0).default(30),
  /** Role-play session reads (GET /api/sessions/:id) per client per window. */
  RATE_LIMIT_READS: z.coerce.number().int().min(0).default(120),
  /** Sign-in link requests and sign-ins (following a link) per client per window. */
  RATE_LIMIT_SIGN_IN: z.coerce.number().int().min(0).default(10),
  /** Signed-in requests (progress, claiming, signing out) per client per window. */
  RATE_LIMIT_ACCOUNT: z.coerce.number().int().min(0).default(60),
  /** Team requests (team pages, invites, joining, comments, CSV) per client per window. */
  RATE_LIMIT_TEAMS: z.coerce.number().int().min(0).default(120),
  /** Sign-in links one email address may be sent in 15 minutes (0 = no limit). */
  SIGN_IN_LINKS_PER_ADDRESS: z.coerce.number().int().min(0).default(3),
  /** Sign-in links one client address may ask for in an hour, whatever the email (0 = no limit). */
  SIGN_IN_LINKS_PER_CLIENT: z.coerce.number().int().min(0).default(10),
  /** Days a sign-in lasts on a device before the rep is asked to sign in again. */
  SIGN_IN_DAYS: z.coerce.number().int().min(1).max(400).default(30),
  /** Coaching requests that may wait for a free coaching thread (0 = 4 per thread); more get a 503. */
  COACH_QUEUE_MAX: z.coerce.number().int().min(0).default(0),
  /** When set, GET /metrics requires `Authorization: Bearer <token>`; at least 32 characters. */
  METRICS_TOKEN: optional.pipe(
    z
      .string()
      .min(
        MIN_OPERATOR_TOKEN_CHARS,
        `must be at least ${MIN_OPERATOR_TOKEN_CHARS} characters (e.g. openssl rand -hex 24)`,
      )
      .optional(),
  ),
  /** Coaching summaries one email address may be sent a day, across all sessions (0 = no limit). */
  FEEDBACK_PER_RECIPIENT_PER_DAY: z.coerce.number().int().min(0).default(5),
  /** How long SIGTERM waits for in-flight requests, live calls and jobs before exiting. */
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).default(10_000),
  /** Call recordings (file, transcript, coaching) are deleted this many days after upload; 0 keeps them. */
  RETENTION_DAYS: z.coerce.number().int().min(0).max(36_500).default(DEFAULT_RETENTION_DAYS),
  /** Where recordings are stored: unset/`local` = DATA_DIR/uploads, or `s3://bucket/prefix`. */
  STORAGE_URL: optional,
  /** S3-compatible endpoint for non-AWS services (MinIO, R2, Backblaze); unset = AWS. */
  S3_ENDPOINT: optional,
  /** An S3 request not answered within this long (ms) fails as storage unavailable (503). */
  S3_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(60_000),
  S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0', ''])
    .default('false')
    .transform((v) => v === 'true' || v === '1'),
  AWS_ACCESS_KEY_ID: optional,
  AWS_SECRET_ACCESS_KEY: optional,
  AWS_SESSION_TOKEN: optional,
  AWS_REGION: optional,
  /** Megabytes of recordings one client may upload per hour (0 = no limit). */
  UPLOAD_MB_PER_HOUR: z.coerce.number().min(0).default(300),
  /**
   * Recordings of one client that may wait or be transcribed at once; one more is refused (429)
   * until one is done (0 = no limit). Each client's recordings are transcribed one at a time,
   * clients taking turns.
   */
  MAX_QUEUED_RECORDINGS: z.coerce.number().int().min(0).max(100).default(2),
  /**
   * Minutes of audio one client may have transcribed per hour; a recording past it waits until
   * the hour frees enough (0 = no limit). A first recording always starts.
   */
  AUDIO_MINUTES_PER_HOUR: z.coerce.number().min(0).default(150),
  /**
   * Background fetch of the recommended models at start (docs/providers.md): `auto` = on except
   * in tests and under CI, `on`, `off`.
   */
  AUTO_MODELS: z.enum(['auto', 'on', 'off', '']).default('auto'),
  /** Fetch catalogue models from this base URL instead of the publishers (tests, private mirrors). */
  MODELS_BASE_URL: optional,
  /** Set by CI systems; turns the background model fetch off by default. */
  CI: optional,
});

export type RawEnv = z.infer<typeof envSchema>;

export interface Config extends RawEnv {
  dataDir: string;
  modelsDir: string;
  roles: { web: boolean; worker: boolean };
  isDev: boolean;
}

export class ConfigError extends Error {}

export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.')}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = parsed.data;
  const dataDir = path.resolve(env.DATA_DIR);
  const roles = env.ROLES.split(',').map((r) => r.trim());
  return {
    ...env,
    dataDir,
    modelsDir: path.resolve(env.MODELS_DIR ?? path.join(dataDir, 'models')),
    roles: { web: roles.includes('web'), worker: roles.includes('worker') },
    isDev: env.NODE_ENV === 'development',
  };
}
