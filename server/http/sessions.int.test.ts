import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, dbKinds, sharedDir, startTestServer, type TestServer } from '../test-support/harness';
import { parseCoaching } from '../../core/coaching-format';

const fixture = JSON.parse(
  fs.readFileSync(path.join(sharedDir, 'fixtures/transcripts/dev-02-windows.json'), 'utf8'),
) as { stage: string; durationSec: number; transcript: any[] };

for (const db of dbKinds) {
  describe(`sessions API on ${db}`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ db });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('creates a session for each stage and reads it back', async () => {
      for (const stage of ['Windows', 'HVAC', 'Roofing', 'Flooring', 'General']) {
        const created = await api(t.url, 'POST', '/api/sessions', { stage });
        expect(created.status).toBe(201);
        expect(created.body).toMatchObject({
          stage,
          endedAt: null,
          duration: null,
          transcript: [],
          coaching: null,
          unlocked: false,
        });
        expect(created.body.id).toMatch(/^[0-9a-f-]{36}$/);
        expect(Number.isNaN(Date.parse(created.body.startedAt))).toBe(false);
        const read = await api(t.url, 'GET', `/api/sessions/${created.body.id}`);
        expect(read.status).toBe(200);
        expect(read.body).toEqual(created.body);
      }
    });

    it('refuses a stage that is not one of the five, and other bad bodies', async () => {
      const cases: unknown[] = [
        { stage: 'Plumbing' },
        { stage: 'windows' },
        {},
        { stage: 3 },
        { stage: 'General', extra: true },
        [],
        'null',
      ];
      for (const body of cases) {
        const res = await api(t.url, 'POST', '/api/sessions', body);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.code).toBe('invalid_request');
        expect(res.body.error.message.length).toBeGreaterThan(5);
      }
      const res = await api(t.url, 'POST', '/api/sessions', { stage: 'Plumbing' });
      expect(res.body.error.message).toContain('Windows, HVAC, Roofing, Flooring, General');
    });

    it('answers 404 JSON for unknown and malformed ids', async () => {
      for (const id of ['00000000-0000-4000-8000-000000000000', 'abc', '1', "x'or'1'='1", '%00']) {
        for (const [method, suffix, body] of [
          ['GET', '', undefined],
          ['PUT', '/transcript', { transcript: [], duration: '1' }],
          ['POST', '/coaching', undefined],
        ] as const) {
          const res = await api(t.url, method, `/api/sessions/${id}${suffix}`, body);
          expect(res.status, `${method} ${id}${suffix}`).toBe(404);
          expect(res.body.error).toEqual({ code: 'not_found', message: 'Session not found' });
        }
      }
    });

    it('saves only final entries, sets endedAt and duration, and validates the shape', async () => {
      const { body: session } = await api(t.url, 'POST', '/api/sessions', { stage: 'Windows' });
      const bad = [
        { transcript: 'hello' },
        { transcript: [{ role: 'rep', transcript: 'hi', timestamp: 1 }] },
        { transcript: [{ role: 'user', transcript: 'hi', timestamp: -1 }] },
        { transcript: [{ role: 'user', transcript: 'hi', timestamp: 1 }], duration: '1.5' },
        { transcript: [{ role: 'user', transcript: 'hi', timestamp: 1 }], duration: 12 },
        { transcript: [{ role: 'user', transcript: 'x'.repeat(20_001), timestamp: 1 }] },
      ];
      for (const body of bad) {
        const res = await api(t.url, 'PUT', `/api/sessions/${session.id}/transcript`, body);
        expect(res.status, JSON.stringify(body).slice(0, 100)).toBe(400);
        expect(res.body.error.code).toBe('invalid_request');
      }
      // Nothing stored was touched by the refused requests.
      expect((await api(t.url, 'GET', `/api/sessions/${session.id}`)).body.endedAt).toBeNull();

      const entries = [
        { role: 'assistant', transcript: 'Come on in.', timestamp: 1000, transcriptType: 'final' },
        { role: 'user', transcript: 'Thanks for hav', timestamp: 1500, transcriptType: 'partial' },
        { role: 'user', transcript: 'Thanks for having me.', timestamp: 2000 },
      ];
      const saved = await api(t.url, 'PUT', `/api/sessions/${session.id}/transcript`, {
        transcript: entries,
        duration: '42',
      });
      expect(saved.status).toBe(200);
      expect(saved.body.duration).toBe('42');
      expect(saved.body.endedAt).not.toBeNull();
      expect(saved.body.transcript.map((e: any) => e.transcript)).toEqual([
        'Come on in.',
        'Thanks for having me.',
      ]);
      expect(saved.body.transcript.every((e: any) => e.transcriptType === 'final')).toBe(true);
      const read = await api(t.url, 'GET', `/api/sessions/${session.id}`);
      expect(read.body).toEqual(saved.body);
    });

    it('refuses coaching before a conversation was saved', async () => {
      const { body: session } = await api(t.url, 'POST', '/api/sessions', { stage: 'General' });
      const res = await api(t.url, 'POST', `/api/sessions/${session.id}/coaching`);
      expect(res.status).toBe(400);
      expect(res.body.error.code).toBe('no_transcript');
    });

    it('create -> save transcript -> coaching, stored and answered again on retry', async () => {
      const { body: session } = await api(t.url, 'POST', '/api/sessions', { stage: fixture.stage });
      const saved = await api(t.url, 'PUT', `/api/sessions/${session.id}/transcript`, {
        transcript: fixture.transcript,
        duration: String(fixture.durationSec),
      });
      expect(saved.status).toBe(200);
      expect(saved.body.transcript).toHaveLength(fixture.transcript.length);

      const res = await api(t.url, 'POST', `/api/sessions/${session.id}/coaching`);
      if (!t.server.ctx.providers.has('coach')) {
        // No coach engine could start: the answer says why, as a 503.
        expect(res.status).toBe(503);
        expect(res.body.error.code).toBe('engine_unavailable');
        return;
      }
      expect(res.status).toBe(200);
      expect(typeof res.body.coaching).toBe('string');
      const parsed = parseCoaching(res.body.coaching);
      expect(parsed).not.toBeNull();
      expect(res.body.engine).toMatchObject({ id: expect.any(String), label: expect.any(String) });
      expect(['basic', 'enhanced']).toContain(res.body.engine.quality);
      expect(res.body.metrics).toBeTruthy();

      const again = await api(t.url, 'POST', `/api/sessions/${session.id}/coaching`);
      expect(again.status).toBe(200);
      expect(again.body).toEqual(res.body);
      const read = await api(t.url, 'GET', `/api/sessions/${session.id}`);
      expect(read.body.coaching).toBe(res.body.coaching);

      // A new transcript makes the old coaching stale.
      await api(t.url, 'PUT', `/api/sessions/${session.id}/transcript`, {
        transcript: fixture.transcript.slice(0, 4),
        duration: '30',
      });
      expect((await api(t.url, 'GET', `/api/sessions/${session.id}`)).body.coaching).toBeNull();
    });
  });
}
