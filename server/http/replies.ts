import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance } from 'fastify';
import { ZodError } from 'zod';
import { MAX_AUDIO_BYTES } from '../../core/constants';
import type { Config } from '../env';
import { HttpError } from '../errors';

/**
 * Every failure leaves as `{error: {code, message}}` (docs/api.md): the app's own errors, zod's,
 * Fastify's and its plugins' (reworded so a client developer knows what to fix), requests too
 * broken for HTTP parsing, and unexpected errors (a 500 with a generic message, logged whole).
 */

/** Messages the multipart parser (busboy) uses for bodies that are not a valid form. */
const MULTIPART_PARSE_ERROR =
  /^(Unexpected end of (multipart data|form|file)|Malformed part header|Multipart: Boundary not found|Part terminated early|Malformed urlencoded form)/;

export function errorBody(code: string, message: string) {
  return { error: { code, message } };
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round(bytes / 1024 / 1024)} MB` : `${Math.round(bytes / 1024)} KB`;
}

/** Fastify's and its plugins' own 4xx errors, reworded so a client developer knows what to fix. */
function describeClientError(
  err: FastifyError,
  config: Config,
): { status: number; code: string; message: string } {
  const status = err.statusCode ?? 400;
  switch (err.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return {
        status: 413,
        code: 'payload_too_large',
        message: `The request body is larger than the ${formatBytes(config.BODY_LIMIT_BYTES)} limit.`,
      };
    case 'FST_REQ_FILE_TOO_LARGE':
      return {
        status: 413,
        code: 'payload_too_large',
        message: `The file is larger than the ${formatBytes(MAX_AUDIO_BYTES)} limit.`,
      };
    case 'FST_FILES_LIMIT':
      return {
        status: 400,
        code: 'one_file_per_upload',
        message: 'Send one recording per upload. This upload had more than one file.',
      };
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return {
        status: 413,
        code: 'payload_too_large',
        message: `Too many parts in the form: ${err.message}`,
      };
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return {
        status: 415,
        code: 'unsupported_media_type',
        message: `${err.message}. Send JSON with Content-Type: application/json (uploads: multipart/form-data).`,
      };
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return { status: 400, code: 'invalid_json', message: 'The body is empty but Content-Type says JSON.' };
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
      return { status: 400, code: 'invalid_json', message: `The body is not valid JSON: ${err.message}` };
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return { status: 400, code: 'bad_request', message: 'Content-Length does not match the body.' };
    case 'FST_PROTO_VIOLATION':
    case 'FST_ERR_CTP_INVALID_TYPE':
      return { status: 400, code: 'bad_request', message: err.message };
    default:
      break;
  }
  if (err.name === 'SyntaxError' || /JSON/.test(err.message)) {
    return { status: 400, code: 'invalid_json', message: `The body is not valid JSON: ${err.message}` };
  }
  const code =
    typeof err.code === 'string' && /^[a-z][a-z_]*$/.test(err.code)
      ? err.code
      : status === 413
        ? 'payload_too_large'
        : status === 415
          ? 'unsupported_media_type'
          : status === 429
            ? 'rate_limited'
            : status === 404
              ? 'not_found'
              : 'bad_request';
  return { status, code, message: err.message || 'Bad request' };
}

/** Requests too broken for HTTP parsing still get the API's JSON error shape. */
export function clientErrorHandler(err: NodeJS.ErrnoException, socket: Duplex): void {
  // Requests too broken for HTTP parsing still get the API's JSON error shape.
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const tooLarge = err.code === 'HPE_HEADER_OVERFLOW';
  const timedOut = err.code === 'ERR_HTTP_REQUEST_TIMEOUT';
  const status = tooLarge ? 431 : timedOut ? 408 : 400;
  const body = JSON.stringify(
    errorBody(
      tooLarge ? 'headers_too_large' : timedOut ? 'request_timeout' : 'bad_request',
      tooLarge
        ? 'The request headers are too large.'
        : timedOut
          ? 'The request took too long to arrive.'
          : 'The request is not valid HTTP.',
    ),
  );
  const reason = tooLarge ? 'Request Header Fields Too Large' : timedOut ? 'Request Timeout' : 'Bad Request';
  socket.end(
    `HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\n` +
      `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
  );
}

/** Errors Fastify raises before a route runs (a URL it cannot decode). */
export function frameworkErrors(err: FastifyError, _request: unknown, reply: any): void {
  const message =
    err.code === 'FST_ERR_BAD_URL' ? 'The URL is not valid (bad percent-encoding).' : err.message;
  void reply.status(400).send(errorBody('bad_request', message));
}

/** The app's error handler, and a clear 415 for plain text (the API speaks JSON and multipart). */
export function registerErrorReplies(app: FastifyInstance, config: Config): void {
  app.setErrorHandler((err: any, request, reply) => {
    if (err instanceof HttpError) {
      // A dependency that did not answer (storage): the client is told to retry, the operator why.
      if (err.statusCode >= 500) request.log.warn({ err }, 'request could not be served');
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
      const described = describeClientError(err, config);
      return reply.status(described.status).send(errorBody(described.code, described.message));
    }
    if (status >= 500 && err instanceof Error && MULTIPART_PARSE_ERROR.test(err.message)) {
      // The form parser rejects a broken body with a plain Error; the client sent it, so it is a 400.
      return reply
        .status(400)
        .send(errorBody('invalid_multipart', `The upload form could not be read (${err.message}).`));
    }
    request.log.error({ err }, 'request failed');
    if (status === 503) {
      return reply
        .status(503)
        .send(errorBody('unavailable', 'The server is busy or restarting. Please try again shortly.'));
    }
    return reply
      .status(500)
      .send(errorBody('internal_error', 'Something went wrong on our side. Please try again.'));
  });

  // The API speaks JSON (and multipart for uploads); plain text gets a clear 415 instead of a confusing 400.
  app.removeContentTypeParser('text/plain');
}
