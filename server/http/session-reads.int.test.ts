import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { MAX_CALL_TRANSCRIPT_CHARS, MAX_CALL_TRANSCRIPT_ENTRIES } from '../../core/constants';
import type { TranscriptEntry } from '../../core/transcript';
import { sessions } from '../db/schema';
import { saveCallTranscript } from '../domain/sessions/service';
import { api, dbKinds, startTestServer, type TestServer } from '../test-support/harness';

/** A transcript far past what one call can produce (a typed flood stored 8,769 entries). */
function flood(entries: number, chars: number): TranscriptEntry[] {
  return Array.from({ length: entries }, (_, i) => ({
    role: i % 2 ? ('assistant' as const) : ('user' as const),
    transcript: `${i} `.padEnd(chars, 'x'),
    timestamp: 1_700_000_000_000 + i,
    transcriptType: 'final' as const,
  }));
}

const totalChars = (entries: { transcript: string }[]) =>
  entries.reduce((n, e) => n + e.transcript.length, 0);

for (const db of dbKinds) {
  describe(`what a role-play session holds and gives back (${db})`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ db });
    });
    afterAll(async () => {
      await t?.close();
    });

    async function newSession(): Promise<string> {
      const res = await api(t.url, 'POST', '/api/sessions', { stage: 'General' });
      expect(res.status).toBe(201);
      return res.body.id as string;
    }

    it('a call transcript is stored at most at the call cap', async () => {
      const id = await newSession();
      await saveCallTranscript(t.server.ctx, id, {
        transcript: flood(2000, 500),
        durationSec: 300,
        engines: [],
      });
      const [row] = await t.server.ctx.database.db.select().from(sessions).where(eq(sessions.id, id));
      expect(row.transcript.length).toBeLessThanOrEqual(MAX_CALL_TRANSCRIPT_ENTRIES);
      expect(totalChars(row.transcript)).toBe(MAX_CALL_TRANSCRIPT_CHARS);
      expect(row.transcript[0].transcript.startsWith('0 ')).toBe(true);
    });

    it('reads back at most the call cap of a transcript stored before it (and says not to cache it)', async () => {
      const id = await newSession();
      await t.server.ctx.database.db
        .update(sessions)
        .set({ transcript: flood(3000, 400) })
        .where(eq(sessions.id, id));
      const res = await fetch(`${t.url}/api/sessions/${id}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('cache-control')).toBe('no-store');
      const body = (await res.json()) as { transcript: TranscriptEntry[] };
      expect(body.transcript.length).toBeLessThanOrEqual(MAX_CALL_TRANSCRIPT_ENTRIES);
      expect(totalChars(body.transcript)).toBe(MAX_CALL_TRANSCRIPT_CHARS);
      // Nothing stored is lost: the row itself is untouched.
      const [row] = await t.server.ctx.database.db.select().from(sessions).where(eq(sessions.id, id));
      expect(row.transcript).toHaveLength(3000);
    });

    it('a saved duration is bounded by the call limit', async () => {
      const id = await newSession();
      const transcript = [{ role: 'user', transcript: 'Hello there', timestamp: 1, transcriptType: 'final' }];
      for (const duration of ['999999', '301']) {
        const res = await api(t.url, 'PUT', `/api/sessions/${id}/transcript`, { transcript, duration });
        expect(res.status, duration).toBe(400);
        expect(res.body.error.message).toMatch(/duration is at most 300 seconds/);
      }
      const ok = await api(t.url, 'PUT', `/api/sessions/${id}/transcript`, { transcript, duration: '300' });
      expect(ok.status).toBe(200);
      expect(ok.body.duration).toBe('300');
    });
  });
}

describe('session reads per client', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { RATE_LIMIT_READS: '3' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('answers 429 past RATE_LIMIT_READS a window', async () => {
    const created = await api(t.url, 'POST', '/api/sessions', { stage: 'General' });
    const statuses: number[] = [];
    for (let i = 0; i < 4; i++)
      statuses.push((await api(t.url, 'GET', `/api/sessions/${created.body.id}`)).status);
    expect(statuses).toEqual([200, 200, 200, 429]);
  });
});
