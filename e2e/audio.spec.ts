import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../server/test-support/engines';
import type { Browser } from 'playwright-core';
import { sharedDir } from '../server/test-support/harness';
import { concatAudio } from '../server/audio/test-audio';
import { openPage, roleplay, useAppAndBrowser, type TestServer } from './support';

const noBrowser = skipWithout('chromium', 'pocketsphinx', 'pdftotext');

let server: TestServer;
let browser: Browser;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-e2e-'));

useAppAndBrowser((s, b) => ([server, browser] = [s, b]));

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

describe.skipIf(noBrowser)('audio page: upload, transcription progress, coaching and the PDF report', () => {
  it('takes a real recording from upload to a downloadable report', { timeout: 420_000 }, async () => {
    const { page, context, errors } = await openPage(browser);
    page.setDefaultTimeout(300_000);
    // Over 20 s of real speech, so the transcription runs long enough to show progress.
    const jfk = path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav');
    const call = concatAudio([jfk, jfk], path.join(tmp, 'door knock.wav'), 1);

    await page.goto(server.url + '/audio');
    await page.getByLabel('Audio file').setInputFiles(call);
    expect(await page.getByText('door knock.wav').count()).toBeGreaterThan(0);
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/audio/upload'));
    await page.getByRole('button', { name: 'Upload & Analyze' }).click();
    const upload = await uploaded;
    expect(upload.status()).toBe(201);
    const { sessionId } = (await upload.json()) as { sessionId: string };

    // Progress is shown while the server transcribes; it only ever moves forward.
    const progress = page.getByRole('progressbar', { name: 'Transcription progress' });
    const transcript = page.getByRole('region', { name: 'Transcript' });
    const seen: number[] = [];
    let done = false;
    const poll = (async () => {
      while (!done) {
        const v = await progress.getAttribute('aria-valuenow', { timeout: 1000 }).catch(() => null);
        if (v !== null && Number.isFinite(Number(v))) seen.push(Number(v));
        await page.waitForTimeout(100);
      }
    })();
    await progress.waitFor();
    // The rep is told the named steps and that the page need not stay open.
    expect(await page.getByRole('list', { name: 'Processing steps' }).locator('li').count()).toBe(5);
    expect(await page.getByTestId('leave-note').innerText()).toContain('You can leave this page');
    await transcript.waitFor();
    done = true;
    await poll;
    expect(seen.length).toBeGreaterThan(0);
    for (let i = 1; i < seen.length; i++) expect(seen[i]).toBeGreaterThanOrEqual(seen[i - 1]);

    const lines = transcript.getByRole('list', { name: 'Transcript lines' }).locator('li');
    expect(await lines.count()).toBeGreaterThan(0);
    const stored = await (await fetch(`${server.url}/api/audio/${sessionId}`)).json();
    expect(stored.status).toBe('transcribed');
    expect(await transcript.innerText()).toContain(stored.transcript[0].transcript);
    // At most one plain quality line, never an engine or set-up instructions.
    const shown = await transcript.innerText();
    if (stored.sttEngine?.quality === 'basic') expect(shown).toContain('Transcript may be approximate');
    expect(shown).not.toMatch(/PocketSphinx|Whisper|npm run|engine/i);

    await roleplay.generateCoaching(page);
    const download = page.getByRole('button', { name: 'Download PDF Report' });
    await download.waitFor();
    const popupPromise = context.waitForEvent('page');
    await download.click();
    const popup = await popupPromise;
    expect(popup.url()).toBe(`${server.url}/api/audio/${sessionId}/pdf`);

    const pdf = await page.request.get(popup.url());
    expect(pdf.status()).toBe(200);
    expect(pdf.headers()['content-type']).toBe('application/pdf');
    const file = path.join(tmp, 'report.pdf');
    fs.writeFileSync(file, await pdf.body());
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text).toContain('door knock.wav');
    expect(text).toContain('Coaching Feedback');
    expect(text).toContain('Transcript');
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });
});
