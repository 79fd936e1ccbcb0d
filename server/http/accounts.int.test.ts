import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { desc, eq, sql } from 'drizzle-orm';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { LINK_INVALID_MESSAGE, type ProgressView } from '../../core/accounts';
import { canonicalDocument } from '../../core/coaching-document';
import { parseCoaching } from '../../core/coaching-format';
import { accountSessions, accounts, audioSessions, leads, outbox, sessions, signInLinks } from '../db/schema';
import { dbKinds, sharedDir, startTestServer, type TestServer } from '../test-support/harness';
import { fixtureTranscript, sampleCoaching, SAMPLE_SCORES } from '../test-support/sample-session';

const JFK_WAV = path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav');

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');

/** A browser: its own cookie jar, sending what the server set back on each request. */
class Device {
  readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.base + url, {
      method,
      headers: {
        ...(body === undefined || body instanceof FormData ? {} : { 'content-type': 'application/json' }),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : body instanceof FormData ? body : JSON.stringify(body),
    });
    const setCookies = res.headers.getSetCookie();
    for (const line of setCookies) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value && !/Max-Age=0/.test(line)) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, json, text, headers: res.headers, setCookies };
  }
}

for (const db of dbKinds) {
  describe(`sign-in by emailed link and My progress (${db})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ db });
    });
    afterAll(async () => {
      await t?.close();
    });

    const database = () => t.server.ctx.database.db;

    /** The token in the newest sign-in email to `email`, read from the outbox. */
    async function linkTokenFor(email: string): Promise<string> {
      const [row] = await database()
        .select()
        .from(outbox)
        .where(eq(outbox.toAddress, email))
        .orderBy(desc(outbox.createdAt))
        .limit(1);
      expect(row?.subject).toBe('Your Doorstep sign-in link');
      const m = row.text.match(/\/sign-in#token=([A-Za-z0-9_-]{43})/);
      expect(m).not.toBeNull();
      return m![1];
    }

    async function signIn(device: Device, email: string): Promise<void> {
      const asked = await device.call('POST', '/api/account/sign-in-link', { email });
      expect(asked.status).toBe(202);
      const token = await linkTokenFor(email.toLowerCase());
      const done = await device.call('POST', '/api/account/sign-in', { token });
      expect(done.status).toBe(200);
      expect(done.json).toEqual({ account: { email: email.toLowerCase() } });
    }

    it('every signed-in route answers 401 signed out, with nothing but the error', async () => {
      const d = new Device(t.url);
      for (const [method, url] of [
        ['GET', '/api/account/progress'],
        ['GET', '/api/account/claimable'],
        ['POST', '/api/account/claim'],
        ['POST', '/api/account/sign-out-everywhere'],
      ] as const) {
        const res = await d.call(method, url);
        expect(res.status, `${method} ${url}`).toBe(401);
        expect(res.json).toEqual({ error: { code: 'signed_out', message: 'Please sign in to see this.' } });
      }
      const me = await d.call('GET', '/api/account');
      expect(me.status).toBe(200);
      expect(me.json).toEqual({ account: null });
      // A cookie that was never issued (or is malformed) is the same as none.
      d.cookies.set('doorstep_signin', 'A'.repeat(43));
      expect((await d.call('GET', '/api/account/progress')).status).toBe(401);
      d.cookies.set('doorstep_signin', "x'; drop table accounts;--");
      expect((await d.call('GET', '/api/account/progress')).status).toBe(401);
    });

    it('a link signs in once; only hashes of the token and the cookie are stored', async () => {
      const d = new Device(t.url);
      const email = 'Once.Rep@Example.com';
      expect((await d.call('POST', '/api/account/sign-in-link', { email })).status).toBe(202);
      const token = await linkTokenFor('once.rep@example.com');

      const links = await database()
        .select()
        .from(signInLinks)
        .where(eq(signInLinks.email, 'once.rep@example.com'));
      expect(links).toHaveLength(1);
      expect(links[0].tokenHash).toBe(sha256(token));
      expect(JSON.stringify(links)).not.toContain(token);
      const minutes = (links[0].expiresAt.getTime() - links[0].createdAt.getTime()) / 60_000;
      expect(minutes).toBeGreaterThan(14.9);
      expect(minutes).toBeLessThanOrEqual(15.01);

      const first = await d.call('POST', '/api/account/sign-in', { token });
      expect(first.status).toBe(200);
      const cookieLine = first.setCookies.find((c) => c.startsWith('doorstep_signin='))!;
      expect(cookieLine).toMatch(/; HttpOnly/);
      expect(cookieLine).toMatch(/; SameSite=Lax/);
      expect(cookieLine).toMatch(/; Path=\/api/);
      expect(cookieLine).not.toMatch(/Secure/); // only in production
      const cookieId = d.cookies.get('doorstep_signin')!;
      const stored = await database().select().from(accountSessions);
      expect(stored.map((s) => s.idHash)).toContain(sha256(cookieId));
      expect(JSON.stringify(stored)).not.toContain(cookieId);

      expect((await d.call('GET', '/api/account')).json).toEqual({
        account: { email: 'once.rep@example.com' },
      });

      // The same link again, from this browser or another: refused.
      const again = await new Device(t.url).call('POST', '/api/account/sign-in', { token });
      expect(again.status).toBe(400);
      expect(again.json.error.message).toBe(LINK_INVALID_MESSAGE);
      expect(again.setCookies).toEqual([]);
    });

    it('two sign-ins racing with one link: exactly one succeeds', async () => {
      const email = 'race@example.com';
      await new Device(t.url).call('POST', '/api/account/sign-in-link', { email });
      const token = await linkTokenFor(email);
      const answers = await Promise.all(
        Array.from({ length: 5 }, () => new Device(t.url).call('POST', '/api/account/sign-in', { token })),
      );
      expect(answers.map((a) => a.status).sort()).toEqual([200, 400, 400, 400, 400]);
    });

    it('an expired link, an unknown one and a malformed one are refused alike', async () => {
      const email = 'late@example.com';
      const d = new Device(t.url);
      await d.call('POST', '/api/account/sign-in-link', { email });
      const token = await linkTokenFor(email);
      await database()
        .update(signInLinks)
        .set({ expiresAt: sql`now() - interval '1 second'` })
        .where(eq(signInLinks.tokenHash, sha256(token)));
      const expired = await d.call('POST', '/api/account/sign-in', { token });
      expect(expired.status).toBe(400);
      expect(expired.json.error.message).toBe(LINK_INVALID_MESSAGE);
      const unknown = await d.call('POST', '/api/account/sign-in', { token: 'B'.repeat(43) });
      expect(unknown.status).toBe(400);
      expect(unknown.json.error.message).toBe(LINK_INVALID_MESSAGE);
      const malformed = await d.call('POST', '/api/account/sign-in', { token: 'short' });
      expect(malformed.status).toBe(400);
      expect((await d.call('GET', '/api/account')).json).toEqual({ account: null });
      expect(await database().select().from(accounts).where(eq(accounts.email, email))).toEqual([]);
    });

    it('another site cannot ask for links or change a sign-in', async () => {
      const d = new Device(t.url);
      await signIn(d, 'origin@example.com');
      const evil = { origin: 'https://evil.example' };
      expect(
        (await d.call('POST', '/api/account/sign-in-link', { email: 'x@example.com' }, evil)).status,
      ).toBe(403);
      expect((await d.call('POST', '/api/account/sign-out-everywhere', undefined, evil)).status).toBe(403);
      expect((await d.call('POST', '/api/account/claim', undefined, evil)).status).toBe(403);
      expect((await d.call('GET', '/api/account')).json.account).not.toBeNull();
    });

    it('sign out ends this browser only; sign out everywhere ends every one', async () => {
      const email = 'everywhere@example.com';
      const phone = new Device(t.url);
      const laptop = new Device(t.url);
      const tablet = new Device(t.url);
      await signIn(phone, email);
      await signIn(laptop, email);
      await signIn(tablet, email);
      const other = new Device(t.url);
      await signIn(other, 'someone-else@example.com');

      const phoneCookie = phone.cookies.get('doorstep_signin')!;
      const out = await phone.call('POST', '/api/account/sign-out');
      expect(out.status).toBe(204);
      expect(out.setCookies.some((c) => /^doorstep_signin=;.*Max-Age=0/.test(c))).toBe(true);
      // The old cookie, replayed, is no longer a sign-in.
      phone.cookies.set('doorstep_signin', phoneCookie);
      expect((await phone.call('GET', '/api/account/progress')).status).toBe(401);
      expect((await laptop.call('GET', '/api/account/progress')).status).toBe(200);

      const all = await laptop.call('POST', '/api/account/sign-out-everywhere');
      expect(all.status).toBe(200);
      expect(all.json).toEqual({ signedOut: 2 });
      expect((await laptop.call('GET', '/api/account/progress')).status).toBe(401);
      expect((await tablet.call('GET', '/api/account/progress')).status).toBe(401);
      // Someone else's sign-in is untouched.
      expect((await other.call('GET', '/api/account/progress')).status).toBe(200);
    });

    it("claims only the practice this device made, and never another account's", async () => {
      const d1 = new Device(t.url);
      const d2 = new Device(t.url);
      const mine = (await d1.call('POST', '/api/sessions', { stage: 'Roofing' })).json.id as string;
      const theirs = (await d2.call('POST', '/api/sessions', { stage: 'HVAC' })).json.id as string;
      expect(d1.cookies.get('doorstep_device')).toMatch(/^[A-Za-z0-9_-]{43}$/);
      // The device cookie is HttpOnly, under /api, and only its hash is stored on the row.
      const [row] = await database().select().from(sessions).where(eq(sessions.id, mine));
      expect(row.deviceKey).toBe(sha256(d1.cookies.get('doorstep_device')!));
      expect(row.accountId).toBeNull();

      await signIn(d1, 'claimer@example.com');
      expect((await d1.call('GET', '/api/account/claimable')).json).toEqual({ roleplays: 1, recordings: 0 });

      // A device that never held the sessions claims nothing, whatever cookie it makes up.
      const stranger = new Device(t.url);
      await signIn(stranger, 'stranger@example.com');
      stranger.cookies.set('doorstep_device', 'C'.repeat(43));
      expect((await stranger.call('POST', '/api/account/claim')).json).toEqual({
        roleplays: 0,
        recordings: 0,
      });
      // A claim carries no ids: a body naming someone else's session changes nothing.
      const named = await stranger.call('POST', '/api/account/claim', { ids: [mine, theirs] });
      expect([200, 400]).toContain(named.status);
      expect(JSON.stringify((await stranger.call('GET', '/api/account/progress')).json)).not.toContain(mine);

      const claimed = await d1.call('POST', '/api/account/claim');
      expect(claimed.json).toEqual({ roleplays: 1, recordings: 0 });
      const progress = (await d1.call('GET', '/api/account/progress')).json as ProgressView;
      expect(progress.items.map((i) => i.id)).toEqual([mine]);

      // Claimed once: the same device signed in to another account cannot take it again.
      await d1.call('POST', '/api/account/sign-out');
      await signIn(d1, 'second@example.com');
      expect((await d1.call('GET', '/api/account/claimable')).json).toEqual({ roleplays: 0, recordings: 0 });
      expect((await d1.call('POST', '/api/account/claim')).json).toEqual({ roleplays: 0, recordings: 0 });
      const [after] = await database().select().from(sessions).where(eq(sessions.id, theirs));
      expect(after.accountId).toBeNull();
    });

    it('an uploaded recording is claimed like a role-play, by the device that uploaded it', async () => {
      const uploader = new Device(t.url);
      const form = new FormData();
      form.append('stage', 'Windows');
      form.append(
        'audio',
        new Blob([new Uint8Array(fs.readFileSync(JFK_WAV))], { type: 'audio/wav' }),
        'call.wav',
      );
      const up = await uploader.call('POST', '/api/audio/upload', form);
      expect(up.status).toBe(201);
      const id = up.json.id as string;
      expect(up.text).not.toContain(sha256(uploader.cookies.get('doorstep_device')!));
      expect(Object.keys(up.json)).not.toContain('deviceKey');

      // Another device, signed in, cannot take it.
      const other = new Device(t.url);
      await signIn(other, 'not-the-uploader@example.com');
      expect((await other.call('POST', '/api/account/claim')).json).toEqual({ roleplays: 0, recordings: 0 });

      await signIn(uploader, 'uploader@example.com');
      expect((await uploader.call('GET', '/api/account/claimable')).json).toEqual({
        roleplays: 0,
        recordings: 1,
      });
      expect((await uploader.call('POST', '/api/account/claim')).json).toEqual({
        roleplays: 0,
        recordings: 1,
      });
      const view = (await uploader.call('GET', '/api/account/progress')).json as ProgressView;
      expect(view.items).toHaveLength(1);
      expect(view.items[0]).toMatchObject({ kind: 'audio', id, stage: 'Windows', fileName: 'call.wav' });
      const [row] = await database().select().from(audioSessions).where(eq(audioSessions.id, id));
      expect(row.deviceKey).toBe(sha256(uploader.cookies.get('doorstep_device')!));
    });

    it('practice made while signed in is the account’s at once, on any device', async () => {
      const email = 'two-devices@example.com';
      const phone = new Device(t.url);
      const laptop = new Device(t.url);
      await signIn(phone, email);
      await signIn(laptop, email);
      const a = (await phone.call('POST', '/api/sessions', { stage: 'Windows' })).json.id as string;
      const b = (await laptop.call('POST', '/api/sessions', { stage: 'Flooring' })).json.id as string;
      const seen = (await phone.call('GET', '/api/account/progress')).json as ProgressView;
      expect(seen.items.map((i) => i.id)).toEqual([b, a]);
      expect(seen.email).toBe(email);

      // Another rep sees none of it, and not the address.
      const other = new Device(t.url);
      await signIn(other, 'not-them@example.com');
      const theirs = await other.call('GET', '/api/account/progress');
      expect(theirs.status).toBe(200);
      expect(theirs.text).not.toContain(a);
      expect(theirs.text).not.toContain(b);
      expect(theirs.text).not.toContain(email);
      // The public session read is unchanged: no owner or device in it.
      const read = await other.call('GET', `/api/sessions/${a}`);
      expect(read.status).toBe(200);
      expect(Object.keys(read.json)).not.toContain('accountId');
      expect(read.text).not.toContain(sha256(phone.cookies.get('doorstep_device')!));
    });

    it('progress: scores per call (locked sections only once unlocked), metrics and the weakest section', async () => {
      const d = new Device(t.url);
      await signIn(d, 'scores@example.com');
      const [acct] = await database().select().from(accounts).where(eq(accounts.email, 'scores@example.com'));
      const fx = fixtureTranscript();
      const doc = canonicalDocument(parseCoaching(sampleCoaching())!);
      const metrics = {
        version: 1,
        durationSec: 300,
        repWords: 400,
        homeownerWords: 600,
        repTurns: 20,
        homeownerTurns: 20,
        talkRatioWordsPercent: 40,
        talkRatioTimePercent: 41,
        longestMonologueWords: 55,
        longestMonologueSec: 20,
        questions: { total: 12, open: 7, closed: 5 },
        questionsPerMinute: 2.4,
        interactivityPerMinute: 8,
        patienceSec: 0.8,
        fillerWords: 3,
        fillersPerMinute: 0.6,
        paceWpm: 150,
        pressurePhrases: [],
      };
      const insert = async (startedAt: Date) => {
        const [row] = await database()
          .insert(sessions)
          .values({
            stage: fx.stage,
            transcript: fx.transcript,
            coaching: doc,
            metrics,
            startedAt,
            accountId: acct.id,
          })
          .returning({ id: sessions.id });
        return row.id;
      };
      const older = await insert(new Date(Date.now() - 86_400_000));
      const newer = await insert(new Date());
      await database()
        .insert(leads)
        .values({ sessionId: newer, sessionKind: 'roleplay', email: 'scores@example.com', consent: true });

      const view = (await d.call('GET', '/api/account/progress')).json as ProgressView;
      expect(view.items.map((i) => i.id)).toEqual([newer, older]);
      const [n, o] = view.items;
      expect(n.scores).toEqual({
        empathy: SAMPLE_SCORES.empathy,
        needsAnalysis: SAMPLE_SCORES.needsAnalysis,
        exploringOptions: SAMPLE_SCORES.exploringOptions,
        objectionHandling: SAMPLE_SCORES.objectionHandling,
        closing: SAMPLE_SCORES.closing,
        followUp: SAMPLE_SCORES.followUp,
      });
      expect(n.overall).toBe(5.5);
      // The older call was never unlocked: its gated sections carry no score.
      expect(o.scores.objectionHandling).toBeNull();
      expect(o.scores.closing).toBeNull();
      expect(o.scores.empathy).toBe(SAMPLE_SCORES.empathy);
      expect(o.overall).toBeNull();
      expect(n).toMatchObject({ talkRatio: 40, questions: 12, longestMonologueWords: 55, coached: true });
      expect(view.weakest).toEqual({
        key: 'objectionHandling',
        title: 'Objection Handling',
        average: 3,
        calls: 1,
      });
    });
  });
}

describe('sign-in link limits', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { SIGN_IN_LINKS_PER_ADDRESS: '2', SIGN_IN_LINKS_PER_CLIENT: '4' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('refuses a third link to one address in 15 minutes, and a fifth request from one client', async () => {
    const d = new Device(t.url);
    const ask = (email: string) => d.call('POST', '/api/account/sign-in-link', { email });
    expect((await ask('limit@example.com')).status).toBe(202);
    // The same address however it is written.
    expect((await ask(' LIMIT@example.com')).status).toBe(202);
    const third = await ask('limit@example.com');
    expect(third.status).toBe(429);
    expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(800);
    expect(third.json.error.message).toMatch(/already sent 2 sign-in links to that address/);
    const sent = await t.server.ctx.database.db
      .select()
      .from(outbox)
      .where(eq(outbox.toAddress, 'limit@example.com'));
    expect(sent).toHaveLength(2);

    expect((await ask('other@example.com')).status).toBe(202);
    const fifth = await ask('yet-another@example.com');
    expect(fifth.status).toBe(429);
    expect(fifth.json.error.message).toMatch(/Too many sign-in links/);
  });
});

if (dbKinds.includes('postgres')) {
  describe('sign-in link limits are shared by the web processes on PostgreSQL', () => {
    let a: TestServer;
    let b: TestServer;
    beforeAll(async () => {
      a = await startTestServer({ db: 'postgres', env: { SIGN_IN_LINKS_PER_ADDRESS: '2' } });
      b = await startTestServer({ databaseUrl: a.databaseUrl, env: { SIGN_IN_LINKS_PER_ADDRESS: '2' } });
    });
    afterAll(async () => {
      await b?.close({ keepData: true });
      await a?.close();
    });

    it('one address gets its allowance once, whichever process it asks', async () => {
      const email = 'shared@example.com';
      expect((await new Device(a.url).call('POST', '/api/account/sign-in-link', { email })).status).toBe(202);
      expect((await new Device(b.url).call('POST', '/api/account/sign-in-link', { email })).status).toBe(202);
      expect((await new Device(a.url).call('POST', '/api/account/sign-in-link', { email })).status).toBe(429);
      expect((await new Device(b.url).call('POST', '/api/account/sign-in-link', { email })).status).toBe(429);
    });
  });
}
