import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { coachingText } from '../../core/coaching-document';
import {
  GATED_SECTIONS,
  LOCKED_SECTION_TEXT,
  parseCoaching,
  SECTION_TITLES,
  type CoachingDocument,
} from '../../core/coaching-format';
import type { TranscriptEntry } from '../../core/transcript';
import { audioSessions, sessions } from '../db/schema';
import { api, dbKinds, sharedDir, startTestServer, type TestServer } from '../test-support/harness';

const fixture = JSON.parse(
  fs.readFileSync(path.join(sharedDir, 'fixtures/transcripts/dev-02-windows.json'), 'utf8'),
) as { stage: string; durationSec: number; transcript: { role: string; transcript: string }[] };

const transcript: TranscriptEntry[] = fixture.transcript.map((e, i) => ({
  role: e.role === 'user' ? 'user' : 'assistant',
  transcript: e.transcript,
  timestamp: 1_700_000_000_000 + i * 4000,
  transcriptType: 'final',
}));

/** The gated sections' own words and scores: none of this may leave the server before unlock. */
function gatedContent(full: string): { lines: string[]; scores: string[] } {
  const doc = parseCoaching(full)!;
  const gated = doc.sections.filter((s) => GATED_SECTIONS.includes(s.key));
  expect(gated.map((s) => s.key).sort()).toEqual([...GATED_SECTIONS].sort());
  const lines = gated
    .flatMap((s) => s.content.split('\n'))
    // Quote lines repeat what was said, which the transcript carries anyway; the advice is the section's own.
    .filter((l) => !l.trim().startsWith('>'))
    .map((l) => l.replace(/\*\*/g, '').trim())
    // Lines long enough to be this section's advice rather than a phrase any section might use.
    .filter((l) => l.length >= 25);
  expect(lines.length).toBeGreaterThan(0);
  const openScores = new Set(
    [doc.best?.score, ...doc.sections.filter((s) => !GATED_SECTIONS.includes(s.key)).map((s) => s.score)].map(
      (n) => `Score: ${n}/10`,
    ),
  );
  const scores = gated.map((s) => `Score: ${s.score}/10`).filter((s) => !openScores.has(s));
  return { lines, scores };
}

function expectWithheld(text: string, full: string, what: string) {
  const flat = text.replace(/\*\*/g, '').replace(/\s+/g, ' ');
  const { lines, scores } = gatedContent(full);
  for (const line of lines) expect(flat, `${what} leaks "${line}"`).not.toContain(line.replace(/\s+/g, ' '));
  for (const score of scores) expect(flat, `${what} leaks a gated ${score}`).not.toContain(score);
}

function expectLockedDoc(coaching: string) {
  const doc = parseCoaching(coaching) as CoachingDocument;
  expect(doc).not.toBeNull();
  for (const key of GATED_SECTIONS) {
    const section = doc.sections.find((s) => s.key === key)!;
    expect(section.title).toBe(SECTION_TITLES[key]);
    expect(section.score).toBeNull();
    expect(section.content).toBe(LOCKED_SECTION_TEXT);
  }
  // The open sections keep everything.
  for (const s of doc.sections.filter((x) => !GATED_SECTIONS.includes(x.key))) {
    expect(s.score).not.toBeNull();
    expect(s.content.length).toBeGreaterThan(10);
  }
}

function expectFull(text: string, full: string, what: string) {
  // A PDF's page footer can fall inside a line of the coaching: read the pages as one text.
  const flat = text
    .replace(/\*\*/g, '')
    .replace(/\s*Doorstep call coaching report - page \d+ of \d+\s*/g, ' ')
    .replace(/\s+/g, ' ');
  for (const line of gatedContent(full).lines)
    expect(flat, `${what} lacks "${line}"`).toContain(line.replace(/\s+/g, ' '));
}

let tmp: string;
beforeAll(() => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'gate-'));
});
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function pdfText(base: string, id: string): Promise<string> {
  const res = await fetch(`${base}/api/audio/${id}/pdf`);
  expect(res.status).toBe(200);
  const file = path.join(tmp, `${id}.pdf`);
  fs.writeFileSync(file, Buffer.from(await res.arrayBuffer()));
  return execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
}

for (const db of dbKinds) {
  describe(`the coaching gate, enforced by the server, on ${db}`, () => {
    let t: TestServer;
    beforeAll(async () => {
      t = await startTestServer({ db });
    });
    afterAll(async () => {
      await t?.close();
    });

    it('role-play: coaching and the session carry the gated sections only as heading and locked line until unlock', async () => {
      const { body: session } = await api(t.url, 'POST', '/api/sessions', { stage: 'Windows' });
      const saved = await api(t.url, 'PUT', `/api/sessions/${session.id}/transcript`, {
        transcript,
        duration: String(fixture.durationSec),
      });
      expect(saved.status).toBe(200);

      const coached = await api(t.url, 'POST', `/api/sessions/${session.id}/coaching`);
      expect(coached.status).toBe(200);
      expect(coached.body.unlocked).toBe(false);
      const [row] = await t.server.ctx.database.db
        .select({ coaching: sessions.coaching })
        .from(sessions)
        .where(eq(sessions.id, session.id));
      const full = coachingText(row.coaching, true)!;
      expectLockedDoc(coached.body.coaching);
      expectWithheld(JSON.stringify(coached.body), full, 'the first coaching answer');

      // Asked again (the page retries), and read back: still withheld.
      const again = await api(t.url, 'POST', `/api/sessions/${session.id}/coaching`);
      expectWithheld(JSON.stringify(again.body), full, 'the stored coaching answer');
      const read = await api(t.url, 'GET', `/api/sessions/${session.id}`);
      expect(read.body.unlocked).toBe(false);
      expectLockedDoc(read.body.coaching);
      expectWithheld(JSON.stringify(read.body), full, 'GET of the session');

      // An email alone unlocks it; then every response carries everything.
      const lead = await api(t.url, 'POST', '/api/leads', {
        email: 'rep@example.com',
        sessionId: session.id,
        sessionKind: 'roleplay',
      });
      expect(lead.status).toBe(201);
      const unlocked = await api(t.url, 'POST', `/api/sessions/${session.id}/coaching`);
      expect(unlocked.body.unlocked).toBe(true);
      expect(unlocked.body.coaching).toBe(full);
      expectFull(unlocked.body.coaching, full, 'coaching after unlock');
      const readAfter = await api(t.url, 'GET', `/api/sessions/${session.id}`);
      expect(readAfter.body.unlocked).toBe(true);
      expect(readAfter.body.coaching).toBe(full);
    });

    it('recordings: coaching, the session poll and the PDF withhold the gated sections until unlock', async () => {
      const [audio] = await t.server.ctx.database.db
        .insert(audioSessions)
        .values({
          fileName: 'kitchen call.wav',
          stage: 'General',
          storageKey: 'not-stored',
          status: 'transcribed',
          progress: 100,
          transcript,
          durationMs: fixture.durationSec * 1000,
        })
        .returning({ id: audioSessions.id });

      const coached = await api(t.url, 'POST', `/api/audio/${audio.id}/coaching`);
      expect(coached.status).toBe(200);
      expect(coached.body.unlocked).toBe(false);
      const [row] = await t.server.ctx.database.db
        .select({ coaching: audioSessions.coaching })
        .from(audioSessions)
        .where(eq(audioSessions.id, audio.id));
      const full = coachingText(row.coaching, true)!;
      expectLockedDoc(coached.body.coaching);
      expectWithheld(JSON.stringify(coached.body), full, 'the audio coaching answer');
      const poll = await api(t.url, 'GET', `/api/audio/${audio.id}`);
      expectLockedDoc(poll.body.coaching);
      expectWithheld(JSON.stringify(poll.body), full, 'GET of the recording');
      const lockedPdf = await pdfText(t.url, audio.id);
      expectWithheld(lockedPdf, full, 'the PDF before unlock');
      for (const key of GATED_SECTIONS) expect(lockedPdf).toContain(`${SECTION_TITLES[key]} (locked)`);
      expect(lockedPdf).toContain('Customer');

      const lead = await api(t.url, 'POST', '/api/leads', {
        email: 'rep@example.com',
        name: 'Sam',
        marketingOptIn: false,
        sessionId: audio.id,
        sessionKind: 'audio',
        source: 'hubspot',
      });
      expect(lead.status).toBe(201);
      const unlocked = await api(t.url, 'POST', `/api/audio/${audio.id}/coaching`);
      expect(unlocked.body).toMatchObject({ unlocked: true, coaching: full });
      expect((await api(t.url, 'GET', `/api/audio/${audio.id}`)).body.coaching).toBe(full);
      const fullPdf = await pdfText(t.url, audio.id);
      expectFull(fullPdf, full, 'the PDF after unlock');
      for (const key of GATED_SECTIONS) expect(fullPdf).not.toContain(`${SECTION_TITLES[key]} (locked)`);
    });
  });
}
