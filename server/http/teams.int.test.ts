import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHash } from 'node:crypto';
import { eq } from 'drizzle-orm';
import { canonicalDocument } from '../../core/coaching-document';
import { parseCoaching } from '../../core/coaching-format';
import type { TeamCallView, TeamPage, TeamRepPage } from '../../core/teams';
import { accounts, audioSessions, leads, sessions, teamInvites } from '../db/schema';
import { Device, signInDevice } from '../test-support/account-client';
import { dbKinds, startTestServer, type TestServer } from '../test-support/harness';
import { fixtureTranscript, sampleCoaching, SAMPLE_SCORES } from '../test-support/sample-session';

const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const ORIGIN_EVIL = { origin: 'https://evil.example' };

for (const db of dbKinds) {
  describe(`teams (${db})`, () => {
    let t: TestServer;
    const database = () => t.server.ctx.database.db;

    // Two teams, each with a manager and a rep, and a signed-in rep in no team.
    let managerA: Device, managerB: Device, rep: Device, otherRep: Device, outsider: Device;
    let teamA: string, teamB: string;
    let repId: string;
    let repCall: string, repOldCall: string, repAudio: string, otherRepCall: string;
    let tokenA: string;
    /** Text that only someone allowed to see team A or the rep's calls may read. */
    let secrets: string[];

    const addCall = async (
      accountId: string,
      values: { stage?: string; startedAt?: Date; unlocked?: boolean } = {},
    ): Promise<string> => {
      const fx = fixtureTranscript();
      const [row] = await database()
        .insert(sessions)
        .values({
          stage: values.stage ?? fx.stage,
          transcript: fx.transcript,
          coaching: canonicalDocument(parseCoaching(sampleCoaching())!),
          startedAt: values.startedAt ?? new Date(),
          accountId,
        })
        .returning({ id: sessions.id });
      if (values.unlocked) {
        await database()
          .insert(leads)
          .values({ sessionId: row.id, sessionKind: 'roleplay', email: 'lead@example.com', consent: true });
      }
      return row.id;
    };

    const accountId = async (email: string) =>
      (await database().select().from(accounts).where(eq(accounts.email, email)))[0].id;

    beforeAll(async () => {
      t = await startTestServer({
        db,
        env: { SIGN_IN_LINKS_PER_CLIENT: '0', RATE_LIMIT_SIGN_IN: '0', RATE_LIMIT_TEAMS: '0' },
      });
      [managerA, managerB, rep, otherRep, outsider] = Array.from({ length: 5 }, () => new Device(t.url));
      await signInDevice(database(), managerA, 'manager.a@example.com');
      await signInDevice(database(), managerB, 'manager.b@example.com');
      await signInDevice(database(), rep, 'rep@example.com');
      await signInDevice(database(), otherRep, 'other.rep@example.com');
      await signInDevice(database(), outsider, 'outsider@example.com');

      const a = await managerA.call('POST', '/api/teams', { name: 'North Crew' });
      expect(a.status).toBe(201);
      teamA = a.json.id;
      const b = await managerB.call('POST', '/api/teams', { name: 'South Crew' });
      teamB = b.json.id;

      const inviteA = await managerA.call('POST', `/api/teams/${teamA}/invites`);
      expect(inviteA.status).toBe(201);
      tokenA = inviteA.json.token;
      const inviteB = (await managerB.call('POST', `/api/teams/${teamB}/invites`)).json.token;
      expect((await rep.call('POST', '/api/teams/join', { token: tokenA, agree: true })).status).toBe(200);
      expect((await otherRep.call('POST', '/api/teams/join', { token: inviteB, agree: true })).status).toBe(
        200,
      );

      repId = await accountId('rep@example.com');
      repCall = await addCall(repId, { unlocked: true });
      repOldCall = await addCall(repId, { startedAt: new Date('2026-01-05T12:00:00Z'), stage: 'HVAC' });
      const [audio] = await database()
        .insert(audioSessions)
        .values({
          fileName: '=HYPERLINK("http://evil.example","x").mp3',
          stage: 'Roofing',
          storageKey: 'k',
          status: 'transcribed',
          transcript: fixtureTranscript().transcript,
          accountId: repId,
        })
        .returning({ id: audioSessions.id });
      repAudio = audio.id;
      otherRepCall = await addCall(await accountId('other.rep@example.com'));
      const comment = await managerA.call('POST', `/api/teams/${teamA}/calls/roleplay/${repCall}/comments`, {
        line: 2,
        text: 'Slow down here and ask about the drafts.',
      });
      expect(comment.status).toBe(201);
      secrets = ['rep@example.com', 'North Crew', 'Slow down here', repCall, repOldCall, repAudio, tokenA];
    });

    afterAll(async () => {
      await t?.close();
    });

    /** Every route of team A, with a body where it needs one. */
    const teamRoutes = (): [string, string, unknown?][] => [
      ['GET', `/api/teams/${teamA}`],
      ['GET', `/api/teams/${teamA}?stage=Windows&from=2026-01-01&to=2027-01-01`],
      ['GET', `/api/teams/${teamA}/reps/${repId}`],
      ['GET', `/api/teams/${teamA}/calls/roleplay/${repCall}`],
      ['GET', `/api/teams/${teamA}/calls/audio/${repAudio}`],
      ['POST', `/api/teams/${teamA}/calls/roleplay/${repCall}/comments`, { line: 0, text: 'hi' }],
      ['GET', `/api/teams/${teamA}/export.csv`],
      ['POST', `/api/teams/${teamA}/invites`],
      ['DELETE', `/api/teams/${teamA}/invites/00000000-0000-4000-8000-000000000000`],
      ['DELETE', `/api/teams/${teamA}/comments/00000000-0000-4000-8000-000000000000`],
      ['DELETE', `/api/teams/${teamA}`],
    ];

    const expectNothingLeaked = (text: string, what: string) => {
      for (const s of secrets) expect(text, `${what} leaks ${s}`).not.toContain(s);
    };

    it('every team route answers 401 signed out, with only the error', async () => {
      const nobody = new Device(t.url);
      const routes: [string, string, unknown?][] = [
        ['GET', '/api/teams'],
        ['POST', '/api/teams', { name: 'x' }],
        ['POST', '/api/teams/invite', { token: tokenA }],
        ['POST', '/api/teams/join', { token: tokenA, agree: true }],
        ['POST', `/api/teams/${teamA}/leave`],
        ['GET', `/api/account/comments/roleplay/${repCall}`],
        ...teamRoutes(),
      ];
      for (const [method, url, body] of routes) {
        const res = await nobody.call(method, url, body);
        expect(res.status, `${method} ${url}`).toBe(401);
        expect(res.json).toEqual({ error: { code: 'signed_out', message: 'Please sign in to see this.' } });
      }
      // A made-up sign-in cookie is the same as none.
      nobody.cookies.set('doorstep_signin', 'B'.repeat(43));
      expect((await nobody.call('GET', `/api/teams/${teamA}`)).status).toBe(401);
    });

    it("another rep, another team's manager, a stranger and the team's own rep are all refused", async () => {
      const wrong: [string, Device][] = [
        ["the team's rep", rep],
        ['a rep of another team', otherRep],
        ["another team's manager", managerB],
        ['a signed-in stranger', outsider],
      ];
      for (const [who, device] of wrong) {
        for (const [method, url, body] of teamRoutes()) {
          const res = await device.call(method, url, body);
          expect([403, 404], `${who}: ${method} ${url} -> ${res.status}`).toContain(res.status);
          expectNothingLeaked(res.text, `${who}: ${method} ${url}`);
        }
        // Their own team list never names team A unless they are in it.
        const mine = await device.call('GET', '/api/teams');
        expect(mine.status).toBe(200);
        if (device !== rep) expectNothingLeaked(mine.text, `${who}: GET /api/teams`);
      }
      // Team B's manager cannot reach team A's rep through team B either.
      for (const url of [
        `/api/teams/${teamB}/reps/${repId}`,
        `/api/teams/${teamB}/calls/roleplay/${repCall}`,
        `/api/teams/${teamB}/calls/audio/${repAudio}`,
      ]) {
        const res = await managerB.call('GET', url);
        expect(res.status, url).toBe(404);
        expectNothingLeaked(res.text, url);
      }
      const viaB = await managerB.call('POST', `/api/teams/${teamB}/calls/roleplay/${repCall}/comments`, {
        line: 0,
        text: 'x',
      });
      expect(viaB.status).toBe(404);
      // Team A's manager cannot open team B's rep's call through team A.
      expect((await managerA.call('GET', `/api/teams/${teamA}/calls/roleplay/${otherRepCall}`)).status).toBe(
        404,
      );
      // Comments on the rep's call: the rep only.
      for (const device of [managerA, managerB, otherRep, outsider]) {
        const res = await device.call('GET', `/api/account/comments/roleplay/${repCall}`);
        expect(res.status).toBe(404);
        expectNothingLeaked(res.text, 'comments');
      }
      // Leaving a team one is not a rep of (or that does not exist) is the same 404.
      for (const device of [managerA, managerB, outsider]) {
        expect((await device.call('POST', `/api/teams/${teamA}/leave`)).status).toBe(404);
      }
      // Malformed ids are 404s, never 500s.
      for (const url of [
        '/api/teams/not-a-uuid',
        `/api/teams/${teamA}/reps/nope`,
        `/api/teams/${teamA}/calls/video/${repCall}`,
        `/api/teams/${teamA}/calls/roleplay/1'%20or%201=1`,
      ]) {
        expect((await managerA.call('GET', url)).status, url).toBe(404);
      }
      // The team still exists and the rep is still in it (no refused change went through).
      expect((await managerA.call('GET', `/api/teams/${teamA}`)).json.reps).toHaveLength(1);
    });

    it('changes from another site are refused', async () => {
      for (const [method, url, body] of [
        ['POST', '/api/teams', { name: 'x' }],
        ['POST', '/api/teams/join', { token: tokenA, agree: true }],
        ['POST', `/api/teams/${teamA}/invites`],
        ['POST', `/api/teams/${teamA}/calls/roleplay/${repCall}/comments`, { line: 0, text: 'x' }],
        ['POST', `/api/teams/${teamA}/leave`],
      ] as [string, string, unknown?][]) {
        const device = url.endsWith('/leave') ? rep : managerA;
        const res = await device.call(method, url, body, ORIGIN_EVIL);
        expect(res.status, url).toBe(403);
      }
    });

    it('invites: hashed at rest, previewed, joined only with agreement, revocable', async () => {
      const stored = await database().select().from(teamInvites).where(eq(teamInvites.teamId, teamA));
      expect(stored.map((i) => i.tokenHash)).toContain(sha256(tokenA));
      expect(JSON.stringify(stored)).not.toContain(tokenA);

      const newcomer = new Device(t.url);
      await signInDevice(database(), newcomer, 'newcomer@example.com');
      const preview = await newcomer.call('POST', '/api/teams/invite', { token: tokenA });
      expect(preview.json).toEqual({
        team: { name: 'North Crew' },
        managers: ['manager.a@example.com'],
        member: null,
      });
      // No agreement, no membership.
      const noAgree = await newcomer.call('POST', '/api/teams/join', { token: tokenA });
      expect(noAgree.status).toBe(400);
      const falseAgree = await newcomer.call('POST', '/api/teams/join', { token: tokenA, agree: false });
      expect(falseAgree.status).toBe(400);
      expect((await newcomer.call('GET', '/api/teams')).json).toEqual({ teams: [] });

      // The manager cannot join their own team as a rep.
      expect((await managerA.call('POST', '/api/teams/join', { token: tokenA, agree: true })).status).toBe(
        409,
      );

      // A second link; turning the first off stops it and leaves the second working.
      const second = (await managerA.call('POST', `/api/teams/${teamA}/invites`)).json;
      const page = (await managerA.call('GET', `/api/teams/${teamA}`)).json as TeamPage;
      expect(page.invites.map((i) => i.id)).toContain(second.id);
      expect(JSON.stringify(page)).not.toContain(second.token);
      const first = stored.find((i) => i.tokenHash === sha256(tokenA))!;
      expect((await managerB.call('DELETE', `/api/teams/${teamA}/invites/${first.id}`)).status).toBe(404);
      expect((await managerA.call('DELETE', `/api/teams/${teamA}/invites/${first.id}`)).status).toBe(204);
      const refused = await newcomer.call('POST', '/api/teams/join', { token: tokenA, agree: true });
      expect(refused.status).toBe(404);
      expect(refused.json.error.code).toBe('invite_invalid');
      expect((await newcomer.call('POST', '/api/teams/invite', { token: tokenA })).status).toBe(404);
      // A made-up token and an expired one are refused the same way.
      expect((await newcomer.call('POST', '/api/teams/invite', { token: 'C'.repeat(43) })).status).toBe(404);
      await database()
        .update(teamInvites)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(teamInvites.id, second.id));
      expect(
        (await newcomer.call('POST', '/api/teams/join', { token: second.token, agree: true })).status,
      ).toBe(404);
      // The rep who joined earlier stays in.
      expect((await managerA.call('GET', `/api/teams/${teamA}`)).json.reps).toHaveLength(1);
      // A fresh link for the tests that follow.
      tokenA = (await managerA.call('POST', `/api/teams/${teamA}/invites`)).json.token;
    });

    it("the manager sees the rep's scores, averages, weakest sections and filters", async () => {
      const page = (await managerA.call('GET', `/api/teams/${teamA}`)).json as TeamPage;
      expect(page.team).toEqual({ id: teamA, name: 'North Crew' });
      expect(page.reps).toHaveLength(1);
      const row = page.reps[0];
      expect(row).toMatchObject({ id: repId, email: 'rep@example.com', calls: 3 });
      // Two coached role-plays: one unlocked (all six), one locked (three open sections).
      expect(row.sections.empathy).toBe(SAMPLE_SCORES.empathy);
      expect(row.sections.objectionHandling).toBe(SAMPLE_SCORES.objectionHandling);
      expect(page.averages.closing).toBe(SAMPLE_SCORES.closing);
      expect(page.weakest[0]).toMatchObject({ key: 'objectionHandling', average: 3, scores: 1 });
      expect(page.weakest.at(-1)).toMatchObject({ key: 'empathy', average: 8, scores: 2 });
      expect(row.weekly.length).toBe(2);

      const hvac = (await managerA.call('GET', `/api/teams/${teamA}?stage=HVAC`)).json as TeamPage;
      expect(hvac.reps[0].calls).toBe(1);
      expect(hvac.averages.objectionHandling).toBeNull(); // that call was never unlocked
      const january = (await managerA.call('GET', `/api/teams/${teamA}?from=2026-01-01&to=2026-01-05`))
        .json as TeamPage;
      expect(january.calls).toBe(1);
      expect(january.reps[0].lastAt).toBe('2026-01-05T12:00:00.000Z');
      const none = (await managerA.call('GET', `/api/teams/${teamA}?from=2020-01-01&to=2020-01-02`))
        .json as TeamPage;
      expect(none.calls).toBe(0);
      expect(none.weakest).toEqual([]);
      for (const bad of ['stage=Boats', 'from=yesterday', 'from=2026-02-01&to=2026-01-01', 'sort=x']) {
        const res = await managerA.call('GET', `/api/teams/${teamA}?${bad}`);
        expect(res.status, bad).toBe(400);
        expect(res.json.error.message).toBeTruthy();
      }

      const repPage = (await managerA.call('GET', `/api/teams/${teamA}/reps/${repId}`)).json as TeamRepPage;
      expect(repPage.items.map((i) => i.id)).toEqual([repAudio, repCall, repOldCall]);
      expect(repPage.items[1].overall).toBe(5.5);
      expect(repPage.items[2].scores.closing).toBeNull();
    });

    it('the manager opens a call read-only, comments on a line, and the rep sees it', async () => {
      const view = (await managerA.call('GET', `/api/teams/${teamA}/calls/roleplay/${repCall}`))
        .json as TeamCallView;
      const fx = fixtureTranscript();
      expect(view.lines[0]).toEqual({ n: 0, speaker: 'other', text: fx.transcript[0].transcript });
      expect(view.lines[2].text).toBe(fx.transcript[2].transcript.trim());
      expect(view.coaching?.sections.find((s) => s.key === 'closing')?.score).toBe(SAMPLE_SCORES.closing);
      expect(view.comments).toHaveLength(1);
      expect(view.comments[0]).toMatchObject({
        line: 2,
        quote: view.lines[2].text,
        text: 'Slow down here and ask about the drafts.',
        author: 'manager.a@example.com',
      });
      // The locked call keeps its gated sections locked for the manager too.
      const locked = (await managerA.call('GET', `/api/teams/${teamA}/calls/roleplay/${repOldCall}`))
        .json as TeamCallView;
      expect(locked.coaching?.sections.find((s) => s.key === 'closing')).toMatchObject({
        score: null,
        locked: true,
      });
      const past = await managerA.call('POST', `/api/teams/${teamA}/calls/roleplay/${repCall}/comments`, {
        line: 999,
        text: 'nowhere',
      });
      expect(past.status).toBe(400);
      const empty = await managerA.call('POST', `/api/teams/${teamA}/calls/roleplay/${repCall}/comments`, {
        line: 1,
        text: '   ',
      });
      expect(empty.status).toBe(400);

      const mine = await rep.call('GET', `/api/account/comments/roleplay/${repCall}`);
      expect(mine.status).toBe(200);
      expect(mine.json.comments).toEqual([
        expect.objectContaining({
          line: 2,
          text: 'Slow down here and ask about the drafts.',
          team: 'North Crew',
        }),
      ]);
      // The public read of the session is unchanged: no comments, owner or team in it.
      const open = await new Device(t.url).call('GET', `/api/sessions/${repCall}`);
      expect(open.status).toBe(200);
      expect(open.text).not.toContain('Slow down here');
      expect(open.text).not.toContain('North Crew');
    });

    it('the CSV has every call, with cells a spreadsheet will not run', async () => {
      await database()
        .update(sessions)
        .set({ metrics: { talkRatioWordsPercent: 41, questions: { total: 9 } } })
        .where(eq(sessions.id, repCall));
      const res = await managerA.call('GET', `/api/teams/${teamA}/export.csv`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/csv/);
      expect(res.headers.get('content-disposition')).toBe('attachment; filename="North-Crew-practice.csv"');
      expect(res.headers.get('cache-control')).toBe('no-store');
      const lines = res.text.trim().split('\r\n');
      expect(lines[0]).toMatch(/^Rep,Kind,Trade,Date,File,Overall,Empathy and Connection,/);
      expect(lines).toHaveLength(4);
      const s = SAMPLE_SCORES;
      const unlocked = lines.find((l) => l.includes(',Windows,'))!;
      expect(unlocked).toMatch(
        new RegExp(
          `^rep@example\\.com,Role-play,Windows,[^,]+,,5\\.5,${s.empathy},${s.needsAnalysis},${s.exploringOptions},${s.objectionHandling},${s.closing},${s.followUp},41,9$`,
        ),
      );
      // The locked call: its gated sections and overall stay empty, as the rep sees them.
      const locked = lines.find((l) => l.includes(',HVAC,'))!;
      expect(locked).toMatch(
        new RegExp(
          `,HVAC,2026-01-05T12:00:00\\.000Z,,,${s.empathy},${s.needsAnalysis},${s.exploringOptions},,,,,$`,
        ),
      );
      const audioLine = lines.find((l) => l.includes('Roofing'))!;
      expect(audioLine).toContain(`"'=HYPERLINK(""http://evil.example"",""x"").mp3"`);
      expect(audioLine).not.toMatch(/,=/);
      const filtered = await managerA.call('GET', `/api/teams/${teamA}/export.csv?stage=HVAC`);
      expect(filtered.text.trim().split('\r\n')).toHaveLength(2);
    });

    it("a rep who leaves is gone from the team's view at once", async () => {
      const teams = (await rep.call('GET', '/api/teams')).json;
      expect(teams).toEqual({ teams: [{ id: teamA, name: 'North Crew', role: 'rep', reps: 0 }] });
      expect((await rep.call('POST', `/api/teams/${teamA}/leave`)).status).toBe(204);
      const page = (await managerA.call('GET', `/api/teams/${teamA}`)).json as TeamPage;
      expect(page.reps).toEqual([]);
      expect(page.calls).toBe(0);
      expect(page.weakest).toEqual([]);
      for (const url of [
        `/api/teams/${teamA}/reps/${repId}`,
        `/api/teams/${teamA}/calls/roleplay/${repCall}`,
        `/api/teams/${teamA}/calls/audio/${repAudio}`,
      ]) {
        const res = await managerA.call('GET', url);
        expect(res.status, url).toBe(404);
        expect(res.text).not.toContain('rep@example.com');
      }
      const commentAfter = await managerA.call(
        'POST',
        `/api/teams/${teamA}/calls/roleplay/${repCall}/comments`,
        {
          line: 0,
          text: 'x',
        },
      );
      expect(commentAfter.status).toBe(404);
      const csv = await managerA.call('GET', `/api/teams/${teamA}/export.csv`);
      expect(csv.text).not.toContain('rep@example.com');
      expect(csv.text.trim().split('\r\n')).toHaveLength(1);
      // Leaving twice is a 404; the rep's own comments stay theirs.
      expect((await rep.call('POST', `/api/teams/${teamA}/leave`)).status).toBe(404);
      expect((await rep.call('GET', `/api/account/comments/roleplay/${repCall}`)).json.comments).toHaveLength(
        1,
      );
      // Joining again (with agreement) shares again.
      expect((await rep.call('POST', '/api/teams/join', { token: tokenA, agree: true })).status).toBe(200);
      expect(((await managerA.call('GET', `/api/teams/${teamA}`)).json as TeamPage).reps).toHaveLength(1);
    });

    it('the scores column copes with any stored coaching: legacy text, null, out of range', async () => {
      const doc = canonicalDocument(parseCoaching(sampleCoaching())!);
      const odd = [
        { legacyText: '**Summary**\nOld.' },
        { ...doc, sections: doc.sections.map((s) => ({ ...s, score: null })) },
        { ...doc, sections: doc.sections.map((s) => ({ ...s, score: 99999 })) },
        { ...doc, sections: doc.sections.map((s) => ({ ...s, score: 'seven' })) },
      ];
      const outsiderId = await accountId('outsider@example.com');
      for (const coaching of odd) {
        const [row] = await database()
          .insert(sessions)
          .values({ stage: 'General', coaching: coaching as never, accountId: outsiderId })
          .returning({ id: sessions.id, scores: sessions.sectionScores });
        expect(row.scores).toEqual([null, null, null, null, null, null]);
      }
      const [scored] = await database()
        .select({ scores: sessions.sectionScores })
        .from(sessions)
        .where(eq(sessions.id, repCall));
      expect(scored.scores).toEqual([
        SAMPLE_SCORES.empathy,
        SAMPLE_SCORES.needsAnalysis,
        SAMPLE_SCORES.exploringOptions,
        SAMPLE_SCORES.objectionHandling,
        SAMPLE_SCORES.closing,
        SAMPLE_SCORES.followUp,
      ]);
    });

    it('a manager deletes their team; then it answers nobody', async () => {
      const made = (await managerB.call('POST', '/api/teams', { name: 'Short-lived' })).json;
      expect((await managerA.call('DELETE', `/api/teams/${made.id}`)).status).toBe(404);
      expect((await managerB.call('DELETE', `/api/teams/${made.id}`)).status).toBe(204);
      expect((await managerB.call('GET', `/api/teams/${made.id}`)).status).toBe(404);
      const bad = await managerB.call('POST', '/api/teams', { name: '' });
      expect(bad.status).toBe(400);
      const long = await managerB.call('POST', '/api/teams', { name: 'x'.repeat(81) });
      expect(long.status).toBe(400);
    });
  });
}
