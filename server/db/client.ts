import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { sql } from 'drizzle-orm';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import * as schema from './schema';

export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  driver: 'pglite' | 'postgres';
  /** Human description for /api/health (no credentials). */
  describe: string;
  ping(): Promise<void>;
  /**
   * One raw statement ($1, $2... for `values`), its rows. With `name`, PostgreSQL parses and
   * plans it once per connection (the same name must always carry the same text): for the
   * busiest small statements, where drizzle's query building costs more than the query.
   */
  query(text: string, values: unknown[], name?: string): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

const defaultMigrations = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

/**
 * PostgreSQL when a URL is given, otherwise embedded PGlite persisted under dataDir/db.
 * Migrations are applied on open.
 */
export async function openDatabase(opts: {
  databaseUrl?: string;
  dataDir: string;
  poolSize?: number;
  /** Another migrations folder (tests of the migrations themselves). */
  migrationsFolder?: string;
}): Promise<Database> {
  const migrationsFolder = opts.migrationsFolder ?? defaultMigrations;
  if (opts.databaseUrl) {
    const { default: pg } = await import('pg');
    const { drizzle } = await import('drizzle-orm/node-postgres');
    const { migrate } = await import('drizzle-orm/node-postgres/migrator');
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    pool.on('error', () => {
      // An idle client lost its connection; the pool replaces it on next use.
    });
    const db = drizzle(pool, { schema }) as unknown as Db;
    await migrate(drizzle(pool, { schema }), { migrationsFolder });
    const url = new URL(opts.databaseUrl);
    return {
      db,
      driver: 'postgres',
      describe: `PostgreSQL at ${url.hostname}${url.port ? ':' + url.port : ''}${url.pathname}`,
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      query: async (text, values, name) =>
        (await pool.query(name ? { name, text, values } : { text, values })).rows,
      close: () => pool.end(),
    };
  }
  const { PGlite } = await import('@electric-sql/pglite');
  const { drizzle } = await import('drizzle-orm/pglite');
  const { migrate } = await import('drizzle-orm/pglite/migrator');
  const dir = path.join(opts.dataDir, 'db');
  fs.mkdirSync(dir, { recursive: true });
  const client = await PGlite.create(dir);
  const pgliteDb = drizzle(client, { schema });
  await migrate(pgliteDb, { migrationsFolder });
  const db = pgliteDb as unknown as Db;
  return {
    db,
    driver: 'pglite',
    describe: `Embedded PGlite in ${dir}`,
    ping: async () => {
      await db.execute(sql`select 1`);
    },
    query: async (text, values) => (await client.query<Record<string, unknown>>(text, values)).rows,
    close: () => client.close(),
  };
}
