/** An error that becomes a JSON 4xx/5xx `{ error: { code, message } }` with a clear message. */
export class HttpError extends Error {
  constructor(
    readonly statusCode: number,
    readonly code: string,
    message: string,
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
  }
}

export const notFound = (what: string) => new HttpError(404, 'not_found', `${what} not found`);
export const badRequest = (message: string, code = 'bad_request') => new HttpError(400, code, message);
