/**
 * Chaos: SIGKILL the real server at random moments while it accepts uploads, transcribes them
 * and sends feedback emails; restart it each time. At the end every accepted upload is present
 * and transcribed, every accepted feedback row exists with exactly one email, and the database
 * passes an index integrity check. `npm run test:chaos` runs CHAOS_ROUNDS=20 per database.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../server/test-support/engines';
import { createTestDatabase, dbKinds, sharedDir } from '../server/test-support/harness';
import { openForIntegrity, storedUploads } from './lib/integrity';
import { ServerProcess, tempDataDir } from './lib/server-process';
import { startTestS3, type TestS3 } from '../server/test-support/s3';

const ROUNDS = Number(process.env.CHAOS_ROUNDS ?? 3);
const DRAIN_TIMEOUT = Number(process.env.CHAOS_DRAIN_MS ?? 150_000);
/** CHAOS_STORAGE=s3 keeps the uploads in an S3-compatible server (s3rver) instead of DATA_DIR. */
const STORAGE = process.env.CHAOS_STORAGE === 's3' ? 's3' : 'local';

const recordings = [
  'cards_pocketsphinx/cards_001.wav',
  'cards_pocketsphinx/cards_002.wav',
  'pocketsphinx_misc/goforward.wav',
  'azure_misc/whatstheweatherlike.wav',
].map((f) => ({ name: path.basename(f), bytes: fs.readFileSync(path.join(sharedDir, 'fixtures/audio', f)) }));
/** Lets the test read the queue depth from /api/status (the server runs in production mode). */
const OPERATOR_TOKEN = 'chaos-operator-token-0123456789abcdef';

const transcriptFixture = JSON.parse(
  fs.readFileSync(path.join(sharedDir, 'fixtures/transcripts/dev-01-general.json'), 'utf8'),
);

// A seeded generator, so a failing run can be replayed with CHAOS_SEED.
let seed = Number(process.env.CHAOS_SEED ?? Date.now() % 100_000);
const random = () => {
  seed = (seed * 1103515245 + 12345) % 2 ** 31;
  return seed / 2 ** 31;
};

async function post(base: string, url: string, body: unknown) {
  const res = await fetch(base + url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json().catch(() => null)) as any };
}

async function upload(base: string): Promise<string | null> {
  const rec = recordings[Math.floor(random() * recordings.length)];
  const form = new FormData();
  form.append('stage', 'General');
  form.append('audio', new Blob([rec.bytes], { type: 'audio/wav' }), rec.name);
  const res = await fetch(`${base}/api/audio/upload`, { method: 'POST', body: form });
  if (res.status !== 201) return null;
  return ((await res.json()) as { sessionId: string }).sessionId;
}

async function feedback(base: string): Promise<string | null> {
  const session = await post(base, '/api/sessions', { stage: 'General' });
  if (session.status !== 201) return null;
  await fetch(`${base}/api/sessions/${session.body.id}/transcript`, {
    method: 'PUT',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ transcript: transcriptFixture.transcript, duration: '120' }),
  });
  // A summary is sent for a coached call only.
  const coached = await fetch(`${base}/api/sessions/${session.body.id}/coaching`, { method: 'POST' });
  if (coached.status !== 200) return null;
  const n = Math.floor(random() * 1e9);
  const res = await post(base, '/api/feedback', {
    sessionId: session.body.id,
    name: `Rep ${n}`,
    email: `rep${n}@example.com`,
  });
  return res.status === 201 ? res.body.id : null;
}

/**
 * Requests fired until the kill; only those answered 201 were accepted and must survive.
 * One upload per round (transcription is the slow part), and feedback as fast as it goes.
 */
async function workload(
  base: string,
  accepted: { uploads: Set<string>; feedback: Set<string> },
  stop: () => boolean,
) {
  const uploadLane = (async () => {
    try {
      const id = await upload(base);
      if (id) accepted.uploads.add(id);
    } catch {
      // Killed mid-upload: the outcome is unknown, so it is not counted as accepted.
    }
  })();
  const feedbackLanes = Array.from({ length: 2 }, async () => {
    while (!stop()) {
      try {
        const id = await feedback(base);
        if (id) accepted.feedback.add(id);
      } catch {
        return;
      }
    }
  });
  await Promise.all([uploadLane, ...feedbackLanes]);
}

async function drain(server: ServerProcess, accepted: { uploads: Set<string> }): Promise<Map<string, any>> {
  const deadline = Date.now() + DRAIN_TIMEOUT;
  const finals = new Map<string, any>();
  while (Date.now() < deadline) {
    for (const id of accepted.uploads) {
      if (finals.has(id)) continue;
      const res = await fetch(`${server.url}/api/audio/${id}`);
      const body = (await res.json()) as any;
      if (body.status === 'transcribed' || body.status === 'failed') finals.set(id, body);
    }
    const health = (await (
      await fetch(`${server.url}/api/status`, { headers: { authorization: `Bearer ${OPERATOR_TOKEN}` } })
    ).json()) as any;
    if (finals.size === accepted.uploads.size && health.jobs.queued === 0 && health.jobs.running === 0) break;
    await new Promise((r) => setTimeout(r, 500));
  }
  return finals;
}

const noEngines = skipWithout('pocketsphinx');

for (const db of dbKinds) {
  describe.skipIf(noEngines)(`chaos on ${db}`, () => {
    const dataDir = tempDataDir('doorstep-chaos-');
    let dropDb: (() => Promise<void>) | undefined;
    let server: ServerProcess | undefined;
    let s3: TestS3 | undefined;
    afterAll(async () => {
      // Also runs when the test times out, so no server process outlives the suite.
      await server?.stop('SIGKILL');
      await s3?.close();
      await dropDb?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it(
      `${ROUNDS} rounds of SIGKILL during uploads, transcription and feedback email lose nothing`,
      async () => {
        const startSeed = seed;
        let databaseUrl: string | undefined;
        if (db === 'postgres') {
          const created = await createTestDatabase();
          databaseUrl = created.url;
          dropDb = created.drop;
        }
        if (STORAGE === 's3') s3 = await startTestS3();
        server = await ServerProcess.create({
          ...s3?.env('chaos'),
          DATA_DIR: dataDir,
          ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
          RATE_LIMIT_UPLOAD: '0',
          MAX_QUEUED_RECORDINGS: '0',
          RATE_LIMIT_FEEDBACK: '0',
          RATE_LIMIT_SESSIONS: '0',
          RATE_LIMIT_COACHING: '0',
          MAX_CONNECTIONS_PER_CLIENT: '0',
          METRICS_TOKEN: OPERATOR_TOKEN,
          RATE_LIMIT_TRANSCRIPTS: '0',
        });
        const accepted = { uploads: new Set<string>(), feedback: new Set<string>() };
        const startedAt = Date.now();
        try {
          for (let round = 0; round < ROUNDS; round++) {
            await server.start();
            let stopped = false;
            const uploadsBefore = accepted.uploads.size;
            const feedbackBefore = accepted.feedback.size;
            const load = workload(server.url, accepted, () => stopped);
            if (round % 2 === 0) {
              // Even rounds let this round's upload and a feedback be accepted first, so the kill
              // lands during their transcription and email (and every run has both to check,
              // however slow the machine).
              const until = Date.now() + 30_000;
              while (
                (accepted.uploads.size === uploadsBefore || accepted.feedback.size === feedbackBefore) &&
                Date.now() < until
              ) {
                await new Promise((r) => setTimeout(r, 20));
              }
            }
            // Then kill anywhere from mid-request to mid-transcription.
            await new Promise((r) => setTimeout(r, 100 + random() * 1400));
            await server.stop('SIGKILL');
            stopped = true;
            await load;
          }
          const killedAt = Date.now();
          await server.start();
          const finals = await drain(server, accepted);
          console.log(
            `chaos on ${db}: ${ROUNDS} rounds took ${killedAt - startedAt} ms, the drain ${Date.now() - killedAt} ms`,
          );
          expect(accepted.uploads.size, `seed ${startSeed}`).toBeGreaterThan(0);
          expect(accepted.feedback.size, `seed ${startSeed}`).toBeGreaterThan(0);
          for (const id of accepted.uploads) {
            const final = finals.get(id);
            expect(final, `upload ${id} (seed ${startSeed})`).toBeDefined();
            expect(final.status, `upload ${id}: ${final?.error}`).toBe('transcribed');
            expect(final.transcript.length).toBeGreaterThan(0);
          }
          console.log(
            `chaos on ${db} (${STORAGE} storage): ${ROUNDS} kills, ${accepted.uploads.size} uploads and ${accepted.feedback.size} feedback accepted (seed ${startSeed})`,
          );
        } finally {
          await server.stop('SIGTERM');
        }

        const check = await openForIntegrity({ databaseUrl, dataDir });
        try {
          expect(check.problems).toEqual([]);
          const rows = await check.query(`select f.id, f.email_status,
            (select count(*)::int from outbox o where o.feedback_id = f.id) as emails
          from feedback f`);
          const byId = new Map(rows.map((r) => [r.id, r]));
          for (const id of accepted.feedback) {
            const row = byId.get(id);
            expect(row, `feedback ${id}`).toBeDefined();
            expect(row.email_status, `feedback ${id}`).toBe('sent');
            expect(row.emails, `feedback ${id}: exactly one email`).toBe(1);
          }
          // Rows whose answer was lost in the kill still get their one email, never two.
          for (const row of rows) expect(row.emails, `feedback ${row.id}`).toBeLessThanOrEqual(1);
          const files = s3
            ? new Set(s3.keys().map((k) => k.replace(/^chaos\//, '')))
            : storedUploads(dataDir);
          // What the kills left (partial uploads, scratch folders) was removed by the next start.
          const leftovers = (dir: string) => (fs.existsSync(dir) ? fs.readdirSync(dir) : []);
          expect(leftovers(path.join(dataDir, 'uploads')).filter((f) => f.endsWith('.part'))).toEqual([]);
          expect(leftovers(path.join(dataDir, 'tmp')).filter((f) => f.startsWith('doorstep-'))).toEqual([]);
          const audio = await check.query('select id, storage_key, status from audio_sessions');
          for (const a of audio) expect(files.has(a.storage_key), `file of upload ${a.id}`).toBe(true);
          const retried = await check.query(
            `select kind, count(*)::int as jobs, count(*) filter (where attempts > 1)::int as interrupted from jobs group by kind`,
          );
          // Jobs that needed more than one attempt were cut off by a kill (or failed once) and resumed.
          console.log(`chaos on ${db}: jobs ${JSON.stringify(retried)}`);
          const stuck = await check.query(
            `select count(*)::int as n from jobs where status in ('queued','running') and run_at <= now() + interval '10 minutes'`,
          );
          expect(stuck[0].n).toBe(0);
        } finally {
          await check.close();
        }
      },
      ROUNDS * 40_000 + DRAIN_TIMEOUT + 60_000,
    );
  });
}
