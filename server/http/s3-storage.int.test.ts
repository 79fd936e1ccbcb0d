import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { api, sharedDir, startTestServer, type TestServer } from '../test-support/harness';
import { startTestS3, type TestS3 } from '../test-support/s3';
import { skipWithout } from '../test-support/engines';
import { audioSessions } from '../db/schema';
import { purgeOldRecordings } from '../domain/audio/retention';

const jfkWav = fs.readFileSync(path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav'));
const noEngines = skipWithout('pocketsphinx');

describe.skipIf(noEngines)('recordings in S3-compatible storage (STORAGE_URL=s3://…)', () => {
  let s3: TestS3;
  let t: TestServer;
  beforeAll(async () => {
    s3 = await startTestS3();
    t = await startTestServer({ env: { ...s3.env('calls'), RETENTION_DAYS: '30' } });
  });
  afterAll(async () => {
    await t?.close();
    await s3?.close();
  });

  it('uploads into the bucket, transcribes from it, serves byte ranges, and retention deletes it', async () => {
    const health = await api(t.url, 'GET', '/api/status');
    expect(health.body.engines.find((e: any) => e.capability === 'storage').engine).toBe('s3');
    const form = new FormData();
    form.append('audio', new Blob([new Uint8Array(jfkWav)], { type: 'audio/wav' }), 'jfk.wav');
    const res = await fetch(`${t.url}/api/audio/upload`, { method: 'POST', body: form });
    expect(res.status).toBe(201);
    const { id } = (await res.json()) as { id: string };
    const [row] = await t.server.ctx.database.db.select().from(audioSessions).where(eq(audioSessions.id, id));
    expect(s3.keys()).toContain(`calls/${row.storageKey}`);
    // Nothing is written to the local uploads folder.
    const uploads = path.join(t.dataDir, 'uploads');
    expect(fs.existsSync(uploads) ? fs.readdirSync(uploads) : []).toEqual([]);

    const ranged = await fetch(`${t.url}/api/audio/${id}/file`, { headers: { range: 'bytes=100-1099' } });
    expect(ranged.status).toBe(206);
    expect(ranged.headers.get('content-range')).toBe(`bytes 100-1099/${jfkWav.length}`);
    expect(Buffer.from(await ranged.arrayBuffer()).equals(jfkWav.subarray(100, 1100))).toBe(true);
    const whole = await fetch(`${t.url}/api/audio/${id}/file`);
    expect(Buffer.from(await whole.arrayBuffer()).equals(jfkWav)).toBe(true);

    const until = Date.now() + 150_000;
    let status = '';
    while (Date.now() < until) {
      status = (await api(t.url, 'GET', `/api/audio/${id}`)).body.status;
      if (status === 'transcribed' || status === 'failed') break;
      await new Promise((r) => setTimeout(r, 500));
    }
    expect(status).toBe('transcribed');

    await t.server.ctx.database.db
      .update(audioSessions)
      .set({ uploadedAt: new Date(Date.now() - 40 * 24 * 3600_000) })
      .where(eq(audioSessions.id, id));
    expect((await purgeOldRecordings(t.server.ctx)).removed).toBe(1);
    expect(s3.keys()).not.toContain(`calls/${row.storageKey}`);
  });
});
