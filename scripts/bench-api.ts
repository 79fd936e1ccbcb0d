/**
 * npm run bench:api — load on the real server (a separate process), on embedded PGlite and on
 * PostgreSQL (when TEST_DATABASE_URL or BENCH_DATABASE_URL is set): session creation, transcript
 * save, coaching, audio status polling and a signed-in rep's My progress (PROGRESS_CALLS coached
 * role-plays, default 200) at 10 and 100 connections, and (PostgreSQL only) a manager's team page
 * for TEAM_REPS reps with TEAM_CALLS coached calls each (default 50 x 200) at 1 and 10 connections. Each row also reports the
 * server's CPU time per request (from /proc: the whole process, and its main thread, the rest
 * being worker threads, garbage collection and libuv), which holds on a busy machine where
 * requests per second and latency do not.
 *
 *   BENCH_DURATION_SEC  seconds per row (default 5; --seconds N overrides it)
 *   BENCH_WRITE=1       also rewrite the API section of docs/benchmarks.md (one tree only)
 *
 * Options (after `--`):
 *   --seconds N             seconds per row
 *   --repeats N             run every row N times and report medians (default 1)
 *   --rows a,b              only these rows: create, save, coaching, poll, progress, team
 *   --db pglite,postgres    only these databases
 *   --name NAME             what the summary calls this checkout (default "this tree")
 *   --compare NAME=DIR      also run the server of the checkout in DIR (with its own node_modules)
 *                           under NAME; repeatable. Every tree's server runs side by side and the
 *                           rows alternate between them (A B, then B A), so load from elsewhere on
 *                           the machine falls on both alike; the summary gives each tree's CPU per
 *                           request against the first one's.
 *   SERVER_NODE_FLAGS="--cpu-prof --cpu-prof-dir=DIR"  profiles every server (the pids are printed).
 *
 * npm run bench:api -- --coaching-load: /api/config latency (p50/p95/max) while one client
 * loops new session + longest allowed transcript + coaching at the default per-client limits,
 * and again while it also downloads a coached recording's PDF report at its limit, against the same
 * measurement with no load (BENCH_WRITE=1 records it too).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createTestDatabase, sharedDir } from '../server/test-support/harness';
import { startSmtpSink, type SmtpSink } from '../server/test-support/smtp-sink';
import { projectRoot, ServerProcess, tempDataDir } from './lib/server-process';
import { LIMITS } from '../server/http/route';
import { canonicalDocument } from '../core/coaching-document';
import { parseCoaching } from '../core/coaching-format';
import { sampleCoaching } from '../server/test-support/sample-session';
import { MAX_CALL_TRANSCRIPT_CHARS } from '../core/constants';

/** The value of `--name N` or `--name=N`, or undefined. */
function option(name: string): string | undefined {
  const args = process.argv;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}`) return args[i + 1];
    if (args[i].startsWith(`--${name}=`)) return args[i].slice(name.length + 3);
  }
  return undefined;
}

/** Every value of a repeatable option. */
function options(name: string): string[] {
  const out: string[] = [];
  const args = process.argv;
  for (let i = 0; i < args.length; i++) {
    if (args[i] === `--${name}` && args[i + 1]) out.push(args[i + 1]);
    else if (args[i].startsWith(`--${name}=`)) out.push(args[i].slice(name.length + 3));
  }
  return out;
}

const DURATION_SEC = Number(option('seconds') ?? process.env.BENCH_DURATION_SEC ?? 5);
const REPEATS = Math.max(1, Number(option('repeats') ?? 1));
const ONLY_ROWS = option('rows')?.split(',');
const ONLY_DBS = option('db')?.toLowerCase().split(',');
const CONNECTIONS = [10, 100];
const COACHING_POOL = Number(process.env.BENCH_COACHING_POOL ?? 300);
const PROGRESS_CALLS = Number(process.env.PROGRESS_CALLS ?? 200);
const TEAM_REPS = Number(process.env.TEAM_REPS ?? 50);
const TEAM_CALLS = Number(process.env.TEAM_CALLS ?? 200);

interface Tree {
  name: string;
  root: string;
}

const TREES: Tree[] = [
  { name: option('name') ?? 'this tree', root: projectRoot },
  ...options('compare').map((spec) => {
    const eq = spec.indexOf('=');
    if (eq <= 0) throw new Error(`--compare takes NAME=DIR, got "${spec}"`);
    return { name: spec.slice(0, eq), root: path.resolve(spec.slice(eq + 1)) };
  }),
];

interface Row {
  tree: string;
  db: string;
  scenario: string;
  connections: number;
  rps: number;
  p50: number;
  p95: number;
  p99: number;
  non2xx: number;
  timeouts: number;
  total: number;
  /** Server CPU per request (ms): the whole process, and its main (event-loop) thread. */
  cpuMs: number;
  mainMs: number;
}

const fixture = JSON.parse(
  fs.readFileSync(path.join(sharedDir, 'fixtures/transcripts/dev-02-windows.json'), 'utf8'),
) as { stage: string; durationSec: number; transcript: unknown[] };
const transcriptBody = JSON.stringify({
  transcript: fixture.transcript,
  duration: String(fixture.durationSec),
});

async function json(url: string, method: string, body?: string) {
  const res = await fetch(url, {
    method,
    headers: body ? { 'content-type': 'application/json' } : {},
    body,
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

async function createSessions(base: string, n: number, withTranscript: boolean): Promise<string[]> {
  const ids: string[] = [];
  const batch = 20;
  for (let i = 0; i < n; i += batch) {
    const made = await Promise.all(
      Array.from({ length: Math.min(batch, n - i) }, async () => {
        const { body } = await json(`${base}/api/sessions`, 'POST', JSON.stringify({ stage: fixture.stage }));
        if (withTranscript) await json(`${base}/api/sessions/${body.id}/transcript`, 'PUT', transcriptBody);
        return body.id as string;
      }),
    );
    ids.push(...made);
  }
  return ids;
}

/** An autocannon run, and its 95th-percentile latency (ms) from every response's own time. */
function run(opts: autocannon.Options): Promise<autocannon.Result & { p95: number }> {
  const times: number[] = [];
  return new Promise((resolve, reject) => {
    const instance = autocannon(opts, (err, result) => {
      if (err) return reject(err);
      times.sort((a, b) => a - b);
      resolve({ ...result, p95: Math.round(percentile(times, 95)) });
    });
    instance.on('response', (_client: unknown, _status: number, _bytes: number, ms: number) =>
      times.push(ms),
    );
  });
}

const TICK_MS = 1000 / 100; // USER_HZ on Linux

/** CPU time (ms) of a process so far, and of its main thread, from /proc; null off Linux. */
function cpuTime(pid: number): { total: number; main: number } | null {
  const read = (file: string) => {
    const stat = fs.readFileSync(file, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime are fields 14 and 15 of stat(5); fields[0] here is field 3.
    return (Number(fields[11]) + Number(fields[12])) * TICK_MS;
  };
  try {
    return { total: read(`/proc/${pid}/stat`), main: read(`/proc/${pid}/task/${pid}/stat`) };
  } catch {
    return null;
  }
}

function print(row: Row) {
  console.log(
    `${row.tree.padEnd(11)} ${row.db.padEnd(9)} ${row.scenario.padEnd(18)} c=${String(row.connections).padEnd(4)} ` +
      `${String(row.rps).padStart(6)} req/s  p50 ${String(row.p50).padStart(4)} ms  p95 ${String(row.p95).padStart(4)} ms  p99 ${String(row.p99).padStart(4)} ms` +
      `  CPU ${row.cpuMs.toFixed(2)} ms/req (main ${row.mainMs.toFixed(2)})` +
      `  (${row.total} requests, ${row.non2xx} non-2xx, ${row.timeouts} timeouts/errors)`,
  );
}

async function uploadRecording(base: string): Promise<string | null> {
  const file = fs.readFileSync(path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav'));
  const form = new FormData();
  form.append('stage', 'General');
  form.append('audio', new Blob([file], { type: 'audio/wav' }), 'jfk.wav');
  const res = await fetch(`${base}/api/audio/upload`, { method: 'POST', body: form });
  if (res.status !== 201) return null;
  const body = (await res.json()) as { sessionId?: string; id?: string };
  return body.sessionId ?? body.id ?? null;
}

/** One tree's server on one database, with what the rows need prepared once. */
interface Target {
  tree: string;
  db: string;
  server: ServerProcess;
  coachOk: boolean;
  sessions: string[];
  audioId: string | null;
  /** Receives the sign-in link of the progress rows. */
  sink: SmtpSink;
  /** The PostgreSQL database the server uses (the team row seeds it directly); null on PGlite. */
  databaseUrl: string | null;
  cleanup: () => Promise<void>;
}

async function startTarget(tree: Tree, db: string): Promise<Target> {
  const dir = tempDataDir('doorstep-bench-');
  const sink = await startSmtpSink();
  // Sign-in (the progress rows) needs a mail server and, in production, PUBLIC_URL for its links.
  const env: Record<string, string> = {
    DATA_DIR: dir,
    SMTP_URL: sink.url,
    PUBLIC_URL: 'http://bench.invalid',
  };
  let drop = async () => {};
  if (db === 'Postgres') {
    const created = await createTestDatabase();
    env.DATABASE_URL = created.url;
    drop = created.drop;
  }
  const server = await ServerProcess.create(
    {
      ...env,
      // Load from one address must not trip the per-client limits, but the limiters still run
      // (their cost is part of what is measured).
      ...Object.fromEntries(Object.values(LIMITS).map((l) => [l.setting, '1000000000'])),
      // The per-address connection count too (100 connections come from one address here).
      MAX_CONNECTIONS_PER_CLIENT: '1000000000',
    },
    tree.root,
  );
  const cleanup = async () => {
    await server.stop('SIGTERM');
    await sink.stop();
    await drop();
    fs.rmSync(dir, { recursive: true, force: true });
  };
  try {
    await server.start();
    const base = server.url;
    const health = (await json(`${base}/api/health`, 'GET')).body;
    // `engines` in checkouts from before the public health answer was trimmed.
    const engines: any[] = health?.capabilities ?? health?.engines ?? [];
    const coachOk = engines.some((e) => e.capability === 'coach' && e.ok);
    const sessions = await createSessions(base, 500, false);
    // Warm-up: the JIT, the database's caches and (where coaching runs on worker threads) the
    // threads and their models, so the first measured row does not pay for them.
    await createSessions(base, 200, true);
    if (coachOk) {
      for (const id of await createSessions(base, 10, true)) {
        await json(`${base}/api/sessions/${id}/coaching`, 'POST');
      }
    }
    // Upload now and wait for the transcription, so no row shares the cores with it.
    const audioId = await uploadRecording(base);
    if (audioId) {
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        const { body } = await json(`${base}/api/audio/${audioId}`, 'GET');
        if (body?.status === 'transcribed' || body?.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
    console.log(`${tree.name.padEnd(11)} ${db.padEnd(9)} server pid ${server.pid} (${tree.root})`);
    return {
      tree: tree.name,
      db,
      server,
      coachOk,
      sessions,
      audioId,
      sink,
      databaseUrl: env.DATABASE_URL ?? null,
      cleanup,
    };
  } catch (err) {
    await cleanup();
    throw err;
  }
}

/**
 * A rep signed in through the real link flow with PROGRESS_CALLS coached role-plays: the
 * cookie, or why the row is skipped.
 */
async function signedInRep(t: Target): Promise<string> {
  const base = t.server.url;
  const cookie = await signIn(t, `bench-${Date.now()}@example.com`);
  if (!cookie.startsWith('doorstep_signin=')) return cookie;
  const headers = { cookie, 'content-type': 'application/json' };
  for (let i = 0; i < PROGRESS_CALLS; i += 4) {
    await Promise.all(
      Array.from({ length: Math.min(4, PROGRESS_CALLS - i) }, async () => {
        const made = await fetch(`${base}/api/sessions`, {
          method: 'POST',
          headers,
          body: JSON.stringify({ stage: fixture.stage }),
        });
        const id = ((await made.json()) as { id: string }).id;
        await fetch(`${base}/api/sessions/${id}/transcript`, {
          method: 'PUT',
          headers,
          body: transcriptBody,
        });
        if (t.coachOk) await fetch(`${base}/api/sessions/${id}/coaching`, { method: 'POST' });
      }),
    );
  }
  const view = (await (await fetch(`${base}/api/account/progress`, { headers: { cookie } })).json()) as {
    items?: unknown[];
  };
  if (view.items?.length !== PROGRESS_CALLS) return `progress lists ${view.items?.length} calls`;
  return cookie;
}

/** A cookie signed in to `email` through the real link flow, or why not. */
async function signIn(t: Target, email: string): Promise<string> {
  const base = t.server.url;
  const asked = await json(`${base}/api/account/sign-in-link`, 'POST', JSON.stringify({ email }));
  if (asked.status !== 202) return `no sign-in here (${asked.status})`;
  let token: string | undefined;
  for (const deadline = Date.now() + 30_000; !token && Date.now() < deadline;) {
    const mail = (await t.sink.messages()).find((m) => JSON.stringify(m.to ?? '').includes(email));
    token = mail?.text?.match(/token=([A-Za-z0-9_-]{43})/)?.[1];
    if (!token) await new Promise((r) => setTimeout(r, 200));
  }
  if (!token) return 'the sign-in email did not arrive';
  const res = await fetch(`${base}/api/account/sign-in`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ token }),
  });
  const cookie = res.headers
    .getSetCookie()
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('doorstep_signin='));
  return cookie ?? `sign-in failed (${res.status})`;
}

/**
 * A manager signed in through the real link flow with a team of TEAM_REPS reps, each with
 * TEAM_CALLS coached role-plays over the past months (scores varied, half of them unlocked),
 * seeded straight into PostgreSQL: the cookie and team id, or why the row is skipped.
 */
async function seededTeam(t: Target): Promise<{ cookie: string; teamId: string } | string> {
  if (!t.databaseUrl) return 'the team is seeded in the database directly (PostgreSQL only)';
  const base = t.server.url;
  const cookie = await signIn(t, `bench-manager-${Date.now()}@example.com`);
  if (!cookie.startsWith('doorstep_signin=')) return cookie;
  const made = await fetch(`${base}/api/teams`, {
    method: 'POST',
    headers: { cookie, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'Bench team' }),
  });
  if (made.status !== 201) return `no teams here (${made.status})`;
  const teamId = ((await made.json()) as { id: string }).id;
  const doc = canonicalDocument(parseCoaching(sampleCoaching())!);
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: t.databaseUrl });
  await client.connect();
  try {
    await client.query(
      `insert into accounts (email) select 'bench-rep-' || g || '@example.com' from generate_series(1, $1::int) g`,
      [TEAM_REPS],
    );
    await client.query(
      `insert into team_members (team_id, account_id, role)
         select $1::uuid, id, 'rep' from accounts where email like 'bench-rep-%'`,
      [teamId],
    );
    // Each call's six scores differ by rep, call and section (0-10), as real coaching does.
    await client.query(
      `insert into sessions (stage, started_at, transcript, coaching, account_id)
         select (array['Windows','HVAC','Roofing','Flooring','General'])[1 + g % 5],
             now() - make_interval(hours => g * 9),
             $1::jsonb,
             jsonb_set($2::jsonb, '{sections}', (
               select jsonb_agg(jsonb_set(s, '{score}', to_jsonb(abs(hashtext(a.id::text || g || i)) % 11)) order by i)
               from jsonb_array_elements($2::jsonb -> 'sections') with ordinality x(s, i))),
             a.id
           from accounts a cross join generate_series(1, $3::int) g
           where a.email like 'bench-rep-%'`,
      [JSON.stringify(fixture.transcript), JSON.stringify(doc), TEAM_CALLS],
    );
    await client.query(
      `insert into leads (session_id, session_kind, email, consent)
         select s.id, 'roleplay', 'bench-lead@example.com', true
           from sessions s join accounts a on a.id = s.account_id
           where a.email like 'bench-rep-%' and abs(hashtext(s.id::text)) % 2 = 0`,
    );
    // As autovacuum leaves weeks-old rows: all-visible, so the page can read them from the index alone.
    await client.query('vacuum analyze');
  } finally {
    await client.end();
  }
  const page = (await (await fetch(`${base}/api/teams/${teamId}`, { headers: { cookie } })).json()) as {
    reps?: { calls: number }[];
  };
  const calls = page.reps?.reduce((n, r) => n + r.calls, 0);
  if (page.reps?.length !== TEAM_REPS || calls !== TEAM_REPS * TEAM_CALLS) {
    return `the team page lists ${page.reps?.length} reps and ${calls} calls`;
  }
  return { cookie, teamId };
}

interface Scenario {
  key: 'create' | 'save' | 'coaching' | 'poll' | 'progress' | 'team';
  name: string;
  connections: number;
  /** The load for one target, or a reason it is skipped. Preparation here is not measured. */
  prepare(t: Target): Promise<autocannon.Options | string>;
}

/** Each target's team, seeded once for every round. */
const seededTeams = new Map<Target, Promise<{ cookie: string; teamId: string } | string>>();

function scenarios(): Scenario[] {
  const out: Scenario[] = [];
  for (const c of CONNECTIONS) {
    out.push({
      key: 'create',
      name: 'create session',
      connections: c,
      prepare: async (t) => ({
        url: `${t.server.url}/api/sessions`,
        method: 'POST',
        connections: c,
        duration: DURATION_SEC,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ stage: 'General' }),
      }),
    });
  }
  for (const c of CONNECTIONS) {
    out.push({
      key: 'save',
      name: 'save transcript',
      connections: c,
      prepare: async (t) => {
        let i = 0;
        return {
          url: t.server.url,
          connections: c,
          duration: DURATION_SEC,
          requests: [
            {
              method: 'PUT',
              headers: { 'content-type': 'application/json' },
              setupRequest: (req) => ({
                ...req,
                path: `/api/sessions/${t.sessions[i++ % t.sessions.length]}/transcript`,
                body: transcriptBody,
              }),
            },
          ],
        };
      },
    });
  }
  for (const c of CONNECTIONS) {
    out.push({
      key: 'coaching',
      name: 'coaching',
      connections: c,
      prepare: async (t) => {
        if (!t.coachOk) return 'no coach engine is available';
        // Every request coaches a fresh transcript (stored coaching would be answered from the database).
        const fresh = await createSessions(t.server.url, COACHING_POOL, true);
        let i = 0;
        return {
          url: t.server.url,
          connections: c,
          amount: fresh.length,
          requests: [
            {
              method: 'POST',
              setupRequest: (req) => ({ ...req, path: `/api/sessions/${fresh[i++]}/coaching` }),
            },
          ],
        };
      },
    });
  }
  for (const c of CONNECTIONS) {
    out.push({
      key: 'poll',
      name: 'audio status poll',
      connections: c,
      prepare: async (t) =>
        t.audioId
          ? { url: `${t.server.url}/api/audio/${t.audioId}`, connections: c, duration: DURATION_SEC }
          : 'the upload route is not available',
    });
  }
  const reps = new Map<Target, Promise<string>>();
  for (const c of CONNECTIONS) {
    out.push({
      key: 'progress',
      name: 'my progress',
      connections: c,
      prepare: async (t) => {
        if (!reps.has(t)) reps.set(t, signedInRep(t));
        const cookie = await reps.get(t)!;
        if (!cookie.startsWith('doorstep_signin=')) return cookie;
        return {
          url: `${t.server.url}/api/account/progress`,
          connections: c,
          duration: DURATION_SEC,
          headers: { cookie },
        };
      },
    });
  }
  for (const c of [1, 10]) {
    out.push({
      key: 'team',
      name: `team page ${TEAM_REPS}x${TEAM_CALLS}`,
      connections: c,
      prepare: async (t) => {
        if (!seededTeams.has(t)) seededTeams.set(t, seededTeam(t));
        const team = await seededTeams.get(t)!;
        if (typeof team === 'string') return team;
        return {
          url: `${t.server.url}/api/teams/${team.teamId}`,
          connections: c,
          duration: DURATION_SEC,
          headers: { cookie: team.cookie },
        };
      },
    });
  }
  return out.filter((s) => !ONLY_ROWS || ONLY_ROWS.includes(s.key));
}

async function measure(t: Target, s: Scenario): Promise<Row | null> {
  const load = await s.prepare(t);
  if (typeof load === 'string') {
    console.log(`${t.tree.padEnd(11)} ${t.db.padEnd(9)} ${s.name.padEnd(18)} skipped: ${load}`);
    return null;
  }
  const pid = t.server.pid!;
  const before = cpuTime(pid);
  const r = await run(load);
  const after = cpuTime(pid);
  const requests = Math.max(1, r.requests.total);
  const row: Row = {
    tree: t.tree,
    db: t.db,
    scenario: s.name,
    connections: s.connections,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p95: r.p95,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    timeouts: r.timeouts + r.errors,
    total: r.requests.total,
    cpuMs: before && after ? (after.total - before.total) / requests : NaN,
    mainMs: before && after ? (after.main - before.main) / requests : NaN,
  };
  print(row);
  return row;
}

/** Every tree's server on one database, the rows alternating between them, `REPEATS` times. */
async function benchDb(db: string): Promise<Row[]> {
  const targets: Target[] = [];
  const rows: Row[] = [];
  try {
    for (const tree of TREES) targets.push(await startTarget(tree, db));
    for (let rep = 0; rep < REPEATS; rep++) {
      if (REPEATS > 1) console.log(`-- ${db}, round ${rep + 1} of ${REPEATS}`);
      for (const s of scenarios()) {
        const order = rep % 2 === 0 ? targets : [...targets].reverse();
        for (const t of order) {
          const row = await measure(t, s);
          if (row) rows.push(row);
        }
      }
    }
  } finally {
    for (const t of targets) await t.cleanup();
  }
  return rows;
}

function median(values: number[]): number {
  const sorted = values.filter((v) => Number.isFinite(v)).sort((a, b) => a - b);
  if (!sorted.length) return NaN;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
}

/** One row per tree, database, scenario and connections: the median of its repeats. */
function medians(rows: Row[]): Row[] {
  const groups = new Map<string, Row[]>();
  for (const r of rows) {
    const key = `${r.db}\u0001${r.scenario}\u0001${r.connections}\u0001${r.tree}`;
    groups.set(key, [...(groups.get(key) ?? []), r]);
  }
  return [...groups.values()].map((g) => ({
    ...g[0],
    rps: Math.round(median(g.map((r) => r.rps))),
    p50: median(g.map((r) => r.p50)),
    p95: median(g.map((r) => r.p95)),
    p99: median(g.map((r) => r.p99)),
    non2xx: median(g.map((r) => r.non2xx)),
    timeouts: median(g.map((r) => r.timeouts)),
    total: median(g.map((r) => r.total)),
    cpuMs: median(g.map((r) => r.cpuMs)),
    mainMs: median(g.map((r) => r.mainMs)),
  }));
}

const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(2) : '-');

function markdown(rows: Row[]): string {
  const compare = TREES.length > 1;
  const first = new Map(
    rows
      .filter((r) => r.tree === TREES[0].name)
      .map((r) => [`${r.db}\u0001${r.scenario}\u0001${r.connections}`, r.cpuMs]),
  );
  const vs = (r: Row) => {
    const base = first.get(`${r.db}\u0001${r.scenario}\u0001${r.connections}`);
    if (r.tree === TREES[0].name || !base || !Number.isFinite(r.cpuMs)) return '';
    const pct = Math.round((r.cpuMs / base - 1) * 100);
    return `${pct >= 0 ? '+' : ''}${pct}%`;
  };
  const lines = [
    `| ${compare ? 'tree | ' : ''}database | scenario | connections | requests/s | p50 ms | p95 ms | p99 ms | non-2xx | timeouts | CPU ms/request (main thread)${compare ? ` | CPU vs ${TREES[0].name}` : ''} |`,
    `| ${compare ? '--- | ' : ''}--- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---:${compare ? ' | ---:' : ''} |`,
    ...rows.map(
      (r) =>
        `| ${compare ? `${r.tree} | ` : ''}${r.db} | ${r.scenario} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.non2xx} | ${r.timeouts} | ${ms(r.cpuMs)} (${ms(r.mainMs)})${compare ? ` | ${vs(r)}` : ''} |`,
    ),
  ];
  return lines.join('\n');
}

const START = '<!-- bench:api:start -->';
const END = '<!-- bench:api:end -->';

function writeDocs(rows: Row[]) {
  const file = path.join(projectRoot, 'docs/benchmarks.md');
  const existing = fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '# Benchmarks\n';
  const block = [
    START,
    `Measured ${new Date().toISOString().slice(0, 10)} on ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}),`,
    `Node ${process.version}, ${DURATION_SEC} s per run${REPEATS > 1 ? `, medians of ${REPEATS} runs` : ''}; coaching runs ${COACHING_POOL} fresh transcripts per row.`,
    '',
    markdown(rows),
    END,
  ].join('\n');
  const next = existing.includes(START)
    ? existing.replace(new RegExp(`${START}[\\s\\S]*?${END}`), block)
    : `${existing.trimEnd()}\n\n## API throughput (npm run bench:api)\n\n${block}\n`;
  fs.writeFileSync(file, next);
  console.log(`Wrote ${path.relative(projectRoot, file)}`);
}

interface LoadRow {
  db: string;
  load: string;
  requests: number;
  p50: number;
  p95: number;
  max: number;
  coached: number;
  refused: number;
  /** Coaching reports (PDF) downloaded during the row. */
  reports: number;
  /** The server's own event-loop delay over the row (p99 and max, ms): what other requests wait. */
  loopP99: number;
  loopMax: number;
}

/** Lets the bench read the server's event-loop delay from /metrics (production mode). */
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdefghijklmn';

/**
 * The server's event-loop delay since the previous call (prom-client resets its histogram on each
 * scrape). Unlike the /api/config timings it leaves out the client's own waits for the CPU.
 */
async function loopDelay(base: string): Promise<{ loopP99: number; loopMax: number }> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const read = (name: string) => {
    const m = new RegExp(`^doorstep_nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(
      text,
    );
    return m ? Math.round(Number(m[1]) * 10_000) / 10 : NaN;
  };
  return { loopP99: read('p99'), loopMax: read('max') };
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

/** The longest transcript the API accepts (a 5-minute call's worth), made of the fixture's turns. */
function longestTranscript(): string {
  const entries: { role: string; transcript: string; timestamp: number }[] = [];
  const turns = fixture.transcript as { role: string; transcript: string }[];
  let chars = 0;
  for (let i = 0; ; i++) {
    const t = turns[i % turns.length];
    if (chars + t.transcript.length > MAX_CALL_TRANSCRIPT_CHARS) break;
    chars += t.transcript.length;
    entries.push({ role: t.role, transcript: t.transcript, timestamp: i * 1000 });
  }
  return JSON.stringify({ transcript: entries, duration: '300' });
}

/** /api/config from 4 concurrent clients for DURATION_SEC, each request timed on its own. */
async function measureConfig(
  base: string,
): Promise<{ requests: number; p50: number; p95: number; max: number }> {
  const times: number[] = [];
  const until = performance.now() + DURATION_SEC * 1000;
  await Promise.all(
    Array.from({ length: 4 }, async () => {
      while (performance.now() < until) {
        const started = performance.now();
        const res = await fetch(`${base}/api/config`);
        await res.arrayBuffer();
        times.push(performance.now() - started);
      }
    }),
  );
  times.sort((a, b) => a - b);
  const round = (n: number) => Math.round(n * 10) / 10;
  return {
    requests: times.length,
    p50: round(percentile(times, 50)),
    p95: round(percentile(times, 95)),
    max: round(times[times.length - 1] ?? 0),
  };
}

/** An uploaded fixture, transcribed and coached, so its report has every part; null if it fails. */
async function coachedRecording(base: string): Promise<string | null> {
  const id = await uploadRecording(base);
  if (!id) return null;
  const until = Date.now() + 180_000;
  while (Date.now() < until) {
    const res = await json(`${base}/api/audio/${id}`, 'GET');
    if (res.body?.status === 'transcribed') break;
    if (res.body?.status === 'failed') return null;
    await new Promise((r) => setTimeout(r, 500));
  }
  const coached = await json(`${base}/api/audio/${id}/coaching`, 'POST');
  return coached.status === 200 ? id : null;
}

/**
 * /api/config timings while one client loops new session + `body` + coaching, and (with a
 * recording id) downloads that recording's report, each as fast as its limits allow.
 */
async function underLoad(base: string, body: string, recording: string | null) {
  let stop = false;
  let coached = 0;
  let refused = 0;
  let reports = 0;
  const pause = () => new Promise((r) => setTimeout(r, 250));
  const coaching = (async () => {
    while (!stop) {
      const created = await json(`${base}/api/sessions`, 'POST', JSON.stringify({ stage: fixture.stage }));
      if (created.status !== 201) {
        refused++;
        await pause();
        continue;
      }
      await json(`${base}/api/sessions/${created.body.id}/transcript`, 'PUT', body);
      const res = await json(`${base}/api/sessions/${created.body.id}/coaching`, 'POST');
      if (res.status === 200) coached++;
      else refused++;
    }
  })();
  const downloads = (async () => {
    while (recording && !stop) {
      const res = await fetch(`${base}/api/audio/${recording}/pdf`);
      await res.arrayBuffer();
      if (res.status === 200) reports++;
      else {
        refused++;
        await pause();
      }
    }
  })();
  await loopDelay(base);
  const measured = await measureConfig(base);
  const loop = await loopDelay(base);
  stop = true;
  await Promise.all([coaching, downloads]);
  return { ...measured, ...loop, coached, refused, reports };
}

/** The per-client limits' window (the server's default RATE_LIMIT_WINDOW_MS). */
const WINDOW_MS = 60_000;

async function coachingLoadOne(db: string, env: Record<string, string>): Promise<LoadRow[]> {
  // Default per-client limits: the loop below is what one address may do.
  const server = await ServerProcess.create({ ...env, METRICS_TOKEN });
  await server.start();
  const base = server.url;
  const rows: LoadRow[] = [];
  try {
    await measureConfig(base); // warm up
    await loopDelay(base);
    const idle = await measureConfig(base);
    rows.push({ db, load: 'none', ...idle, coached: 0, refused: 0, reports: 0, ...(await loopDelay(base)) });
    console.log(`${db.padEnd(9)} idle           p50 ${idle.p50} ms  p95 ${idle.p95} ms  max ${idle.max} ms`);

    const body = longestTranscript();
    // A transcribed, coached recording whose report the client also downloads in the last row.
    const recording = await coachedRecording(base);
    // The coaching threads start and load their models at boot; wait until they answer.
    for (let i = 0; i < 2; i++) {
      const warm = await json(`${base}/api/sessions`, 'POST', JSON.stringify({ stage: fixture.stage }));
      await json(`${base}/api/sessions/${warm.body.id}/transcript`, 'PUT', body);
      await json(`${base}/api/sessions/${warm.body.id}/coaching`, 'POST');
    }
    const loaded = await underLoad(base, body, null);
    rows.push({ db, load: 'one client coaching at its limit', ...loaded });
    console.log(
      `${db.padEnd(9)} coaching load  p50 ${loaded.p50} ms  p95 ${loaded.p95} ms  max ${loaded.max} ms` +
        `  (${loaded.coached} coached, ${loaded.refused} refused)`,
    );

    if (recording) {
      // The previous row spent this minute's budgets; the next row starts with fresh ones.
      console.log(`${db.padEnd(9)} waiting ${WINDOW_MS / 1000 + 1} s for the per-client limits to reset`);
      await new Promise((r) => setTimeout(r, WINDOW_MS + 1000));
      const both = await underLoad(base, body, recording);
      rows.push({ db, load: 'one client coaching and downloading reports at its limits', ...both });
      console.log(
        `${db.padEnd(9)} + reports      p50 ${both.p50} ms  p95 ${both.p95} ms  max ${both.max} ms` +
          `  (${both.coached} coached, ${both.reports} reports, ${both.refused} refused)`,
      );
    } else {
      console.log(`${db.padEnd(9)} + reports      skipped: the recording was not transcribed`);
    }
  } finally {
    await server.stop('SIGTERM');
  }
  return rows;
}

async function coachingLoad() {
  const rows: LoadRow[] = [];
  const dir = tempDataDir('doorstep-bench-');
  try {
    rows.push(...(await coachingLoadOne('PGlite', { DATA_DIR: dir })));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    process.env.TEST_DATABASE_URL = adminUrl;
    const created = await createTestDatabase();
    const pgDir = tempDataDir('doorstep-bench-');
    try {
      rows.push(...(await coachingLoadOne('Postgres', { DATA_DIR: pgDir, DATABASE_URL: created.url })));
    } finally {
      await created.drop();
      fs.rmSync(pgDir, { recursive: true, force: true });
    }
  }
  const table = [
    '| database | load | /api/config requests | p50 ms | p95 ms | max ms | event loop delay p99 / max ms | coached | reports | refused |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.db} | ${r.load} | ${r.requests} | ${r.p50} | ${r.p95} | ${r.max} | ${r.loopP99} / ${r.loopMax} | ${r.coached} | ${r.reports} | ${r.refused} |`,
    ),
  ].join('\n');
  console.log(`\n${table}\n`);
  if (process.env.BENCH_WRITE === '1') {
    const file = path.join(projectRoot, 'docs/benchmarks.md');
    const existing = fs.readFileSync(file, 'utf8');
    const start = '<!-- bench:coaching-load:start -->';
    const end = '<!-- bench:coaching-load:end -->';
    const block = [
      start,
      `Measured ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC on ${os.cpus().length} cores shared with other`,
      `work (wall-clock figures are noisy), Node ${process.version}, ${DURATION_SEC} s per row, 4 clients polling /api/config.`,
      '',
      table,
      end,
    ].join('\n');
    const next = existing.includes(start)
      ? existing.replace(new RegExp(`${start}[\\s\\S]*?${end}`), block)
      : `${existing.trimEnd()}\n\n## Coaching under load (npm run bench:api -- --coaching-load)\n\n${block}\n`;
    fs.writeFileSync(file, next);
  }
}

async function main() {
  if (process.argv.includes('--coaching-load')) return coachingLoad();
  const rows: Row[] = [];
  const wants = (db: string) => !ONLY_DBS || ONLY_DBS.includes(db.toLowerCase());
  if (wants('PGlite')) rows.push(...(await benchDb('PGlite')));

  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (adminUrl && wants('Postgres')) {
    process.env.TEST_DATABASE_URL = adminUrl;
    rows.push(...(await benchDb('Postgres')));
  } else if (!adminUrl) {
    console.log('PostgreSQL skipped: set TEST_DATABASE_URL (or BENCH_DATABASE_URL) to include it.');
  }

  const summary = medians(rows);
  if (REPEATS > 1) console.log(`\nMedians of ${REPEATS} runs:`);
  console.log(`\n${markdown(summary)}\n`);
  if (process.env.BENCH_WRITE === '1' && TREES.length === 1) writeDocs(summary);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
