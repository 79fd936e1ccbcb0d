/**
 * What error-level log lines may say about a failure: its type, code, a message with request data
 * taken out, and the stack frames. Never a request body, query parameters (a failed database
 * query's message lists them: transcripts, names), or an email address.
 */

const EMAIL = /[^\s@<>"'(),;:]+@[^\s@<>"'(),;:]+\.[^\s@<>"'(),;:]+/g;
const MAX_MESSAGE = 500;

/** A message with query parameters, email addresses and anything past 500 characters removed. */
export function redactMessage(message: string): string {
  let text = message;
  // drizzle: "Failed query: <sql with $1 placeholders>\nparams: <the values>"
  const params = text.search(/\n?params:/);
  if (params >= 0) text = `${text.slice(0, params)} (parameters not logged)`;
  text = text.replace(EMAIL, '[email]');
  return text.length > MAX_MESSAGE ? `${text.slice(0, MAX_MESSAGE)}…` : text;
}

/** The stack's frames only: the first lines repeat the message, which may hold data. */
function framesOnly(stack: string | undefined): string {
  return (stack ?? '')
    .split('\n')
    .filter((line) => /^\s+at /.test(line))
    .join('\n');
}

export interface SafeError {
  [key: string]: unknown;
  type: string;
  message: string;
  code?: string;
  statusCode?: number;
  stack: string;
  cause?: SafeError;
}

/** The logger's `err` serializer (also given plain messages: the job worker logs those). */
export function safeError(err: unknown, depth = 0): SafeError {
  if (!(err instanceof Error)) return { type: typeof err, message: redactMessage(String(err)), stack: '' };
  const e = err as Error & { code?: unknown; statusCode?: unknown; cause?: unknown };
  return {
    type: e.constructor?.name || e.name || 'Error',
    message: redactMessage(e.message ?? ''),
    ...(typeof e.code === 'string' || typeof e.code === 'number' ? { code: String(e.code) } : {}),
    ...(typeof e.statusCode === 'number' ? { statusCode: e.statusCode } : {}),
    stack: framesOnly(e.stack),
    ...(e.cause !== undefined && depth < 3 ? { cause: safeError(e.cause, depth + 1) } : {}),
  };
}

const ID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;

/**
 * A request URL as access logs keep it: session and recording ids are the capabilities that
 * open them (SECURITY.md), so every id in the path or query becomes `:id`.
 */
export function redactUrl(url: string): string {
  return url.replace(ID, ':id');
}

/** What an access-log line says about a request (Fastify's fields, the URL without ids). */
export function safeRequest(req: {
  method?: string;
  url?: string;
  host?: string;
  ip?: string;
  socket?: { remotePort?: number } | null;
}) {
  return {
    method: req.method,
    url: req.url === undefined ? undefined : redactUrl(req.url),
    host: req.host,
    remoteAddress: req.ip,
    remotePort: req.socket ? req.socket.remotePort : undefined,
  };
}

/** Logger serializers for every Fastify logger this app builds. */
export const logSerializers = { err: (err: unknown) => safeError(err), req: safeRequest };
