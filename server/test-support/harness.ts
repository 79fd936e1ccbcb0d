import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { loadConfig } from '../env';
import { createServer, type Server } from '../app';
import { openDatabase, type Database } from '../db/client';

export type DbKind = 'pglite' | 'postgres';

/**
 * Integration tests run on embedded PGlite always, and on PostgreSQL too when
 * TEST_DATABASE_URL points at a server (`.ci/run` starts one).
 */
export const dbKinds: DbKind[] = process.env.TEST_DATABASE_URL ? ['pglite', 'postgres'] : ['pglite'];

export const sharedDir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../../../shared');

export interface TestServer {
  url: string;
  server: Server;
  dataDir: string;
  databaseUrl?: string;
  close(opts?: { keepData?: boolean }): Promise<void>;
}

/** A fresh, empty PostgreSQL database on the test server; dropped by the returned function. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const admin = process.env.TEST_DATABASE_URL;
  if (!admin) throw new Error('TEST_DATABASE_URL is not set');
  const name = `doorstep_t_${randomUUID().replace(/-/g, '').slice(0, 12)}`;
  const client = new pg.Client({ connectionString: admin });
  await client.connect();
  await client.query(`create database ${name}`);
  await client.end();
  const url = new URL(admin);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: admin });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
    },
  };
}

/** A database of the given kind in a fresh data folder; `close` removes the folder and drops the database. */
export async function openTestDatabase(
  kind: DbKind,
  prefix: string,
): Promise<{ database: Database; close(): Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  const pgDb = kind === 'postgres' ? await createTestDatabase() : null;
  const database = await openDatabase({ databaseUrl: pgDb?.url, dataDir });
  return {
    database,
    close: async () => {
      await database.close();
      await pgDb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Polls `probe` until it returns something truthy, and returns that; fails after `timeoutMs`. */
export async function waitFor<T>(
  probe: () => Promise<T | null | undefined | false> | T | null | undefined | false,
  what: string,
  timeoutMs = 30_000,
  intervalMs = 100,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`Timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, intervalMs));
  }
}

const RATE_LIMITS_OFF: Record<string, string> = {
  RATE_LIMIT_UPLOAD: '0',
  RATE_LIMIT_COACHING: '0',
  RATE_LIMIT_VOICE: '0',
  RATE_LIMIT_FEEDBACK: '0',
  RATE_LIMIT_LEADS: '0',
  RATE_LIMIT_SESSIONS: '0',
  RATE_LIMIT_TRANSCRIPTS: '0',
  RATE_LIMIT_RETRY: '0',
  RATE_LIMIT_EDITS: '0',
  RATE_LIMIT_REPORTS: '0',
  // Each client's share of the transcription queue (tests of the shares set their own).
  MAX_QUEUED_RECORDINGS: '0',
  AUDIO_MINUTES_PER_HOUR: '0',
  RATE_LIMIT_READS: '0',
  RATE_LIMIT_SIGN_IN: '0',
  RATE_LIMIT_ACCOUNT: '0',
  SIGN_IN_LINKS_PER_ADDRESS: '0',
  SIGN_IN_LINKS_PER_CLIENT: '0',
  // The per-address caps too: suites open many connections and calls, and send typed turns
  // faster than a person, from one address. Their own tests set them.
  MAX_CONNECTIONS_PER_CLIENT: '0',
  MAX_CALLS_PER_CLIENT: '0',
  TURN_INTERVAL_MS: '0',
  FEEDBACK_PER_RECIPIENT_PER_DAY: '0',
};

/** Starts the real server in this process on a free port with its own data folder. */
export async function startTestServer(
  opts: {
    db?: DbKind;
    env?: Record<string, string>;
    dataDir?: string;
    databaseUrl?: string;
    /** Receives the server's log lines (set LOG_LEVEL in env too). */
    logStream?: { write(line: string): void };
  } = {},
): Promise<TestServer> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-test-'));
  let databaseUrl = opts.databaseUrl;
  let drop: (() => Promise<void>) | undefined;
  if (opts.db === 'postgres' && !databaseUrl) {
    const created = await createTestDatabase();
    databaseUrl = created.url;
    drop = created.drop;
  }
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: '0',
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'silent',
    MODELS_DIR: path.join(sharedDir, 'models'),
    // Suites call the limited routes many times from one address; tests of the limits set their own.
    ...RATE_LIMITS_OFF,
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    ...opts.env,
  });
  const server = await createServer(config, { logStream: opts.logStream });
  const url = await server.listen();
  return {
    url,
    server,
    dataDir,
    databaseUrl,
    async close(closeOpts) {
      await server.close();
      if (!closeOpts?.keepData) {
        if (drop) await drop();
        fs.rmSync(dataDir, { recursive: true, force: true });
      }
    },
  };
}

/** JSON helper for API tests. */
export async function api<T = any>(
  base: string,
  method: string,
  url: string,
  body?: unknown,
): Promise<{ status: number; body: T; headers: Headers }> {
  const res = await fetch(base + url, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: any = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON
  }
  return { status: res.status, body: parsed, headers: res.headers };
}
