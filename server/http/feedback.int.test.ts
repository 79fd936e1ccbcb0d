import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { EMAIL_MESSAGE } from '../../core/schemas';
import { audioSessions, feedback, jobs, leads, outbox } from '../db/schema';
import {
  api,
  createTestDatabase,
  dbKinds,
  startTestServer,
  waitFor,
  type TestServer,
} from '../test-support/harness';
import { insertCoachedSession, SAMPLE_BETTER_LINE, SAMPLE_SCORES } from '../test-support/sample-session';
import { redriveUnsentFeedback } from '../domain/feedback/service';

describe.each(dbKinds)('feedback, leads and outbox on %s', (db) => {
  let t: TestServer;
  let sessionId: string;

  beforeAll(async () => {
    t = await startTestServer({
      db,
      env: { NODE_ENV: 'development', PUBLIC_URL: 'https://coach.example.test' },
    });
    sessionId = await insertCoachedSession(t.server.ctx.database.db);
  });
  afterAll(async () => {
    await t?.close();
  });

  it('stores a submission, queues one email job and delivers it into the outbox once', async () => {
    const res = await api(t.url, 'POST', '/api/feedback', {
      sessionId,
      name: 'Dana Rep',
      email: 'dana@example.com',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ sessionId, name: 'Dana Rep', email: 'dana@example.com' });
    expect(typeof res.body.id).toBe('string');
    expect(Number.isNaN(Date.parse(res.body.submittedAt))).toBe(false);

    const dbh = t.server.ctx.database.db;
    const row = await waitFor(async () => {
      const [r] = await dbh.select().from(feedback).where(eq(feedback.id, res.body.id));
      return r?.emailStatus === 'sent' ? r : null;
    }, 'the email to be marked sent');
    expect(row.emailMessageId).toBe(`<feedback.${res.body.id}@doorstep.local>`);

    const mails = await dbh.select().from(outbox).where(eq(outbox.feedbackId, res.body.id));
    expect(mails).toHaveLength(1);
    const mail = mails[0];
    expect(mail.toAddress).toBe('dana@example.com');
    expect(mail.text).toContain(`Objection Handling: ${SAMPLE_SCORES.objectionHandling}/10`);
    expect(mail.text).toContain(`Best: Warm opener: ${SAMPLE_SCORES.best}/10`);
    expect(mail.text).toContain(SAMPLE_BETTER_LINE);
    expect(mail.text).toContain('https://coach.example.test/');
    expect(mail.html).toContain('href="https://coach.example.test/"');
    // The link that reopens this role-play's transcript and coaching.
    expect(mail.text).toContain(`See this call again: https://coach.example.test/?session=${sessionId}`);
    expect(mail.html).toContain(`href="https://coach.example.test/?session=${sessionId}"`);

    // The row is marked sent a moment before the job itself is marked done: wait for both.
    const jobRows = await waitFor(async () => {
      const rows = await dbh
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `feedback-email:${res.body.id}`));
      return rows.length !== 1 || rows[0].status === 'done' ? rows : null;
    }, 'the email job to be marked done');
    expect(jobRows).toHaveLength(1);
    expect(jobRows[0].status).toBe('done');
  });

  it('refuses a session without coaching, and stores nothing', async () => {
    const dbh = t.server.ctx.database.db;
    const uncoached = await insertCoachedSession(dbh, { coaching: null });
    const res = await api(t.url, 'POST', '/api/feedback', {
      sessionId: uncoached,
      name: 'Nia',
      email: 'nia@example.com',
    });
    expect(res.status).toBe(409);
    expect(res.body.error.code).toBe('not_coached');
    expect(await dbh.select().from(feedback).where(eq(feedback.sessionId, uncoached))).toHaveLength(0);
  });

  it('a submission stored before coaching was required is coached when sent, so its email carries every score', async () => {
    const dbh = t.server.ctx.database.db;
    const uncoached = await insertCoachedSession(dbh, { coaching: null });
    const [row] = await dbh
      .insert(feedback)
      .values({ sessionId: uncoached, name: 'Nia', email: 'nia@example.com' })
      .returning();
    expect(await redriveUnsentFeedback(dbh)).toBeGreaterThanOrEqual(1);
    t.server.ctx.wakeWorker();
    const mail = await waitFor(
      async () => {
        const [m] = await dbh.select().from(outbox).where(eq(outbox.feedbackId, row.id));
        return m;
      },
      'the email',
      90_000,
    );
    for (const title of [
      'Empathy and Connection',
      'Needs Analysis',
      'Exploring Options',
      'Objection Handling',
      'Closing',
      'Follow-Up',
    ]) {
      expect(mail.text).toMatch(new RegExp(`- (Strength|To Improve): ${title}: \\d+/10`));
    }
    expect(mail.text).toMatch(/- Best: .+: \d+\/10/);
    expect(mail.text).toMatch(/- Questions asked: \d+/);
  });

  it('lists outbox emails at /outbox with everything escaped', async () => {
    const res = await api(t.url, 'POST', '/api/feedback', {
      sessionId,
      name: '<img src=x onerror=alert(1)>Eve <b>Bold</b>',
      email: 'eve@example.com',
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Eve Bold');
    await waitFor(async () => {
      const page = await fetch(`${t.url}/outbox`).then((r) => r.text());
      return page.includes('eve@example.com') ? page : null;
    }, 'the outbox to list the email');
    const page = await fetch(`${t.url}/outbox`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/text\/html/);
    const html = await page.text();
    expect(html).not.toMatch(/<img|onerror/i);
    // The name is stored with the submission, never written into the email.
    expect(html).toContain('Hi there,');
    expect(html).not.toContain('Eve Bold');

    // Each message's HTML part opens on its own page, sandboxed.
    const link = html.match(/href="\/outbox\/([0-9a-f-]{36})"/);
    expect(link).not.toBeNull();
    const one = await fetch(`${t.url}/outbox/${link![1]}`);
    expect(one.status).toBe(200);
    expect(one.headers.get('content-security-policy')).toMatch(/^sandbox;/);
    expect(await one.text()).toMatch(/Doorstep coaching summary/);
    expect((await fetch(`${t.url}/outbox/not-an-id`)).status).toBe(404);
  });

  it('rejects bad submissions with clear 4xx answers and stores nothing', async () => {
    const dbh = t.server.ctx.database.db;
    const before = (await dbh.select().from(feedback)).length;
    const cases: [unknown, number, string][] = [
      [{ sessionId, name: 'Al', email: 'not-an-email' }, 400, EMAIL_MESSAGE],
      [{ sessionId, name: 'Al', email: 'al@example.com\r\nBcc: victim@example.com' }, 400, EMAIL_MESSAGE],
      [{ sessionId, name: '', email: 'al@example.com' }, 400, 'Name is required.'],
      [{ sessionId, name: '<b></b>', email: 'al@example.com' }, 400, 'Name is required.'],
      [{ sessionId, email: 'al@example.com' }, 400, ''],
      [{ name: 'Al', email: 'al@example.com' }, 400, 'sessionId is required'],
      [{ sessionId: null, name: 'Al', email: 'al@example.com' }, 400, 'sessionId is required'],
      [{ sessionId, name: 'x'.repeat(101), email: 'al@example.com' }, 400, 'at most 100'],
      [{ sessionId, name: 'Al', email: `${'a'.repeat(250)}@example.com` }, 400, EMAIL_MESSAGE],
      [{ sessionId: 'nope', name: 'Al', email: 'al@example.com' }, 400, ''],
      [
        { sessionId: '00000000-0000-4000-8000-000000000000', name: 'Al', email: 'al@example.com' },
        404,
        'Session not found',
      ],
      ['{"name": ', 400, ''],
      [[1, 2], 400, ''],
    ];
    for (const [body, status, message] of cases) {
      const res = await api(t.url, 'POST', '/api/feedback', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(typeof res.body.error?.message).toBe('string');
      expect(res.body.error.message).toContain(message);
    }
    expect((await dbh.select().from(feedback)).length).toBe(before);
  });

  it('removes header-injection characters from the stored name', async () => {
    const res = await api(t.url, 'POST', '/api/feedback', {
      sessionId,
      name: 'Mallory\r\nBcc: victim@example.com',
      email: 'mallory@example.com',
    });
    expect(res.status).toBe(201);
    expect(res.body.name).toBe('Mallory Bcc: victim@example.com');
    const [row] = await t.server.ctx.database.db.select().from(feedback).where(eq(feedback.id, res.body.id));
    expect(row.name).not.toMatch(/[\r\n]/);
  });

  it('stores a lead with its session and reports the session unlocked', async () => {
    const body = {
      email: 'lead@example.com',
      name: 'Lee <i>D</i>',
      marketingOptIn: true,
      sessionId,
      sessionKind: 'roleplay',
    };
    const first = await api(t.url, 'POST', '/api/leads', body);
    expect(first.status).toBe(201);
    expect(first.body).toEqual({ unlocked: true });
    // A repeat answers exactly the same: it does not tell whether this email had unlocked it before.
    const again = await api(t.url, 'POST', '/api/leads', { ...body, email: 'LEAD@example.com' });
    expect(again.status).toBe(first.status);
    expect(again.body).toEqual(first.body);
    const rows = await t.server.ctx.database.db.select().from(leads).where(eq(leads.sessionId, sessionId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      sessionKind: 'roleplay',
      name: 'Lee D',
      consent: true,
      source: 'builtin',
    });
  });

  it('unlocks with an email alone; coaching tips stay an unticked choice stored with the lead', async () => {
    const fresh = await insertCoachedSession(t.server.ctx.database.db);
    const res = await api(t.url, 'POST', '/api/leads', {
      email: 'only-email@example.com',
      sessionId: fresh,
      sessionKind: 'roleplay',
    });
    expect(res.status).toBe(201);
    expect((await api(t.url, 'GET', `/api/sessions/${fresh}`)).body.unlocked).toBe(true);
    const rows = await t.server.ctx.database.db.select().from(leads).where(eq(leads.sessionId, fresh));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ email: 'only-email@example.com', name: null, consent: false });
  });

  it('unlocks each kind of session separately, as the session reads report it', async () => {
    const dbh = t.server.ctx.database.db;
    const [audio] = await dbh
      .insert(audioSessions)
      .values({ fileName: 'call.wav', stage: 'General', storageKey: 'test-key', status: 'transcribed' })
      .returning({ id: audioSessions.id });
    const fresh = await insertCoachedSession(dbh);
    expect((await api(t.url, 'GET', `/api/audio/${audio.id}`)).body.unlocked).toBe(false);
    expect((await api(t.url, 'GET', `/api/sessions/${fresh}`)).body.unlocked).toBe(false);
    // An audio id sent as a role-play session is not found: kinds never mix.
    const wrongKind = { email: 'a@example.com', sessionId: audio.id, sessionKind: 'roleplay' };
    expect((await api(t.url, 'POST', '/api/leads', wrongKind)).status).toBe(404);
    const res = await api(t.url, 'POST', '/api/leads', {
      ...wrongKind,
      sessionKind: 'audio',
      source: 'hubspot',
    });
    expect(res.status).toBe(201);
    expect((await api(t.url, 'GET', `/api/audio/${audio.id}`)).body.unlocked).toBe(true);
    expect((await api(t.url, 'GET', `/api/sessions/${fresh}`)).body.unlocked).toBe(false);
  });

  it('rejects bad leads', async () => {
    const ok = { email: 'x@example.com', sessionId, sessionKind: 'roleplay' };
    const cases: [unknown, number][] = [
      [{ ...ok, email: 'bad' }, 400],
      [{ ...ok, email: undefined }, 400],
      [{ ...ok, marketingOptIn: 'yes' }, 400],
      [{ ...ok, sessionKind: 'other' }, 400],
      [{ ...ok, sessionId: undefined }, 400],
      [{ ...ok, sessionKind: 'audio' }, 404],
      [{ ...ok, source: 'spam' }, 400],
    ];
    for (const [body, status] of cases) {
      const res = await api(t.url, 'POST', '/api/leads', body);
      expect(res.status, JSON.stringify(body)).toBe(status);
      expect(typeof res.body.error?.message).toBe('string');
    }
  });
});

describe('outbox outside development', () => {
  it('answers 404', async () => {
    const t = await startTestServer({});
    try {
      const res = await fetch(`${t.url}/outbox`);
      expect(res.status).toBe(404);
    } finally {
      await t.close();
    }
  });
});

describe.each(dbKinds)('unsent submissions after a restart on %s', (db) => {
  it('queues an email again for a stored submission whose job is gone or gave up', async () => {
    // Our own database, so it survives the restart and is dropped at the end.
    const pg = db === 'postgres' ? await createTestDatabase() : null;
    let t = await startTestServer({ databaseUrl: pg?.url, env: { NODE_ENV: 'development' } });
    const dbh = () => t.server.ctx.database.db;
    const sessionId = await insertCoachedSession(dbh());
    // One submission whose job was lost, one whose retries ran out during an outage.
    const [lost] = await dbh()
      .insert(feedback)
      .values({ sessionId, name: 'Lost Job', email: 'lost@example.com' })
      .returning();
    const res = await api(t.url, 'POST', '/api/feedback', {
      sessionId,
      name: 'Gave Up',
      email: 'gaveup@example.com',
    });
    expect(res.status).toBe(201);
    await waitFor(
      async () => (await dbh().select().from(outbox).where(eq(outbox.feedbackId, res.body.id))).length,
      'first delivery',
    );
    // Pretend the delivery never happened and the job failed for good.
    await dbh().delete(outbox).where(eq(outbox.feedbackId, res.body.id));
    await dbh()
      .update(feedback)
      .set({ emailStatus: 'failed', emailSentAt: null, emailMessageId: null })
      .where(eq(feedback.id, res.body.id));
    await dbh()
      .update(jobs)
      .set({ status: 'failed' })
      .where(eq(jobs.dedupeKey, `feedback-email:${res.body.id}`));
    expect((await dbh().select().from(outbox).where(eq(outbox.feedbackId, lost.id))).length).toBe(0);

    const dataDir = t.dataDir;
    const databaseUrl = t.databaseUrl;
    await t.close({ keepData: true });
    t = await startTestServer({ dataDir, databaseUrl, env: { NODE_ENV: 'development' } });
    try {
      for (const id of [lost.id, res.body.id]) {
        const row = await waitFor(async () => {
          const [r] = await dbh().select().from(feedback).where(eq(feedback.id, id));
          return r.emailStatus === 'sent' ? r : null;
        }, `delivery of ${id} after the restart`);
        expect(row.emailSentAt).not.toBeNull();
        expect(await dbh().select().from(outbox).where(eq(outbox.feedbackId, id))).toHaveLength(1);
      }
    } finally {
      await t.close();
      await pg?.drop();
    }
  });
});

describe.each(dbKinds)('the feedback form is not a mail relay (%s)', (db) => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ db, env: { NODE_ENV: 'development', FEEDBACK_PER_RECIPIENT_PER_DAY: '3' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const submit = (body: object) => api(t.url, 'POST', '/api/feedback', body);

  it('refuses a submission without a session (the probe’s prize mail), storing and sending nothing', async () => {
    const dbh = t.server.ctx.database.db;
    const res = await submit({
      name: 'Claim your prize at evil.example/win now',
      email: 'victim@example.org',
    });
    expect(res.status).toBe(400);
    expect(await dbh.select().from(feedback).where(eq(feedback.email, 'victim@example.org'))).toHaveLength(0);
    expect(await dbh.select().from(outbox).where(eq(outbox.toAddress, 'victim@example.org'))).toHaveLength(0);
  });

  it('never writes the name into the email', async () => {
    const dbh = t.server.ctx.database.db;
    const sessionId = await insertCoachedSession(dbh);
    const res = await submit({
      sessionId,
      name: 'Claim your prize at evil.example/win now',
      email: 'win@example.org',
    });
    expect(res.status).toBe(201);
    const mail = await waitFor(async () => {
      const [m] = await dbh.select().from(outbox).where(eq(outbox.feedbackId, res.body.id));
      return m;
    }, 'the email');
    for (const part of [mail.subject, mail.text, mail.html]) {
      expect(part).not.toMatch(/prize|evil\.example|Claim/i);
    }
    expect(mail.text.startsWith('Hi there,')).toBe(true);
  });

  it('sends one session’s summary to an address once; a resend is explicit and allowed once', async () => {
    const dbh = t.server.ctx.database.db;
    const sessionId = await insertCoachedSession(dbh);
    expect((await submit({ sessionId, name: 'Pat', email: 'pat@example.com' })).status).toBe(201);
    // The same mailbox however it is written.
    for (const email of ['pat@example.com', 'PAT@Example.com', 'pat+again@example.com']) {
      const again = await submit({ sessionId, name: 'Pat', email });
      expect(again.status, email).toBe(409);
      expect(again.body.error.code).toBe('already_sent');
      expect(again.body.error.message).toBe(
        "This call's summary has already been sent to that address. Check your inbox and spam folder.",
      );
    }
    expect((await submit({ sessionId, name: 'Pat', email: 'pat@example.com', resend: true })).status).toBe(
      201,
    );
    const third = await submit({ sessionId, name: 'Pat', email: 'pat@example.com', resend: true });
    expect(third.status).toBe(429);
    expect(third.body.error.code).toBe('already_sent');
    expect(await dbh.select().from(feedback).where(eq(feedback.sessionId, sessionId))).toHaveLength(2);
    // Another address may still have this session's summary.
    expect((await submit({ sessionId, name: 'Lee', email: 'lee@example.com' })).status).toBe(201);
  });

  it('sends one address at most FEEDBACK_PER_RECIPIENT_PER_DAY summaries a day, from any session', async () => {
    const dbh = t.server.ctx.database.db;
    const sessionsIds = await Promise.all(Array.from({ length: 4 }, () => insertCoachedSession(dbh)));
    const addresses = ['daily@example.net', 'Daily+1@example.net', 'daily+2@EXAMPLE.net'];
    for (let i = 0; i < 3; i++) {
      const res = await submit({ sessionId: sessionsIds[i], name: 'Dee', email: addresses[i] });
      expect(res.status, addresses[i]).toBe(201);
    }
    const over = await fetch(`${t.url}/api/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ sessionId: sessionsIds[3], name: 'Dee', email: 'daily@example.net' }),
    });
    expect(over.status).toBe(429);
    const retryAfter = Number(over.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(23 * 3600);
    expect(retryAfter).toBeLessThanOrEqual(24 * 3600);
    const body = (await over.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('recipient_limit');
    expect(body.error.message).toMatch(/3 summaries in the last day/);
    expect(await dbh.select().from(feedback).where(eq(feedback.sessionId, sessionsIds[3]))).toHaveLength(0);
  });

  it('concurrent submissions to one address still send one summary', async () => {
    const dbh = t.server.ctx.database.db;
    const sessionId = await insertCoachedSession(dbh);
    const results = await Promise.all(
      Array.from({ length: 5 }, () => submit({ sessionId, name: 'Ray', email: 'ray@example.com' })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409]);
  });
});
