import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_CALL_TRANSCRIPT_CHARS } from '../../core/constants';
import { conversationMetrics } from '../understanding/metrics';
import { finalEntries, type TranscriptEntry } from '../../core/transcript';
import { api, sharedDir, startTestServer, type TestServer } from '../test-support/harness';
import type { PooledCoach } from '../providers/coach/pooled';

const fixture = JSON.parse(
  fs.readFileSync(path.join(sharedDir, 'fixtures/transcripts/dev-01-general.json'), 'utf8'),
) as { transcript: { role: string; transcript: string; timestamp: number }[] };

describe('coaching cannot stall the server', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { COACH_QUEUE_MAX: '1' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  const newSession = async () => (await api(t.url, 'POST', '/api/sessions', { stage: 'General' })).body.id;

  it('refuses a transcript longer than a 5-minute call can produce', async () => {
    const id = await newSession();
    const words = 'word '.repeat(Math.ceil(MAX_CALL_TRANSCRIPT_CHARS / 5 / 4) + 1);
    const entries = [0, 1, 2, 3].map((i) => ({
      role: i % 2 ? 'assistant' : 'user',
      transcript: words,
      timestamp: i,
    }));
    const res = await api(t.url, 'PUT', `/api/sessions/${id}/transcript`, {
      transcript: entries,
      duration: '300',
    });
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/5 minutes produces at most 18,000 characters/);
    // A real call's transcript still fits.
    const ok = await api(t.url, 'PUT', `/api/sessions/${id}/transcript`, {
      transcript: fixture.transcript,
      duration: '240',
    });
    expect(ok.status).toBe(200);
  });

  it('coaches on a worker thread, not on the event loop that serves requests', async () => {
    const id = await newSession();
    await api(t.url, 'PUT', `/api/sessions/${id}/transcript`, {
      transcript: fixture.transcript,
      duration: '240',
    });
    const res = await api(t.url, 'POST', `/api/sessions/${id}/coaching`);
    expect(res.status).toBe(200);
    expect(res.body.coaching).toMatch(/\S/);
    const coach = t.server.ctx.providers.get('coach') as Partial<PooledCoach>;
    expect(coach.pool?.stats().started).toBeGreaterThanOrEqual(1);
    // The metrics come from the worker too, and are the numbers the request thread would measure.
    expect(coach.measuresMetrics).toBe(true);
    expect(res.body.metrics).toEqual(
      conversationMetrics(finalEntries(fixture.transcript as TranscriptEntry[]), { durationSec: 240 }),
    );
  });

  it('answers 503 with Retry-After when every coaching thread is busy and the queue is full', async () => {
    const ids = await Promise.all(Array.from({ length: 12 }, () => newSession()));
    await Promise.all(
      ids.map((id) =>
        api(t.url, 'PUT', `/api/sessions/${id}/transcript`, {
          transcript: fixture.transcript,
          duration: '240',
        }),
      ),
    );
    const coach = t.server.ctx.providers.get('coach') as PooledCoach;
    // Far more at once than threads + queue: the rest are refused at once, not left to pile up.
    expect(ids.length).toBeGreaterThan(coach.pool.stats().size * 2 + 1);
    const results = await Promise.all(
      ids.map((id) =>
        fetch(`${t.url}/api/sessions/${id}/coaching`, { method: 'POST' }).then(async (r) => ({
          status: r.status,
          retryAfter: r.headers.get('retry-after'),
          body: await r.json(),
        })),
      ),
    );
    const refused = results.filter((r) => r.status === 503);
    expect(refused.length).toBeGreaterThan(0);
    for (const r of refused) {
      expect(Number(r.retryAfter)).toBeGreaterThan(0);
      expect(r.body.error.code).toBe('busy');
    }
    expect(results.every((r) => r.status === 200 || r.status === 503)).toBe(true);
  });
});
