import { getTableColumns, type Table } from 'drizzle-orm';

/** The rows of a raw `db.execute` result, on PGlite and on node-postgres alike. */
export function rawRows(result: unknown): Record<string, unknown>[] {
  return ((result as { rows?: unknown[] }).rows ?? result) as Record<string, unknown>[];
}

/**
 * A row a raw statement returned (database column names) as the table's typed row, each value
 * mapped as drizzle maps it (timestamps to Dates, JSON parsed where the driver left text).
 */
export function tableRow<T extends Table>(table: T, raw: Record<string, unknown>): T['$inferSelect'] {
  const out: Record<string, unknown> = {};
  for (const [key, column] of Object.entries(getTableColumns(table))) {
    const value = raw[column.name];
    out[key] = value === null || value === undefined ? null : column.mapFromDriverValue(value);
  }
  return out as T['$inferSelect'];
}
