import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { jobs } from '../db/schema';
import { FakeStt } from '../providers/stt/fake';
import { api, dbKinds, sharedDir, startTestServer, waitFor, type TestServer } from '../test-support/harness';

const jfk = fs.readFileSync(path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav'));

/** An upload from one client address (the server trusts one proxy hop in these tests). */
async function upload(base: string, from: string, name = 'call.wav') {
  const form = new FormData();
  form.append('stage', 'General');
  form.append('audio', new Blob([new Uint8Array(jfk)], { type: 'audio/wav' }), name);
  const res = await fetch(`${base}/api/audio/upload`, {
    method: 'POST',
    body: form,
    headers: { 'x-forwarded-for': from },
  });
  return { status: res.status, body: (await res.json()) as any, headers: res.headers };
}

function uploadedFiles(dataDir: string): string[] {
  const dir = path.join(dataDir, 'uploads');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}

for (const db of dbKinds) {
  describe(`each client's share of the transcription queue (${db})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      // Web role only: queued recordings stay queued, as behind a busy worker.
      t = await startTestServer({
        db,
        env: { ROLES: 'web', TRUST_PROXY: 'true', MAX_QUEUED_RECORDINGS: '2' },
      });
    });
    afterAll(async () => t?.close());

    it('takes two recordings per client at a time; a third is refused before it is read', async () => {
      expect((await upload(t.url, '203.0.113.7')).status).toBe(201);
      expect((await upload(t.url, '203.0.113.7')).status).toBe(201);
      const before = uploadedFiles(t.dataDir).length;
      const third = await upload(t.url, '203.0.113.7');
      expect(third.status).toBe(429);
      expect(third.body.error.code).toBe('too_many_recordings');
      expect(third.body.error.message).toBe(
        'You already have 2 recordings waiting to be transcribed. Upload the next one when one of them is done.',
      );
      expect(Number(third.headers.get('retry-after'))).toBeGreaterThan(0);
      expect(uploadedFiles(t.dataDir).length).toBe(before);
      // Another client is not held up by the first one's queue.
      expect((await upload(t.url, '198.51.100.20')).status).toBe(201);
    });

    it('two uploads at once cannot both take the last place', async () => {
      const results = await Promise.all([1, 2, 3, 4].map(() => upload(t.url, '192.0.2.44')));
      expect(results.map((r) => r.status).sort()).toEqual([201, 201, 429, 429]);
      const queued = await t.server.ctx.database.db.select({ owner: jobs.ownerKey }).from(jobs);
      const mine = queued.filter((j) => j.owner === queued.at(-1)!.owner);
      expect(mine).toHaveLength(2);
    });
  });

  describe(`each client's hourly minutes of audio (${db})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      // 18 seconds an hour: one 11-second recording fits, a second must wait.
      t = await startTestServer({ db, env: { AUDIO_MINUTES_PER_HOUR: '0.3', TRUST_PROXY: 'true' } });
      const info = t.server.ctx.providers.info('stt')!;
      t.server.ctx.providers.replace('stt', new FakeStt(), { ...info, engine: 'fake-stt' });
    });
    afterAll(async () => t?.close());

    it('starts a recording past the budget only when the hour frees enough, and says when', async () => {
      const first = await upload(t.url, '203.0.113.9');
      expect(first.status).toBe(201);
      await waitFor(
        async () => (await api(t.url, 'GET', `/api/audio/${first.body.id}`)).body.status === 'transcribed',
        'the first recording',
      );
      const second = await upload(t.url, '203.0.113.9');
      expect(second.status).toBe(201);
      const waiting = await waitFor(async () => {
        const { body } = await api(t.url, 'GET', `/api/audio/${second.body.id}`);
        return body.waitingUntil ? body : null;
      }, 'the second recording to wait');
      expect(waiting.status).toBe('uploaded');
      expect(waiting.step).toBeNull();
      const wait = Date.parse(waiting.waitingUntil) - Date.now();
      expect(wait).toBeGreaterThan(55 * 60_000);
      expect(wait).toBeLessThanOrEqual(60 * 60_000);
      const [job] = await t.server.ctx.database.db
        .select()
        .from(jobs)
        .where(eq(jobs.dedupeKey, `transcribe-audio:${second.body.id}`));
      expect(job).toMatchObject({ status: 'queued', attempts: 0 });
      expect(Math.abs(job.runAt.getTime() - Date.parse(waiting.waitingUntil))).toBeLessThan(1000);
      // Another client's recording is not held back by it.
      const other = await upload(t.url, '198.51.100.5');
      await waitFor(
        async () => (await api(t.url, 'GET', `/api/audio/${other.body.id}`)).body.status === 'transcribed',
        "another client's recording",
      );
    });
  });
}
