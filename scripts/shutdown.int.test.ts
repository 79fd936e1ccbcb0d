/**
 * SIGTERM on the real server process while a recording is being transcribed: the process exits
 * cleanly, the running job is back in the queue (not left "running" for a lease to expire),
 * and the next start finishes it.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createTestDatabase, dbKinds, sharedDir } from '../server/test-support/harness';
import { openForIntegrity } from './lib/integrity';
import { ServerProcess, tempDataDir } from './lib/server-process';

const recording = fs.readFileSync(
  path.join(sharedDir, 'fixtures/audio/azure_customspeech_en/testing_audio.wav'),
);

async function statusOf(base: string, id: string) {
  return (await (await fetch(`${base}/api/audio/${id}`)).json()) as { status: string; transcript: unknown[] };
}

for (const db of dbKinds) {
  describe(`SIGTERM during transcription on ${db}`, () => {
    const dataDir = tempDataDir('doorstep-sigterm-');
    let server: ServerProcess | undefined;
    let drop: (() => Promise<void>) | undefined;
    afterAll(async () => {
      await server?.stop('SIGKILL');
      await drop?.();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });

    it('returns the running job to the queue and finishes it after the restart', async () => {
      let databaseUrl: string | undefined;
      if (db === 'postgres') {
        const created = await createTestDatabase();
        databaseUrl = created.url;
        drop = created.drop;
      }
      server = await ServerProcess.create({
        DATA_DIR: dataDir,
        ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
      });
      await server.start();
      const form = new FormData();
      form.append('stage', 'General');
      form.append('audio', new Blob([recording], { type: 'audio/wav' }), 'call.wav');
      const res = await fetch(`${server.url}/api/audio/upload`, { method: 'POST', body: form });
      expect(res.status).toBe(201);
      const { sessionId } = (await res.json()) as { sessionId: string };

      // 42 s of speech takes the offline recogniser a while: wait until it is under way.
      const deadline = Date.now() + 60_000;
      let status = '';
      while (Date.now() < deadline && status !== 'transcribing' && status !== 'transcribed') {
        status = (await statusOf(server.url, sessionId)).status;
        if (status !== 'transcribing') await new Promise((r) => setTimeout(r, 100));
      }
      expect(status).toBe('transcribing');
      expect(await server.stop('SIGTERM')).toBe(0);

      const check = await openForIntegrity({ databaseUrl, dataDir });
      try {
        const jobs = await check.query(
          `select status, locked_by from jobs where kind not in ('feedback-email', 'purge-old-recordings')`,
        );
        expect(jobs.map((j) => j.status)).toEqual(['queued']);
        expect(jobs[0].locked_by).toBeNull();
        expect(check.problems).toEqual([]);
      } finally {
        await check.close();
      }

      await server.start();
      const until = Date.now() + 180_000;
      let final = await statusOf(server.url, sessionId);
      while (Date.now() < until && final.status !== 'transcribed' && final.status !== 'failed') {
        await new Promise((r) => setTimeout(r, 500));
        final = await statusOf(server.url, sessionId);
      }
      expect(final.status).toBe('transcribed');
      expect(final.transcript.length).toBeGreaterThan(0);
    }, 300_000);
  });
}
