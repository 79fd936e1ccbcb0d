import { describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { PERSONA_BRIEFS } from '../core/stages';
import type { AudioSessionView } from '../core/views';
import { audioSessions } from '../server/db/schema';
import {
  openPage,
  roleplay,
  roleplayUrl,
  seriousViolations,
  useAppAndBrowser,
  type TestServer,
} from './support';

const SIZES = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1440, height: 900 },
} as const;

let server: TestServer;
let browser: Browser;

// These calls exercise the server's own speech engines. Headless Chromium exposes the browser's
// online recognition, which the device engine (e2e/device-speech.spec.ts) would first ask about.
useAppAndBrowser((s, b) => ([server, browser] = [s, b]), { env: { DEVICE_SPEECH: 'off' } });

/** Whether the element is wholly inside the visible screen right now. */
async function onScreen(page: Page, selector: string): Promise<boolean> {
  return page.evaluate((sel) => {
    const el = document.querySelector(sel);
    if (!el) return false;
    const r = el.getBoundingClientRect();
    return (
      r.height > 0 &&
      r.top >= 0 &&
      r.bottom <= window.innerHeight &&
      r.left >= 0 &&
      r.right <= window.innerWidth
    );
  }, selector);
}

const activeLabel = (page: Page) =>
  page.evaluate(
    () =>
      document.activeElement?.getAttribute('aria-label') ??
      document.activeElement?.tagName.toLowerCase() ??
      '',
  );

for (const [size, viewport] of Object.entries(SIZES)) {
  describe(`on ${size} (${viewport.width}x${viewport.height})`, () => {
    it('fits the stage choice, persona and Start on the first screen, with the brief before Start', async () => {
      const { page, context, errors } = await openPage(browser, { viewport });
      await page.goto(server.url + '/?stage=Roofing');
      await roleplay.callCard(page).waitFor();
      expect(await page.evaluate(() => window.scrollY)).toBe(0);
      expect(await onScreen(page, 'fieldset')).toBe(true);
      if (size === 'desktop') expect(await onScreen(page, '[data-testid="start-call"]')).toBe(true);
      else {
        // A phone shows the trades first; choosing one brings the brief and Start on screen.
        await page.locator('label', { hasText: 'Windows' }).click();
        await page.waitForFunction(() => {
          const r = document.querySelector('[data-testid="start-call"]')?.getBoundingClientRect();
          return !!r && r.top >= 0 && r.bottom <= window.innerHeight;
        });
        await page.locator('label', { hasText: 'Roofing' }).click();
        await page.waitForFunction(() => {
          const r = document.querySelector('[data-testid="start-call"]')?.getBoundingClientRect();
          return !!r && r.top >= 0 && r.bottom <= window.innerHeight;
        });
      }
      expect(await roleplay.callCard(page).getByText('Frank', { exact: true }).isVisible()).toBe(true);
      const brief = page.getByRole('region', { name: 'Your brief' });
      const text = await brief.innerText();
      expect(text).toContain(PERSONA_BRIEFS.Roofing.homeowner);
      expect(text).toContain(PERSONA_BRIEFS.Roofing.selling);
      expect(text).toContain(PERSONA_BRIEFS.Roofing.goodOutcome);
      expect(errors.pageErrors).toEqual([]);
      await context.close();
    });

    it('keeps countdown, mute and Stop in a call bar while the transcript scrolls; focus follows', async () => {
      const { page, context, errors } = await openPage(browser, { viewport });
      await page.goto(roleplayUrl(server.url, { script: 'balance-60-40' }));
      await roleplay.startCall(page);
      const bar = page.getByRole('region', { name: 'Call controls' });
      await bar.waitFor();
      // Focus moved to the conversation's heading, not the page body.
      await page.waitForFunction(() => document.activeElement?.id === 'live-transcript-title');
      await page.getByText('Great listening ratio!').waitFor();
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      for (const sel of [
        '[data-testid="call-bar"]',
        '[aria-label="Stop call"]',
        '[aria-label="Mute microphone"]',
      ])
        expect(await onScreen(page, sel), sel).toBe(true);
      // The countdown runs (the scripted call can reach this point within its first second).
      await page.waitForFunction(() =>
        /Time Remaining\s*[0-4]:\d\d/.test(
          (document.querySelector('[data-testid="call-bar"]') as HTMLElement | null)?.innerText ?? '',
        ),
      );
      expect(await seriousViolations(page)).toEqual([]);

      await bar.getByRole('button', { name: 'Mute microphone' }).click();
      expect(await bar.getByRole('button', { name: 'Unmute microphone' }).getAttribute('aria-pressed')).toBe(
        'true',
      );
      expect(await bar.innerText()).toContain('Muted');

      // Under 30 s the stop asks first; Esc closes the question and focus returns to Stop.
      await bar.getByRole('button', { name: 'Stop call' }).focus();
      await page.keyboard.press('Enter');
      const dialog = page.getByRole('dialog', { name: 'Stop call early?' });
      await dialog.waitFor();
      await page.keyboard.press('Escape');
      await dialog.waitFor({ state: 'detached' });
      // The dialog hands focus back once it has closed.
      await page.waitForFunction(
        () => document.activeElement?.getAttribute('aria-label') === 'Stop call',
        undefined,
        { timeout: 5000 },
      );
      expect(await activeLabel(page)).toBe('Stop call');
      await bar.getByRole('button', { name: 'Stop call' }).click();
      await dialog.getByRole('button', { name: 'Stop Anyway' }).click();
      await bar.waitFor({ state: 'detached' });
      expect(errors.pageErrors).toEqual([]);
      await context.close();
    });
  });
}

describe('states that end', () => {
  it('drops a partial line that never became final when the call ends', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(roleplayUrl(server.url, { script: 'partial-hold' }));
    await roleplay.startCall(page);
    await page.locator('[data-partial="true"]').getByText('So I was wondering').waitFor();
    await roleplay.stopCall(page);
    await roleplay.callCard(page).getByText('Ready to start').waitFor();
    expect(await page.locator('[data-partial="true"]').count()).toBe(0);
    await context.close();
  });

  it('shows the full 5:00 again after a dropped call', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(roleplayUrl(server.url, { script: 'late-drop', pace: 'real' }));
    await roleplay.startCall(page);
    const bar = page.getByRole('region', { name: 'Call controls' });
    await bar.waitFor();
    // The clock moved during the call ...
    await page.waitForFunction(() =>
      /[0-4]:[0-5]\d/.test(document.querySelector('[data-testid="call-bar"]')?.textContent ?? ''),
    );
    await roleplay.callCard(page).getByRole('alert').waitFor();
    // ... and reads 5:00 once the call is gone.
    const card = await roleplay.callCard(page).innerText();
    expect(card).toContain('Ready to start');
    expect(card).toContain('5:00');
    await context.close();
  });
});

describe('results that last', () => {
  it('reopens a role-play from its link after a reload, keeps the gate, and lists it under recent practice', async () => {
    const { page, context, errors } = await openPage(browser, { viewport: SIZES.phone });
    await page.goto(roleplayUrl(server.url, { stage: 'Windows' }));
    await roleplay.startCall(page);
    await roleplay.waitForCoaching(page, 90_000);
    const id = new URL(page.url()).searchParams.get('session');
    expect(id).toMatch(/^[0-9a-f-]{36}$/);

    await page.reload();
    const card = await roleplay.waitForCoaching(page, 90_000);
    expect(await roleplay.transcriptLines(page).count()).toBeGreaterThan(5);
    await card.getByTestId('unlock-gate').waitFor();

    // Unlock with the email alone; the reload after it shows everything, with the overall score.
    const form = card.getByRole('form', { name: 'Unlock and email me the summary' });
    await form.getByRole('textbox', { name: 'Email' }).fill('rep@example.com');
    await form.getByRole('button', { name: 'Unlock and email me the summary' }).click();
    await card.getByTestId('unlock-gate').waitFor({ state: 'detached' });
    await page.reload();
    await roleplay.waitForCoaching(page, 90_000);
    await roleplay.coaching(page).getByTestId('overall-score').waitFor();
    expect(await page.getByTestId('unlock-gate').count()).toBe(0);

    // The same link in a browser that never saw the call opens it too.
    const other = await openPage(browser);
    await other.page.goto(`${server.url}/?session=${id}`);
    await roleplay.waitForCoaching(other.page, 90_000);
    expect(await roleplay.transcriptLines(other.page).count()).toBeGreaterThan(5);
    await other.context.close();

    // "Your recent practice" on / lists it with its score and a link, and offers to practise again.
    await page.goto(server.url + '/');
    const recent = page.getByRole('region', { name: 'Your recent practice' });
    await recent.waitFor();
    const row = recent.getByRole('listitem').first();
    expect(await row.innerText()).toMatch(/Windows role-play[\s\S]*Overall \d+(\.\d)?\/10/);
    expect(await row.getByRole('link').getAttribute('href')).toBe(`/?session=${id}`);
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(`${server.url}/?session=${id}`);
    await roleplay.waitForCoaching(page, 90_000);
    await page.getByRole('button', { name: 'Practise again: Windows' }).click();
    await roleplay.coaching(page).waitFor({ state: 'detached' });
    expect(await page.getByRole('radio', { name: /^Windows/ }).isChecked()).toBe(true);
    expect(new URL(page.url()).searchParams.get('session')).toBeNull();
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });

  it('reopens a recording at /audio?session= with its transcript and coaching; the seek slider steps 5 s', async () => {
    const [row] = await server.server.ctx.database.db
      .insert(audioSessions)
      .values({
        fileName: 'kitchen call.wav',
        stage: 'General',
        storageKey: 'not-stored',
        status: 'transcribed',
        progress: 100,
        durationMs: 60_000,
        transcript: [
          {
            role: 'user',
            transcript: 'Hi, thanks for having me over today.',
            timestamp: 0,
            transcriptType: 'final',
          },
          {
            role: 'assistant',
            transcript: 'Sure, the back door sticks and the deck is old.',
            timestamp: 4000,
            transcriptType: 'final',
          },
          {
            role: 'user',
            transcript: 'What would you like to fix first?',
            timestamp: 9000,
            transcriptType: 'final',
          },
        ],
      })
      .returning({ id: audioSessions.id });
    const { page, context } = await openPage(browser);
    await page.goto(`${server.url}/audio?session=${row.id}`);
    const transcript = page.getByRole('region', { name: 'Transcript' });
    await transcript.waitFor();
    expect(await transcript.innerText()).toContain('Customer');
    await page.getByRole('button', { name: 'Generate Coaching Feedback' }).click();
    await roleplay.waitForCoaching(page);
    expect(await roleplay.coaching(page).innerText()).toMatch(/Customer \d+%/);
    await page.reload();
    await roleplay.waitForCoaching(page);
    await page.getByRole('button', { name: 'Download PDF Report' }).waitFor();
    const seek = page.getByRole('slider', { name: 'Seek' });
    expect(await seek.getAttribute('step')).toBe('5');
    expect(await seek.getAttribute('aria-valuetext')).toMatch(/^0:00 of \d+:\d\d$/);
    await context.close();
  });
});

describe('uploads: consent and errors with reasons', () => {
  it('says the customer must agree and how long recordings are kept', async () => {
    const { page, context } = await openPage(browser, { viewport: SIZES.phone });
    await page.goto(server.url + '/audio');
    const notice = page.getByTestId('upload-consent');
    await notice.waitFor();
    expect(await notice.innerText()).toMatch(/customer agreed[\s\S]*kept for \d+ days/);
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it("shows the server's 429 reason with when to retry, and being offline", async () => {
    const { page, context } = await openPage(browser);
    await page.route('**/api/audio/upload', (route) =>
      route.fulfill({
        status: 429,
        contentType: 'application/json',
        headers: { 'retry-after': '42' },
        body: JSON.stringify({
          error: { code: 'rate_limited', message: 'Too many uploads from this address.' },
        }),
      }),
    );
    await page.goto(server.url + '/audio');
    await page
      .getByLabel('Audio file')
      .setInputFiles({ name: 'call.wav', mimeType: 'audio/wav', buffer: Buffer.alloc(2048, 1) });
    await page.getByRole('button', { name: 'Upload & Analyze' }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'Upload failed' });
    await alert.waitFor();
    expect(await alert.innerText()).toContain(
      'Too many uploads from this address. You can try again in 42 seconds.',
    );

    await page.unroute('**/api/audio/upload');
    await context.setOffline(true);
    await page.getByRole('button', { name: 'Upload & Analyze' }).click();
    await page.getByText('You are offline.').first().waitFor();
    await context.setOffline(false);
    await context.close();
  });

  it('says so when a transcription makes no progress for 2 minutes, with Retry and Cancel', async () => {
    const { page, context } = await openPage(browser);
    await page.clock.install();
    const id = '00000000-0000-4000-8000-00000000abcd';
    await page.route('**/api/audio/upload', (route) =>
      route.fulfill({
        status: 201,
        contentType: 'application/json',
        body: JSON.stringify({ id, sessionId: id }),
      }),
    );
    await page.route(`**/api/audio/${id}`, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/json',
        body: JSON.stringify({
          id,
          fileName: 'call.wav',
          stage: 'General',
          uploadedAt: new Date().toISOString(),
          transcript: [],
          coaching: null,
          status: 'transcribing',
          progress: 12,
          step: 'transcribing',
          estimatedSecondsLeft: 40,
          waitingUntil: null,
          error: null,
          durationMs: null,
          attribution: null,
          attributionIsGuess: false,
          speakersSwapped: false,
          sttEngine: null,
          speakerEngine: null,
          coachingEngine: null,
          metrics: null,
          unlocked: false,
        } satisfies AudioSessionView),
      }),
    );
    await page.goto(server.url + '/audio');
    await page
      .getByLabel('Audio file')
      .setInputFiles({ name: 'call.wav', mimeType: 'audio/wav', buffer: Buffer.alloc(2048, 1) });
    await page.getByRole('button', { name: 'Upload & Analyze' }).click();
    await page.getByText('Transcribing your audio file...').waitFor();
    expect(await page.getByTestId('transcription-stalled').count()).toBe(0);
    await page.clock.fastForward('02:05');
    const stalled = page.getByTestId('transcription-stalled');
    await stalled.waitFor();
    expect(await stalled.innerText()).toContain('no progress for 2 minutes (still at 12%)');
    expect(await stalled.getByRole('button', { name: 'Retry' }).count()).toBe(1);
    await stalled.getByRole('button', { name: 'Cancel' }).click();
    await page.getByText('Drop your audio file here').waitFor();
    await context.close();
  });
});
