import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'drizzle-orm';
import { api, startTestServer, type TestServer } from '../test-support/harness';

const NUL = 'hello\u0000world';
const LONE_HIGH = 'broken \ud800 text';
const LONE_LOW = 'broken \udc00 text';
const SECRET_WORDS = 'my-private-transcript-words';
const SECRET_EMAIL = 'private.person@example.org';

describe('NUL characters and lone surrogates in JSON strings', () => {
  let t: TestServer;
  const lines: string[] = [];
  beforeAll(async () => {
    t = await startTestServer({
      env: { LOG_LEVEL: 'error' },
      logStream: { write: (line) => void lines.push(line) },
    });
  });
  afterAll(async () => {
    await t?.close();
  });

  const sessionId = async () => (await api(t.url, 'POST', '/api/sessions', { stage: 'General' })).body.id;

  for (const [label, text] of [
    ['a NUL', NUL],
    ['a lone high surrogate', LONE_HIGH],
    ['a lone low surrogate', LONE_LOW],
  ] as const) {
    it(`answers 400 naming the field for ${label}, in transcripts, feedback and leads`, async () => {
      const id = await sessionId();
      const transcript = await api(t.url, 'PUT', `/api/sessions/${id}/transcript`, {
        transcript: [{ role: 'user', transcript: text, timestamp: 1, transcriptType: 'final' }],
        duration: '5',
      });
      expect(transcript.status).toBe(400);
      expect(transcript.body.error.message).toMatch(/^transcript\.0\.transcript: .*cannot be stored/);

      const feedback = await api(t.url, 'POST', '/api/feedback', { name: text, email: 'a@example.com' });
      expect(feedback.status).toBe(400);
      expect(feedback.body.error.message).toMatch(/^name: /);

      const lead = await api(t.url, 'POST', '/api/leads', {
        email: `a${text}@example.com`,
        sessionId: id,
        sessionKind: 'roleplay',
        marketingOptIn: false,
      });
      expect(lead.status).toBe(400);
      expect(lead.body.error.message).toMatch(/^email: /);
    });
  }

  it('keeps request data out of the log line of a failing request', async () => {
    const id = await sessionId();
    // Make the database refuse every transcript save, so the request reaches the 500 path.
    await t.server.ctx.database.db.execute(
      sql.raw(`alter table sessions add constraint no_saves_${Date.now()} check (ended_at is null)`),
    );
    lines.length = 0;
    const res = await api(t.url, 'PUT', `/api/sessions/${id}/transcript`, {
      transcript: [{ role: 'user', transcript: `${SECRET_WORDS} mail me at ${SECRET_EMAIL}`, timestamp: 1 }],
      duration: '5',
    });
    expect(res.status).toBe(500);
    expect(JSON.stringify(res.body)).not.toContain(SECRET_WORDS);
    const logged = lines.join('\n');
    expect(logged).toContain('request failed');
    expect(logged).not.toContain(SECRET_WORDS);
    expect(logged).not.toContain(SECRET_EMAIL);
  });
});
