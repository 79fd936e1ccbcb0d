import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq, like } from 'drizzle-orm';
import { api, sharedDir, startTestServer, waitFor, type TestServer } from '../test-support/harness';
import { audioSessions, jobs } from '../db/schema';
import { purgeOldRecordings } from '../domain/audio/retention';
import { ownerTag } from '../temp';

const jfkWav = fs.readFileSync(path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav'));

async function upload(base: string, body: Buffer, name: string, type = 'audio/wav') {
  const form = new FormData();
  form.append('audio', new Blob([new Uint8Array(body)], { type }), name);
  const res = await fetch(`${base}/api/audio/upload`, { method: 'POST', body: form });
  return { status: res.status, headers: res.headers, body: (await res.json()) as any };
}

const storedFiles = (t: TestServer) =>
  fs.existsSync(path.join(t.dataDir, 'uploads')) ? fs.readdirSync(path.join(t.dataDir, 'uploads')) : [];

describe('recordings are not kept forever', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { RETENTION_DAYS: '30' } });
  });
  afterAll(async () => t?.close());

  it('states the retention period in the page config', async () => {
    expect((await api(t.url, 'GET', '/api/config')).body.retentionDays).toBe(30);
  });

  it('queues a daily purge at start, once per day', async () => {
    const db = t.server.ctx.database.db;
    const rows = await db.select().from(jobs).where(like(jobs.dedupeKey, 'purge-old-recordings:%'));
    expect(rows.map((r) => r.dedupeKey)).toContain(
      `purge-old-recordings:${new Date().toISOString().slice(0, 10)}`,
    );
    expect(t.server.ctx.worker?.kinds).toContain('purge-old-recordings');
    // After today's run, tomorrow's waits as 'scheduled', not as queued work.
    await waitFor(async () => {
      const status = await api(t.url, 'GET', '/api/status');
      return status.body.jobs.scheduled === 1 ? status : null;
    }, "tomorrow's retention run to be scheduled");
  });

  it('deletes recordings older than RETENTION_DAYS, file and row, and keeps newer ones', async () => {
    const oldOne = await upload(t.url, jfkWav, 'old.wav');
    const newOne = await upload(t.url, jfkWav, 'new.wav');
    expect([oldOne.status, newOne.status]).toEqual([201, 201]);
    const db = t.server.ctx.database.db;
    const [oldRow] = await db.select().from(audioSessions).where(eq(audioSessions.id, oldOne.body.id));
    await db
      .update(audioSessions)
      .set({ uploadedAt: new Date(Date.now() - 31 * 24 * 3600_000) })
      .where(eq(audioSessions.id, oldOne.body.id));
    expect(storedFiles(t)).toContain(oldRow.storageKey);

    const { removed } = await purgeOldRecordings(t.server.ctx);
    expect(removed).toBe(1);
    expect(storedFiles(t)).not.toContain(oldRow.storageKey);
    expect((await api(t.url, 'GET', `/api/audio/${oldOne.body.id}`)).status).toBe(404);
    expect((await api(t.url, 'GET', `/api/audio/${newOne.body.id}`)).status).toBe(200);
  });

  it('deletes the file of an upload that failed because it is not audio, and says so on retry', async () => {
    const before = storedFiles(t).length;
    // Looks like an MP3 (ID3 header) so it is accepted, but holds no decodable audio.
    const junk = Buffer.concat([Buffer.from('ID3'), Buffer.alloc(200_000, 0x5a)]);
    const res = await upload(t.url, junk, 'noise.mp3', 'audio/mpeg');
    expect(res.status).toBe(201);
    const done = await waitFor(
      async () => {
        const s = (await api(t.url, 'GET', `/api/audio/${res.body.id}`)).body;
        return s.status === 'failed' ? s : null;
      },
      'the upload to fail',
      120_000,
    );
    expect(done.error).toMatch(/could not be read as audio/);
    await waitFor(() => storedFiles(t).length === before, 'the failed upload file to be removed', 10_000);
    const retry = await api(t.url, 'POST', `/api/audio/${res.body.id}/retry`);
    expect(retry.status).toBe(409);
    expect(retry.body.error.message).toMatch(/upload the original file again/);
  });
});

describe('upload volume per client per hour', () => {
  let t: TestServer;
  beforeAll(async () => {
    // 0.5 MB an hour; the clip is ~0.34 MB, so the second upload passes the limit.
    t = await startTestServer({ env: { ROLES: 'web', UPLOAD_MB_PER_HOUR: '0.5' } });
  });
  afterAll(async () => t?.close());

  it('answers 429 with Retry-After once a client has uploaded its hourly volume', async () => {
    expect((await upload(t.url, jfkWav, 'one.wav')).status).toBe(201);
    const second = await upload(t.url, jfkWav, 'two.wav');
    expect(second.status).toBe(429);
    expect(second.body.error.code).toBe('upload_volume_exceeded');
    const retryAfter = Number(second.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(3000);
    expect(retryAfter).toBeLessThanOrEqual(3600);
    // Nothing of the refused upload was stored.
    expect(storedFiles(t).filter((f) => !f.endsWith('.part'))).toHaveLength(1);
  });
});

describe('debris from a crashed process', () => {
  it('is removed at start: partial uploads and scratch folders', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-debris-int-'));
    const dead = spawnSync('true').pid!;
    fs.mkdirSync(path.join(dataDir, 'uploads'), { recursive: true });
    fs.mkdirSync(path.join(dataDir, 'tmp', `doorstep-ps-${ownerTag(dead)}-abc`), { recursive: true });
    fs.writeFileSync(
      path.join(dataDir, 'uploads', `abcdefgh1234.${ownerTag(dead)}.part`),
      Buffer.alloc(4096),
    );
    fs.writeFileSync(path.join(dataDir, 'uploads', 'abcdefgh5678.part'), Buffer.alloc(4096));
    fs.writeFileSync(
      path.join(dataDir, 'tmp', `doorstep-ps-${ownerTag(dead)}-abc`, 'chunk-0.wav'),
      Buffer.alloc(10),
    );
    const t = await startTestServer({ dataDir, env: { ROLES: 'web' } });
    try {
      expect(fs.readdirSync(path.join(dataDir, 'uploads'))).toEqual([]);
      expect(fs.readdirSync(path.join(dataDir, 'tmp'))).toEqual([]);
    } finally {
      await t.close();
    }
  });
});
