import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { simpleParser, type ParsedMail } from 'mailparser';
import { feedback, jobs } from '../../db/schema';
import { requeueJob } from '../../jobs/queue';
import {
  api,
  createTestDatabase,
  dbKinds,
  startTestServer,
  type DbKind,
  type TestServer,
  waitFor as waitUntil,
} from '../../test-support/harness';
import { insertCoachedSession, SAMPLE_BETTER_LINE, SAMPLE_SCORES } from '../../test-support/sample-session';

const here = path.dirname(fileURLToPath(import.meta.url));
const SINK = path.join(here, 'smtp-sink.ts');
const FROM = 'Doorstep Coach <coach@doorstep.example>';
const PUBLIC_URL = 'https://coach.example.test';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

/** Starts the SMTP server process and resolves once it accepts connections. */
async function startSink(port: number, dir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', SINK, String(port), dir], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  await new Promise<void>((resolve, reject) => {
    let out = '';
    let err = '';
    child.stdout!.on('data', (d) => {
      out += d;
      if (out.includes(`listening ${port}`)) resolve();
    });
    child.stderr!.on('data', (d) => (err += d));
    child.once('exit', (code) => reject(new Error(`smtp sink exited (${code}): ${err}`)));
  });
  return child;
}

async function stopSink(child: ChildProcess | null): Promise<void> {
  if (!child || child.exitCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

function received(dir: string): string[] {
  if (!fs.existsSync(dir)) return [];
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.eml'))
    .sort()
    .map((f) => path.join(dir, f));
}

async function parseAll(dir: string): Promise<ParsedMail[]> {
  return Promise.all(received(dir).map((f) => simpleParser(fs.readFileSync(f))));
}

/** Mail delivery goes through retries with backoff: allow a minute. */
const waitFor: typeof waitUntil = (probe, what, timeoutMs = 60_000, intervalMs) =>
  waitUntil(probe, what, timeoutMs, intervalMs);

async function jobFor(t: TestServer, feedbackId: string) {
  const [row] = await t.server.ctx.database.db
    .select()
    .from(jobs)
    .where(eq(jobs.dedupeKey, `feedback-email:${feedbackId}`));
  return row;
}

async function feedbackRow(t: TestServer, id: string) {
  const [row] = await t.server.ctx.database.db.select().from(feedback).where(eq(feedback.id, id));
  return row;
}

describe.each(dbKinds)('summary email over SMTP on %s', (db: DbKind) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    for (const c of cleanups.reverse()) await c().catch(() => undefined);
  });

  /** A server with its own data folder (and PostgreSQL database) that survives restarts. */
  async function durableServer(port: number) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-smtp-'));
    const pgdb = db === 'postgres' ? await createTestDatabase() : null;
    cleanups.push(async () => {
      await pgdb?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const start = () =>
      startTestServer({
        dataDir,
        databaseUrl: pgdb?.url,
        env: { SMTP_URL: `smtp://127.0.0.1:${port}`, SMTP_FROM: FROM, PUBLIC_URL },
      });
    return { start };
  }

  it('delivers an email whose parts carry every score, the metrics, the better lines and the app link', async () => {
    const port = await freePort();
    const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-mail-'));
    cleanups.push(async () => fs.rmSync(mailDir, { recursive: true, force: true }));
    const sink = await startSink(port, mailDir);
    cleanups.push(() => stopSink(sink));
    const { start } = await durableServer(port);
    const t = await start();
    cleanups.push(() => t.close({ keepData: true }));

    const sessionId = await insertCoachedSession(t.server.ctx.database.db);
    const res = await api(t.url, 'POST', '/api/feedback', {
      sessionId,
      name: 'Dana <b>Rep</b>',
      email: 'dana@example.com',
    });
    expect(res.status).toBe(201);

    await waitFor(() => received(mailDir).length > 0, 'the SMTP server to receive the email');
    const [mail] = await parseAll(mailDir);
    expect(mail.from?.value[0]).toMatchObject({ address: 'coach@doorstep.example', name: 'Doorstep Coach' });
    expect((mail.to as { value: { address: string }[] }).value[0].address).toBe('dana@example.com');
    expect(mail.messageId).toBe(`<feedback.${res.body.id}@doorstep.example>`);
    expect(mail.headers.get('x-doorstep-feedback-id')).toBe(res.body.id);
    expect(mail.subject).toMatch(/coaching summary/i);

    const text = mail.text ?? '';
    const html = typeof mail.html === 'string' ? mail.html : '';
    expect(text).toContain('Hi there,');
    expect(html).toContain('Hi there,');
    // The name given in the form stays with the submission, out of the email.
    expect(text).not.toContain('Dana');
    const expectedScores: [string, number][] = [
      ['Best: Warm opener', SAMPLE_SCORES.best],
      ['Strength: Empathy and Connection', SAMPLE_SCORES.empathy],
      ['To Improve: Needs Analysis', SAMPLE_SCORES.needsAnalysis],
      ['To Improve: Exploring Options', SAMPLE_SCORES.exploringOptions],
      ['To Improve: Objection Handling', SAMPLE_SCORES.objectionHandling],
      ['To Improve: Closing', SAMPLE_SCORES.closing],
      ['To Improve: Follow-Up', SAMPLE_SCORES.followUp],
    ];
    for (const [label, score] of expectedScores) {
      expect(text).toContain(`- ${label}: ${score}/10`);
      expect(html).toMatch(new RegExp(`<td>${label}</td><td[^>]*>.*?data-score="${score}"`));
    }
    // The fixture call lasted 243 s.
    expect(text).toContain('- Call length: 4:03');
    expect(text).toMatch(/- Questions asked: \d+ \(\d+ open, \d+ closed\)/);
    expect(text).toMatch(/- Speaking balance: You \d+% \/ Linda \d+%/);
    expect(text).toMatch(/TOP STRENGTHS\n1\. Warm opener \(9\/10\)/);
    expect(text).toMatch(/TOP IMPROVEMENTS\n1\. Objection Handling \(3\/10\)/);
    expect(text).toContain(`> ${SAMPLE_BETTER_LINE}`);
    expect(html).toContain(SAMPLE_BETTER_LINE);
    expect(text).toContain(`${PUBLIC_URL}/`);
    const hrefs = [...html.matchAll(/href="([^"]+)"/g)].map((m) => m[1]);
    expect(hrefs).toContain(`${PUBLIC_URL}/`);

    const row = await waitFor(async () => {
      const r = await feedbackRow(t, res.body.id);
      return r.emailStatus === 'sent' ? r : null;
    }, 'the row to be marked sent');
    expect(row.emailMessageId).toBe(mail.messageId);

    // A crash between the send and the sent marker means one resend; it carries the same
    // Message-ID, which is what lets a receiving system recognise it.
    await t.server.ctx.database.db
      .update(feedback)
      .set({ emailStatus: 'queued' })
      .where(eq(feedback.id, res.body.id));
    expect(await requeueJob(t.server.ctx.database.db, `feedback-email:${res.body.id}`)).toBe(true);
    t.server.ctx.wakeWorker();
    await waitFor(() => received(mailDir).length === 2, 'the resend');
    const [, resent] = await parseAll(mailDir);
    expect(resent.messageId).toBe(mail.messageId);
  });

  it('keeps the submission through an SMTP outage and a restart, then delivers it exactly once', async () => {
    const port = await freePort();
    const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-mail-'));
    cleanups.push(async () => fs.rmSync(mailDir, { recursive: true, force: true }));
    const { start } = await durableServer(port);

    // Outage: nothing listens on the SMTP port.
    let t = await start();
    const sessionId = await insertCoachedSession(t.server.ctx.database.db);
    const res = await api(t.url, 'POST', '/api/feedback', {
      sessionId,
      name: 'Omar',
      email: 'omar@example.com',
    });
    expect(res.status).toBe(201);
    const id: string = res.body.id;
    const failing = await waitFor(async () => {
      const j = await jobFor(t, id);
      return j && j.attempts >= 2 && j.status === 'queued' ? j : null;
    }, 'two failed attempts');
    expect(failing.lastError).toMatch(/ECONNREFUSED|connect/i);
    expect((await feedbackRow(t, id)).emailStatus).toBe('queued');
    expect(received(mailDir)).toHaveLength(0);

    // The process stops during the outage; the job waits in the database.
    await t.close({ keepData: true });

    // Recovery: the SMTP server comes back and the app restarts.
    const sink = await startSink(port, mailDir);
    cleanups.push(() => stopSink(sink));
    t = await start();
    await waitFor(() => received(mailDir).length > 0, 'delivery after recovery');
    const done = await waitFor(async () => {
      const j = await jobFor(t, id);
      return j?.status === 'done' ? j : null;
    }, 'the job to finish');
    expect(done.attempts).toBeGreaterThanOrEqual(3);
    const row = await feedbackRow(t, id);
    expect(row.emailStatus).toBe('sent');

    // Running the job again, or restarting again, must not send a second email.
    expect(await requeueJob(t.server.ctx.database.db, `feedback-email:${id}`)).toBe(true);
    t.server.ctx.wakeWorker();
    await waitFor(async () => (await jobFor(t, id))?.status === 'done', 'the repeated job to finish');
    await t.close({ keepData: true });
    t = await start();
    cleanups.push(() => t.close({ keepData: true }));
    const again = await api(t.url, 'POST', '/api/feedback', {
      sessionId,
      name: 'Omar',
      email: 'omar2@example.com',
    });
    expect(again.status).toBe(201);
    // The second submission's email arriving proves the worker ran after the restart.
    await waitFor(() => received(mailDir).length >= 2, 'the second submission');
    const mails = await parseAll(mailDir);
    expect(mails.filter((m) => m.messageId === `<feedback.${id}@doorstep.example>`)).toHaveLength(1);
    expect(mails).toHaveLength(2);
  });
  it('stops retrying when the server refuses the recipient for good, and marks the row failed', async () => {
    const port = await freePort();
    const mailDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-mail-'));
    cleanups.push(async () => fs.rmSync(mailDir, { recursive: true, force: true }));
    const sink = await startSink(port, mailDir);
    cleanups.push(() => stopSink(sink));
    const { start } = await durableServer(port);
    const t = await start();
    cleanups.push(() => t.close({ keepData: true }));
    const res = await api(t.url, 'POST', '/api/feedback', {
      sessionId: await insertCoachedSession(t.server.ctx.database.db),
      name: 'Nobody',
      email: 'unknown-rep@example.com',
    });
    expect(res.status).toBe(201);
    const job = await waitFor(async () => {
      const j = await jobFor(t, res.body.id);
      return j?.status === 'failed' ? j : null;
    }, 'the job to fail');
    expect(job.attempts).toBe(1);
    expect(job.lastError).toMatch(/550/);
    await waitFor(
      async () => (await feedbackRow(t, res.body.id)).emailStatus === 'failed',
      'the row to be marked failed',
    );
    expect(received(mailDir)).toHaveLength(0);
  });
});
