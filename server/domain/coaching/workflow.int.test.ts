import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq, like } from 'drizzle-orm';
import { coachingDocumentSchema, coachingText } from '../../../core/coaching-document';
import { SECTION_KEYS } from '../../../core/coaching-format';
import type { TranscriptEntry } from '../../../core/transcript';
import { audioSessions, jobs, sessions } from '../../db/schema';
import { VoiceCallClient } from '../../test-support/call-client';
import { skipWithout } from '../../test-support/engines';
import {
  api,
  dbKinds,
  sharedDir,
  startTestServer,
  waitFor,
  type TestServer,
} from '../../test-support/harness';

const fixture = JSON.parse(
  fs.readFileSync(path.join(sharedDir, 'fixtures/transcripts/dev-02-windows.json'), 'utf8'),
) as { stage: string; durationSec: number; transcript: TranscriptEntry[] };

const jfkWav = path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav');

/**
 * The server owns a call's life: once a transcript is saved (by the server at a call's end, by
 * the page for a call that ran elsewhere, by a recording's transcription), its coaching is
 * written by the server whether or not the page ever asks for it.
 */
for (const db of dbKinds) {
  describe(`a call's life on the server (${db})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ db });
    });
    afterAll(async () => {
      await t?.close();
    });

    const rows = () => t.server.ctx.database.db;
    const storedSession = async (id: string) =>
      (await rows().select().from(sessions).where(eq(sessions.id, id)))[0];
    const coachJobs = async (kind: string, id: string) =>
      rows()
        .select({ status: jobs.status, attempts: jobs.attempts })
        .from(jobs)
        .where(and(eq(jobs.kind, 'coach'), like(jobs.dedupeKey, `coach:${kind}:${id}:%`)));
    /** The job's row is marked done just after the coaching it stored. */
    const settled = (kind: string, id: string) =>
      waitFor(
        async () => (await coachJobs(kind, id)).every((j) => j.status === 'done' || j.status === 'failed'),
        'the coaching job to be marked done',
      );

    async function typedCall(stage = 'Windows') {
      const { body: session } = await api(t.url, 'POST', '/api/sessions', { stage });
      const call = await VoiceCallClient.connect(t.url);
      call.sendJson({ type: 'start', stage, sessionId: session.id, input: 'text', output: 'text' });
      await call.waitForEvent('ready');
      await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
        timeoutMs: 30_000,
      });
      for (const line of [
        'Hi, thanks for having me over. What made you start looking at new windows?',
        'How long have the drafts in the living room been bothering you?',
        'Would a Tuesday or a Thursday evening work to measure every window?',
      ]) {
        const mark = call.received.length;
        call.sendJson({ type: 'user-text', text: line });
        await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
          from: mark,
          timeoutMs: 30_000,
        });
      }
      return { call, sessionId: session.id as string };
    }

    it('a call that ends is saved and coached by the server, with nobody asking', async () => {
      const { call, sessionId } = await typedCall();
      call.stop();
      await call.waitForEvent('ended');
      call.close();
      const row = await waitFor(async () => {
        const r = await storedSession(sessionId);
        return r?.coaching ? r : null;
      }, 'the coaching of the ended call');
      // Stored as a document, every section in it; the text answer is its rendering.
      const doc = coachingDocumentSchema.parse(row.coaching);
      expect(doc.sections.map((s) => s.key)).toEqual([...SECTION_KEYS]);
      expect(row.transcript.filter((e) => e.role === 'user')).toHaveLength(3);
      expect(row.engines).not.toBeNull();
      await settled('roleplay', sessionId);
      expect(await coachJobs('roleplay', sessionId)).toEqual([{ status: 'done', attempts: 1 }]);
      // The page asking later gets what the job stored, as the spec's text.
      const asked = await api(t.url, 'POST', `/api/sessions/${sessionId}/coaching`);
      expect(asked.status).toBe(200);
      expect(asked.body.coaching).toBe(coachingText(row.coaching, false));
      expect(asked.body.document.sections.find((s: any) => s.key === 'closing')).toMatchObject({
        locked: true,
        score: null,
      });
    });

    it('a call whose socket drops is coached too', async () => {
      const { call, sessionId } = await typedCall('General');
      call.terminate();
      const row = await waitFor(async () => {
        const r = await storedSession(sessionId);
        return r?.coaching ? r : null;
      }, 'the coaching of the dropped call');
      expect(row.endedAt).not.toBeNull();
      await settled('roleplay', sessionId);
      expect(await coachJobs('roleplay', sessionId)).toEqual([{ status: 'done', attempts: 1 }]);
    });

    it("the page's copy does not replace what the server saved", async () => {
      const { call, sessionId } = await typedCall();
      call.stop();
      await call.waitForEvent('ended');
      call.close();
      const before = await storedSession(sessionId);
      const put = await api(t.url, 'PUT', `/api/sessions/${sessionId}/transcript`, {
        transcript: [{ role: 'user', transcript: 'Something else entirely.', timestamp: 1 }],
        duration: '5',
      });
      expect(put.status).toBe(409);
      expect(put.body.error.code).toBe('saved_by_server');
      const after = await storedSession(sessionId);
      expect(after.transcript).toEqual(before.transcript);
      expect(after.engines).toEqual(before.engines);
    });

    it('a transcript the page saves (a call that ran elsewhere) is coached with nobody asking', async () => {
      const { body: session } = await api(t.url, 'POST', '/api/sessions', { stage: fixture.stage });
      const put = await api(t.url, 'PUT', `/api/sessions/${session.id}/transcript`, {
        transcript: fixture.transcript,
        duration: String(fixture.durationSec),
      });
      expect(put.status).toBe(200);
      const row = await waitFor(async () => {
        const r = await storedSession(session.id);
        return r?.coaching ? r : null;
      }, 'the coaching of the saved transcript');
      expect(coachingDocumentSchema.safeParse(row.coaching).success).toBe(true);
      await settled('roleplay', session.id);
      expect(await coachJobs('roleplay', session.id)).toEqual([{ status: 'done', attempts: 1 }]);
    });

    it('a request that comes before the worker runs the queued job itself: one coaching, one run', async () => {
      const worker = t.server.ctx.worker!;
      await worker.stop();
      try {
        const { body: session } = await api(t.url, 'POST', '/api/sessions', { stage: fixture.stage });
        await api(t.url, 'PUT', `/api/sessions/${session.id}/transcript`, {
          transcript: fixture.transcript,
          duration: String(fixture.durationSec),
        });
        expect(await coachJobs('roleplay', session.id)).toEqual([{ status: 'queued', attempts: 0 }]);
        const asked = await api(t.url, 'POST', `/api/sessions/${session.id}/coaching`);
        expect(asked.status).toBe(200);
        // The request took the job: it is done, and no worker will coach this transcript again.
        expect(await coachJobs('roleplay', session.id)).toEqual([{ status: 'done', attempts: 1 }]);
        const stored = (await storedSession(session.id)).coaching;
        const again = await api(t.url, 'POST', `/api/sessions/${session.id}/coaching`);
        expect(again.body.coaching).toBe(asked.body.coaching);
        expect((await storedSession(session.id)).coaching).toEqual(stored);
      } finally {
        await worker.start();
      }
    });

    it('a new transcript gets its own coaching; the old version is never stored over it', async () => {
      const { body: session } = await api(t.url, 'POST', '/api/sessions', { stage: fixture.stage });
      await api(t.url, 'PUT', `/api/sessions/${session.id}/transcript`, {
        transcript: fixture.transcript.slice(0, 12),
        duration: '60',
      });
      await api(t.url, 'PUT', `/api/sessions/${session.id}/transcript`, {
        transcript: fixture.transcript,
        duration: String(fixture.durationSec),
      });
      await waitFor(
        async () => (await coachJobs('roleplay', session.id)).every((j) => j.status === 'done'),
        'both coaching jobs',
      );
      const row = await storedSession(session.id);
      expect(row.coaching).not.toBeNull();
      expect(row.transcript).toHaveLength(
        fixture.transcript.filter((e) => e.transcriptType !== 'partial').length,
      );
      // The answer is the coaching of the transcript as it stands (every line of the full call).
      const asked = await api(t.url, 'POST', `/api/sessions/${session.id}/coaching`);
      expect(asked.body.coaching).toBe(coachingText(row.coaching, false));
    });

    const noEngines = skipWithout('pocketsphinx', 'pdftotext');
    it.skipIf(noEngines)(
      'an upload is transcribed and coached with nobody asking; its PDF comes from the stored document',
      async () => {
        const form = new FormData();
        form.append('stage', 'General');
        form.append(
          'audio',
          new Blob([new Uint8Array(fs.readFileSync(jfkWav))], { type: 'audio/wav' }),
          'jfk.wav',
        );
        const up = await fetch(`${t.url}/api/audio/upload`, { method: 'POST', body: form });
        expect(up.status).toBe(201);
        const { id } = (await up.json()) as { id: string };
        const row = await waitFor(
          async () => {
            const [r] = await rows().select().from(audioSessions).where(eq(audioSessions.id, id));
            return r?.coaching ? r : null;
          },
          'the coaching of the upload',
          120_000,
        );
        expect(coachingDocumentSchema.safeParse(row.coaching).success).toBe(true);
        expect(row.step).toBeNull();
        await settled('audio', id);
        expect(await coachJobs('audio', id)).toEqual([{ status: 'done', attempts: 1 }]);
        const poll = await api(t.url, 'GET', `/api/audio/${id}`);
        expect(poll.body.coaching).toBe(coachingText(row.coaching, false));
        const pdf = await fetch(`${t.url}/api/audio/${id}/pdf`);
        expect(pdf.status).toBe(200);
        expect(pdf.headers.get('content-type')).toBe('application/pdf');
        // Swapping the speakers is a new transcript: it is coached again by the server.
        const swapped = await api(t.url, 'POST', `/api/audio/${id}/swap-speakers`, { swapped: true });
        expect(swapped.status).toBe(200);
        await waitFor(async () => {
          const [r] = await rows().select().from(audioSessions).where(eq(audioSessions.id, id));
          return r?.coaching && r.transcriptVersion !== row.transcriptVersion ? r : null;
        }, 'the coaching after the swap');
        await settled('audio', id);
        expect((await coachJobs('audio', id)).map((j) => j.status)).toEqual(['done', 'done']);
      },
    );
  });
}
