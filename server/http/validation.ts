import type { z } from 'zod';
import { HttpError } from '../errors';

/**
 * Parses a request body with a zod schema and turns the first problem into a 400 whose
 * message names the field, so a client developer can fix the call from the message alone.
 */
export function parseBody<S extends z.ZodType>(schema: S, body: unknown, expected: string): z.infer<S> {
  if (body === undefined || body === null || typeof body !== 'object' || Array.isArray(body)) {
    throw new HttpError(400, 'invalid_request', `Send a JSON object body: ${expected}`);
  }
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
    throw new HttpError(400, 'invalid_request', `${where}${issue?.message ?? 'Invalid request'}`);
  }
  return parsed.data;
}
