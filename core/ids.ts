/** The ids the app hands out (sessions, recordings, feedback, outbox) are UUIDs. */
export const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Ids come from URLs; anything that is not a UUID cannot name a stored row. */
export function isUuid(id: string): boolean {
  return UUID_PATTERN.test(id);
}
