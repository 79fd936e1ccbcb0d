import fs from 'node:fs';
import path from 'node:path';

/** Rows a query returned, whichever driver ran it. */
type Query = (sql: string) => Promise<any[]>;

/**
 * Opens the database with the B-tree checker (amcheck) and verifies every index against its
 * table, then returns a query function for application-level checks. PGlite needs the
 * extension loaded at open; PostgreSQL ships it in contrib.
 */
export async function openForIntegrity(opts: {
  databaseUrl?: string;
  dataDir: string;
}): Promise<{ query: Query; problems: string[]; close(): Promise<void> }> {
  let query: Query;
  let close: () => Promise<void>;
  if (opts.databaseUrl) {
    const { default: pg } = await import('pg');
    const client = new pg.Client({ connectionString: opts.databaseUrl });
    await client.connect();
    query = async (sql) => (await client.query(sql)).rows;
    close = () => client.end();
  } else {
    const { PGlite } = await import('@electric-sql/pglite');
    const { amcheck } = await import('@electric-sql/pglite/contrib/amcheck');
    const db = await PGlite.create(path.join(opts.dataDir, 'db'), { extensions: { amcheck } });
    query = async (sql) => (await db.query(sql)).rows as any[];
    close = () => db.close();
  }
  const problems: string[] = [];
  await query('create extension if not exists amcheck');
  const indexes = await query(`
    select c.relname as name, c.oid::int as oid from pg_index i
    join pg_class c on c.oid = i.indexrelid
    join pg_am a on a.oid = c.relam
    join pg_namespace n on n.oid = c.relnamespace
    where n.nspname = 'public' and a.amname = 'btree'`);
  for (const idx of indexes) {
    try {
      // heapallindexed: every table row is present in the index.
      await query(`select bt_index_check(${idx.oid}::regclass, true)`);
    } catch (err) {
      problems.push(`index ${idx.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  return { query, problems, close };
}

/** Files the uploads folder holds, without partial (.part) leftovers of interrupted uploads. */
export function storedUploads(dataDir: string): Set<string> {
  const dir = path.join(dataDir, 'uploads');
  if (!fs.existsSync(dir)) return new Set();
  return new Set(fs.readdirSync(dir).filter((f) => !f.endsWith('.part')));
}
