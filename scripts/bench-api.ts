/**
 * npm run bench:api — load on the real server (a separate process), on embedded PGlite and on
 * PostgreSQL (when TEST_DATABASE_URL or BENCH_DATABASE_URL is set): session creation, transcript
 * save, coaching and audio status polling at 10 and 100 connections.
 *
 *   BENCH_DURATION_SEC  seconds per run (default 5)
 *   BENCH_WRITE=1       also rewrite the API section of docs/benchmarks.md
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { createTestDatabase, sharedDir } from '../server/test-support/harness';
import { projectRoot, ServerProcess, tempDataDir } from './lib/server-process';
import { LIMITS } from '../server/http/route';

const DURATION_SEC = Number(process.env.BENCH_DURATION_SEC ?? 5);
const CONNECTIONS = [10, 100];
const COACHING_POOL = Number(process.env.BENCH_COACHING_POOL ?? 300);

interface Row {
  db: string;
  scenario: string;
  connections: number;
  rps: number;
  p50: number;
  p99: number;
  non2xx: number;
  timeouts: number;
  total: number;
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

function run(opts: autocannon.Options): Promise<autocannon.Result> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err, result) => (err ? reject(err) : resolve(result)));
  });
}

function toRow(db: string, scenario: string, connections: number, r: autocannon.Result): Row {
  return {
    db,
    scenario,
    connections,
    rps: Math.round(r.requests.average),
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    timeouts: r.timeouts + r.errors,
    total: r.requests.total,
  };
}

function print(row: Row) {
  console.log(
    `${row.db.padEnd(9)} ${row.scenario.padEnd(18)} c=${String(row.connections).padEnd(4)} ` +
      `${String(row.rps).padStart(6)} req/s  p50 ${String(row.p50).padStart(4)} ms  p99 ${String(row.p99).padStart(4)} ms` +
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

async function benchOne(db: string, env: Record<string, string>): Promise<Row[]> {
  const server = await ServerProcess.create({
    ...env,
    // Load from one address must not trip the per-client limits, but the limiters still run
    // (their cost is part of what is measured).
    ...Object.fromEntries(Object.values(LIMITS).map((l) => [l.setting, '1000000000'])),
  });
  await server.start();
  const base = server.url;
  const rows: Row[] = [];
  const record = (scenario: string, c: number, r: autocannon.Result) => {
    const row = toRow(db, scenario, c, r);
    rows.push(row);
    print(row);
  };
  try {
    const health = (await json(`${base}/api/health`, 'GET')).body;
    const coachOk = health?.engines?.some((e: any) => e.capability === 'coach' && e.ok);

    for (const c of CONNECTIONS) {
      record(
        'create session',
        c,
        await run({
          url: `${base}/api/sessions`,
          method: 'POST',
          connections: c,
          duration: DURATION_SEC,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ stage: 'General' }),
        }),
      );
    }

    const pool = await createSessions(base, 500, false);
    for (const c of CONNECTIONS) {
      let i = 0;
      record(
        'save transcript',
        c,
        await run({
          url: base,
          connections: c,
          duration: DURATION_SEC,
          requests: [
            {
              method: 'PUT',
              headers: { 'content-type': 'application/json' },
              setupRequest: (req) => ({
                ...req,
                path: `/api/sessions/${pool[i++ % pool.length]}/transcript`,
                body: transcriptBody,
              }),
            },
          ],
        }),
      );
    }

    if (coachOk) {
      for (const c of CONNECTIONS) {
        // Every request coaches a fresh transcript (stored coaching would be answered from the database).
        const fresh = await createSessions(base, COACHING_POOL, true);
        let i = 0;
        record(
          'coaching',
          c,
          await run({
            url: base,
            connections: c,
            amount: fresh.length,
            requests: [
              {
                method: 'POST',
                setupRequest: (req) => ({ ...req, path: `/api/sessions/${fresh[i++]}/coaching` }),
              },
            ],
          }),
        );
      }
    } else {
      console.log(`${db.padEnd(9)} coaching           skipped: no coach engine is available`);
    }

    const audioId = await uploadRecording(base);
    if (audioId) {
      // Poll once the recording is transcribed, so the numbers measure the API rather than the
      // transcription running on the same cores.
      const deadline = Date.now() + 120_000;
      while (Date.now() < deadline) {
        const { body } = await json(`${base}/api/audio/${audioId}`, 'GET');
        if (body?.status === 'transcribed' || body?.status === 'failed') break;
        await new Promise((r) => setTimeout(r, 500));
      }
      for (const c of CONNECTIONS) {
        record(
          'audio status poll',
          c,
          await run({ url: `${base}/api/audio/${audioId}`, connections: c, duration: DURATION_SEC }),
        );
      }
    } else {
      console.log(`${db.padEnd(9)} audio status poll  skipped: the upload route is not available`);
    }
  } finally {
    await server.stop('SIGTERM');
  }
  return rows;
}

function markdown(rows: Row[]): string {
  const lines = [
    '| database | scenario | connections | requests/s | p50 ms | p99 ms | non-2xx | timeouts |',
    '| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: |',
    ...rows.map(
      (r) =>
        `| ${r.db} | ${r.scenario} | ${r.connections} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.non2xx} | ${r.timeouts} |`,
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
    `Node ${process.version}, ${DURATION_SEC} s per run; coaching runs ${COACHING_POOL} fresh transcripts per row.`,
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

async function main() {
  const rows: Row[] = [];
  const pgliteDir = tempDataDir('doorstep-bench-');
  try {
    rows.push(...(await benchOne('PGlite', { DATA_DIR: pgliteDir })));
  } finally {
    fs.rmSync(pgliteDir, { recursive: true, force: true });
  }

  const adminUrl = process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL;
  if (adminUrl) {
    process.env.TEST_DATABASE_URL = adminUrl;
    const created = await createTestDatabase();
    const dir = tempDataDir('doorstep-bench-');
    try {
      rows.push(...(await benchOne('Postgres', { DATA_DIR: dir, DATABASE_URL: created.url })));
    } finally {
      await created.drop();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  } else {
    console.log('PostgreSQL skipped: set TEST_DATABASE_URL (or BENCH_DATABASE_URL) to include it.');
  }

  console.log(`\n${markdown(rows)}\n`);
  if (process.env.BENCH_WRITE === '1') writeDocs(rows);
}

main().catch((err) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
