import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import type { Browser, Page } from 'playwright-core';
import { coachingDocumentSchema } from '../core/coaching-document';
import { audioSessions, sessions } from '../server/db/schema';
import { skipWithout } from '../server/test-support/engines';
import { sharedDir, waitFor } from '../server/test-support/harness';
import { openPage, roleplay, useAppAndBrowser, type TestServer } from './support';

/**
 * The server owns a call's life: a rep who closes the tab the moment a call ends, or the moment
 * an upload is accepted, finds the coaching (and the recording's PDF) when the link is opened later.
 */
const noBrowser = skipWithout('chromium', 'pocketsphinx', 'pdftotext');

let server: TestServer;
let browser: Browser;
useAppAndBrowser((s, b) => ([server, browser] = [s, b]), {
  // The server's own engines carry the call (not the browser's speech, which would ask first).
  env: { DEVICE_SPEECH: 'off' },
  browserArgs: ['--use-fake-ui-for-media-stream', '--use-fake-device-for-media-stream'],
});

const db = () => server.server.ctx.database.db;

async function typeTurn(page: Page, text: string) {
  const form = page.getByRole('form', { name: 'Type your turn' });
  await form.getByRole('textbox', { name: 'What you say' }).fill(text);
  await form.getByRole('button', { name: 'Send' }).click();
  await roleplay.transcriptLines(page).filter({ hasText: text }).first().waitFor({ timeout: 30_000 });
}

describe.skipIf(noBrowser)('leaving the page early', () => {
  it(
    'a role-play closed the moment the call ends is coached, and the link shows it later',
    { timeout: 180_000 },
    async () => {
      const { page, context } = await openPage(browser);
      const puts: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'PUT') puts.push(r.url());
      });
      await page.goto(`${server.url}/?voice=local&stage=General`);
      await roleplay.startCall(page);
      const bar = page.getByRole('region', { name: 'Call controls' });
      await bar.waitFor({ timeout: 30_000 });
      await bar.getByRole('button', { name: 'Type instead' }).click();
      await typeTurn(page, 'Hi, thanks for having me over. What got you thinking about this project?');
      await typeTurn(page, 'How long has that been bothering you, and what have you tried so far?');
      const sessionId = new URL(page.url()).searchParams.get('session');
      expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);

      await roleplay.stopCall(page);
      await bar.waitFor({ state: 'detached' });
      // Gone the moment the call ended: no save, no coaching request from this page.
      await context.close();
      expect(puts).toEqual([]);

      const row = await waitFor(
        async () => {
          const [r] = await db().select().from(sessions).where(eq(sessions.id, sessionId!));
          return r?.coaching ? r : null;
        },
        'the coaching the server wrote after the call',
        60_000,
      );
      expect(coachingDocumentSchema.safeParse(row.coaching).success).toBe(true);
      expect(row.transcript.some((e) => e.transcript.includes('What got you thinking'))).toBe(true);

      const later = await openPage(browser);
      await later.page.goto(`${server.url}/?session=${sessionId}`);
      const card = await roleplay.waitForCoaching(later.page);
      expect(await card.getByText(/Score: \d+\/10/).count()).toBeGreaterThan(0);
      await later.context.close();
    },
  );

  it(
    'an upload closed the moment it is accepted is transcribed and coached; the link shows both and the PDF',
    { timeout: 300_000 },
    async () => {
      const { page, context } = await openPage(browser);
      await page.goto(`${server.url}/audio`);
      await page.getByLabel('Audio file').setInputFiles(path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav'));
      const accepted = page.waitForResponse((r) => r.url().endsWith('/api/audio/upload'));
      await page.getByRole('button', { name: 'Upload & Analyze' }).click();
      const upload = await accepted;
      expect(upload.status()).toBe(201);
      const { sessionId } = (await upload.json()) as { sessionId: string };
      await context.close();

      await waitFor(
        async () => {
          const [r] = await db().select().from(audioSessions).where(eq(audioSessions.id, sessionId));
          return r?.coaching ? r : null;
        },
        'the coaching the server wrote after transcribing',
        240_000,
        250,
      );

      const later = await openPage(browser);
      await later.page.goto(`${server.url}/audio?session=${sessionId}`);
      const card = await roleplay.waitForCoaching(later.page);
      expect(await card.getByText(/Score: \d+\/10/).count()).toBeGreaterThan(0);
      const pdf = await fetch(`${server.url}/api/audio/${sessionId}/pdf`);
      expect(pdf.status).toBe(200);
      expect(pdf.headers.get('content-type')).toBe('application/pdf');
      expect(
        Buffer.from(await pdf.arrayBuffer())
          .subarray(0, 5)
          .toString(),
      ).toBe('%PDF-');
      await later.context.close();
      expect(fs.existsSync(path.join(server.dataDir, 'uploads'))).toBe(true);
    },
  );
});
