import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { skipWithout } from '../server/test-support/engines';
import type { Browser } from 'playwright-core';
import { sharedDir } from '../server/test-support/harness';
import { openPage, useAppAndBrowser, type TestServer } from './support';

const noBrowser = skipWithout('chromium');

let server: TestServer;
let browser: Browser;

useAppAndBrowser((s, b) => ([server, browser] = [s, b]));

describe.skipIf(noBrowser)('role-play page', () => {
  it('shows the heading, the stages with difficulty, General preselected and its persona', async () => {
    const { page, errors, context } = await openPage(browser);
    await page.goto(server.url + '/');
    await page.getByRole('heading', { name: '5 min In-field Sales Pitch RolePlay' }).waitFor();
    expect(await page.getByRole('button', { name: /Set the Stage/ }).getAttribute('aria-expanded')).toBe(
      'true',
    );

    const expected: [string, string, string][] = [
      ['Windows', 'Linda', 'Medium'],
      ['HVAC', 'Dave', 'Hard'],
      ['Roofing', 'Frank', 'Very Hard'],
      ['Flooring', 'Priya', 'Moderate'],
      ['General', 'Tom', 'Easy'],
    ];
    for (const [stage, , difficulty] of expected) {
      const radio = page.getByRole('radio', { name: new RegExp(`^${stage}`) });
      expect(await radio.count()).toBe(1);
      const label = page.locator('label', { has: radio });
      expect(await label.innerText()).toContain(difficulty);
    }
    expect(await page.getByRole('radio', { name: /^General/ }).isChecked()).toBe(true);

    const card = page.getByRole('region', { name: 'Role play conversation' });
    const text = await card.innerText();
    expect(text).toContain('Tom');
    expect(text).toContain('Friendly & Curious');
    expect(text).toContain('Rapport & clear communication');
    expect(text).toContain('Ready to start');
    expect(text).toContain('5:00');
    expect(await card.getByRole('button', { name: 'Talk', exact: true }).isEnabled()).toBe(true);

    // Choosing another stage shows its persona.
    await page.locator('label', { hasText: 'Roofing' }).click();
    await page.getByText('Distrusting / Hard Sell').waitFor();
    expect(await card.innerText()).toContain('Frank');
    expect(await card.innerText()).toContain('Credibility & proof');

    // The section collapses.
    await page.getByRole('button', { name: /Set the Stage/ }).click();
    expect(await page.getByRole('radio', { name: /^Windows/ }).count()).toBe(0);
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });

  it("shows 'Coming Soon' for a stage that is not one of the five", async () => {
    const { page, context } = await openPage(browser);
    await page.goto(server.url + '/?stage=Solar');
    await page.getByRole('heading', { name: 'Coming Soon' }).waitFor();
    const option = page.locator('label', { has: page.getByRole('radio', { name: /^Solar/ }) });
    expect(await option.innerText()).toContain('Coming Soon');
    const panel = page.getByRole('region', { name: 'Coming Soon' });
    expect(await panel.innerText()).toMatch(/Solar scenario is being developed/);
    expect(await page.getByRole('region', { name: 'Role play conversation' }).count()).toBe(0);

    // Picking a real stage leaves the panel.
    await page.locator('label', { hasText: 'Windows' }).click();
    await page.getByRole('region', { name: 'Role play conversation' }).waitFor();
    expect(await page.getByRole('heading', { name: 'Coming Soon' }).count()).toBe(0);
    await context.close();
  });

  it('lets the stage be chosen with the keyboard', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(server.url + '/');
    // Listed from the easiest homeowner: General, then Flooring.
    await page.getByRole('radio', { name: /^General/ }).focus();
    await page.keyboard.press('ArrowRight');
    expect(await page.getByRole('radio', { name: /^Flooring/ }).isChecked()).toBe(true);
    await page.getByText('Style-Conscious / Cautious').waitFor();
    expect(await page.getByRole('region', { name: 'Role play conversation' }).innerText()).toContain('Priya');
    await context.close();
  });

  it('renders the header links to both screens', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(server.url + '/');
    const nav = page.getByRole('navigation', { name: 'Main' });
    await nav.getByRole('link', { name: 'Call analysis' }).click();
    await page.getByRole('heading', { name: 'Audio Coaching Analysis' }).waitFor();
    expect(page.url()).toBe(server.url + '/audio');
    await nav.getByRole('link', { name: 'Role-play' }).click();
    await page.getByRole('heading', { name: '5 min In-field Sales Pitch RolePlay' }).waitFor();
    expect(await page.getByRole('link', { name: 'Doorstep' }).count()).toBe(1);
    await context.close();
  });
});

describe.skipIf(noBrowser)('audio page', () => {
  it('shows the upload screen copy and a disabled Upload & Analyze button', async () => {
    const { page, context, errors } = await openPage(browser);
    await page.goto(server.url + '/audio');
    await page.getByRole('heading', { name: 'Audio Coaching Analysis' }).waitFor();
    const body = await page.locator('main').innerText();
    expect(body).toContain('Upload a sales call recording to receive AI-powered coaching feedback');
    expect(body).toContain('Drop your audio file here');
    expect(body).toContain('or click to browse (MP3, WAV, M4A, etc.)');
    expect(await page.getByRole('button', { name: 'Browse Files' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Upload & Analyze' }).isDisabled()).toBe(true);
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });

  it('rejects a file that is not audio with the spec toast', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(server.url + '/audio');
    await page.getByLabel('Audio file').setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('not audio'),
    });
    const toast = page.getByRole('status').filter({ hasText: 'Invalid file type' });
    await toast.waitFor();
    expect(await toast.innerText()).toContain('Please upload an audio file (MP3, WAV, M4A, etc.)');
    expect(await page.getByRole('button', { name: 'Upload & Analyze' }).isDisabled()).toBe(true);
    await context.close();
  });

  it('rejects a dropped file over 25 MB and uses only the first of several dropped files', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(server.url + '/audio');
    const drop = async (files: { name: string; type: string; size: number }[]) => {
      // Files are made inside the page: sending 25 MB through the protocol would dominate the test.
      const dataTransfer = await page.evaluateHandle((list) => {
        const dt = new DataTransfer();
        for (const f of list) dt.items.add(new File([new Uint8Array(f.size)], f.name, { type: f.type }));
        return dt;
      }, files);
      await page.getByTestId('drop-zone').dispatchEvent('drop', { dataTransfer });
    };

    await drop([{ name: 'huge.mp3', type: 'audio/mpeg', size: 25 * 1024 * 1024 + 1 }]);
    const tooLarge = page.getByRole('status').filter({ hasText: 'File too large' });
    await tooLarge.waitFor();
    expect(await tooLarge.innerText()).toContain('Please upload a file smaller than 25MB');
    expect(await page.getByTestId('chosen-file').count()).toBe(0);

    await drop([
      { name: 'kitchen-call.m4a', type: '', size: 3 * 1024 * 1024 },
      { name: 'notes.txt', type: 'text/plain', size: 10 },
    ]);
    const chosen = page.getByTestId('chosen-file');
    await chosen.waitFor();
    expect(await chosen.innerText()).toBe('kitchen-call.m4a (3.00 MB)');
    expect(await page.getByRole('button', { name: 'Change File' }).count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Upload & Analyze' }).isEnabled()).toBe(true);
    await context.close();
  });
});

describe.skipIf(noBrowser)('audio page against the real pipeline', () => {
  /** A mono 16 kHz WAV of silence. */
  function silentWav(seconds: number): Buffer {
    const samples = 16_000 * seconds;
    const b = Buffer.alloc(44 + samples * 2);
    b.write('RIFF', 0);
    b.writeUInt32LE(36 + samples * 2, 4);
    b.write('WAVEfmt ', 8);
    b.writeUInt32LE(16, 16);
    b.writeUInt16LE(1, 20);
    b.writeUInt16LE(1, 22);
    b.writeUInt32LE(16_000, 24);
    b.writeUInt32LE(32_000, 28);
    b.writeUInt16LE(2, 32);
    b.writeUInt16LE(16, 34);
    b.write('data', 36);
    b.writeUInt32LE(samples * 2, 40);
    return b;
  }

  it("shows a failed transcription with the server's reason and a Retry button that re-queues it", async () => {
    const { page, context, errors } = await openPage(browser);
    page.setDefaultTimeout(60_000);
    await page.goto(server.url + '/audio');
    await page
      .getByLabel('Audio file')
      .setInputFiles({ name: 'silence.wav', mimeType: 'audio/wav', buffer: silentWav(2) });
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/audio/upload'));
    await page.getByRole('button', { name: 'Upload & Analyze' }).click();
    const { sessionId } = (await (await uploaded).json()) as { sessionId: string };
    await page.getByText('Upload successful', { exact: true }).waitFor();

    // The player shows the uploaded file while the job runs.
    const player = page.getByRole('region', { name: 'Recording player' });
    expect(await player.innerText()).toContain('silence.wav');
    expect(await player.innerText()).toContain('Sales Call Recording');
    expect(await player.locator('audio').getAttribute('src')).toBe(`/api/audio/${sessionId}/file`);

    const retry = page.getByRole('button', { name: 'Retry' });
    await retry.waitFor();
    const stored = await (await fetch(`${server.url}/api/audio/${sessionId}`)).json();
    expect(stored.status).toBe('failed');
    expect(await page.getByRole('alert').filter({ has: retry }).innerText()).toContain(stored.error);

    const retried = page.waitForResponse((r) => r.url().endsWith(`/api/audio/${sessionId}/retry`));
    await retry.click();
    expect((await retried).status()).toBe(200);
    // It fails again for the same reason, and the page says so again.
    await page.getByRole('button', { name: 'Retry' }).waitFor();

    await player.getByRole('button', { name: 'Upload New File' }).click();
    await page.getByText('Drop your audio file here').waitFor();
    expect(await page.getByRole('button', { name: 'Upload & Analyze' }).isDisabled()).toBe(true);
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });
});

describe.skipIf(noBrowser)('audio transcript and player', () => {
  it('labels speakers You and Customer and seeks the player to a clicked line', async () => {
    const { page, context, errors } = await openPage(browser);
    // Offline transcription shares the CPU with everything else running.
    page.setDefaultTimeout(150_000);
    await page.goto(server.url + '/audio');
    await page
      .getByLabel('Audio file')
      .setInputFiles(path.join(sharedDir, 'fixtures/audio/picovoice_leopard/leopard_diarization_test.wav'));
    const uploaded = page.waitForResponse((r) => r.url().endsWith('/api/audio/upload'));
    await page.getByRole('button', { name: 'Upload & Analyze' }).click();
    const { sessionId } = (await (await uploaded).json()) as { sessionId: string };
    await page.getByRole('region', { name: 'Transcript' }).waitFor();

    const stored = (await (await fetch(`${server.url}/api/audio/${sessionId}`)).json()) as {
      transcript: { role: string; timestamp: number; transcript: string }[];
    };
    const lines = page.getByRole('list', { name: 'Transcript lines' }).getByRole('button');
    expect(await lines.count()).toBe(stored.transcript.length);
    for (const [i, entry] of stored.transcript.entries()) {
      const text = await lines.nth(i).innerText();
      expect(text).toContain(entry.role === 'user' ? 'You' : 'Customer');
      expect(text).toContain(entry.transcript);
    }

    const last = stored.transcript[stored.transcript.length - 1];
    await lines.last().click();
    const audio = page.locator('audio');
    await page.waitForFunction(() => document.querySelector('audio')!.currentTime > 0);
    const at = await audio.evaluate((a: HTMLAudioElement) => a.currentTime);
    expect(at).toBeGreaterThanOrEqual(last.timestamp / 1000 - 0.05);
    expect(at).toBeLessThan(last.timestamp / 1000 + 5);
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });
});

describe.skipIf(noBrowser)('debug page', () => {
  it('builds a Windows session from the canned 300-second transcript through the real API', async () => {
    const { page, context, errors } = await openPage(browser);
    const created = page.waitForResponse(
      (r) => r.url().endsWith('/api/sessions') && r.request().method() === 'POST',
    );
    await page.goto(server.url + '/debug');
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.waitFor();
    const lines = transcript.getByTestId('transcript-panel').locator('li');
    expect(await lines.count()).toBeGreaterThan(20);
    expect(await lines.first().innerText()).toMatch(/^Linda/);
    await page.getByRole('region', { name: 'Coaching Feedback' }).waitFor();

    const id = ((await (await created).json()) as { id: string }).id;
    // The page shows a rep a sample of coaching, not the session's id.
    expect(await page.locator('main').innerText()).not.toContain(id);
    const stored = await (await fetch(`${server.url}/api/sessions/${id}`)).json();
    expect(stored.stage).toBe('Windows');
    expect(stored.duration).toBe('300');
    expect(stored.transcript).toHaveLength(await lines.count());
    const stamps = stored.transcript.map((e: { timestamp: number }) => e.timestamp);
    expect(stamps[stamps.length - 1] - stamps[0]).toBeGreaterThan(280_000);
    expect(stamps[stamps.length - 1] - stamps[0]).toBeLessThanOrEqual(300_000);
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });
});

describe.skipIf(noBrowser)('other routes', () => {
  it('shows the 404 page for an unknown path', async () => {
    const { page, context } = await openPage(browser);
    const response = await page.goto(server.url + '/no-such-page');
    expect(response?.status()).toBe(404);
    await page.getByRole('heading', { name: "We couldn't find that page" }).waitFor();
    const main = page.locator('main');
    expect(await main.getByRole('link', { name: 'Practise a role-play' }).getAttribute('href')).toBe('/');
    expect(await main.getByRole('link', { name: 'Analyse a call recording' }).getAttribute('href')).toBe(
      '/audio',
    );
    expect(await page.title()).toContain('Page not found');
    await context.close();
  });

  it('lays the role-play page out on a phone without horizontal scrolling', async () => {
    const { page, context } = await openPage(browser, { viewport: { width: 375, height: 740 } });
    await page.goto(server.url + '/');
    await page.getByRole('heading', { name: '5 min In-field Sales Pitch RolePlay' }).waitFor();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await context.close();
  });
});
