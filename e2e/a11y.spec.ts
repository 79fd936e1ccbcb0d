import { describe, expect, it } from 'vitest';
import { skipWithout } from '../server/test-support/engines';
import path from 'node:path';
import type { Browser } from 'playwright-core';
import { sharedDir } from '../server/test-support/harness';
import {
  openPage,
  roleplay,
  roleplayUrl,
  seriousViolations,
  useAppAndBrowser,
  type TestServer,
} from './support';

const noBrowser = skipWithout('chromium', 'pocketsphinx');

let server: TestServer;
let browser: Browser;

useAppAndBrowser((s, b) => ([server, browser] = [s, b]));

describe.skipIf(noBrowser)('accessibility (axe: no serious or critical violations)', () => {
  it('role-play page, idle', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(server.url + '/');
    await page.getByRole('heading', { name: '5 min In-field Sales Pitch RolePlay' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('role-play page during a call with a transcript and the balance bar', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(roleplayUrl(server.url, { script: 'balance-60-40' }));
    await page.getByRole('button', { name: 'Talk', exact: true }).click();
    await page.getByText('Great listening ratio!').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    // A dimmed partial line still has to be readable.
    await page.goto(roleplayUrl(server.url, { script: 'partial-hold' }));
    await page.getByRole('button', { name: 'Talk', exact: true }).click();
    await page.locator('[data-partial="true"]').getByText('So I was wondering').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('role-play page, Coming Soon stage and early-stop dialog', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(roleplayUrl(server.url, { stage: 'Solar' }));
    await page.getByRole('heading', { name: 'Coming Soon' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.goto(roleplayUrl(server.url, { script: 'silent' }));
    await page.getByRole('button', { name: 'Talk', exact: true }).click();
    await page.getByRole('button', { name: 'Stop call' }).click();
    await page.getByRole('dialog', { name: 'Stop call early?' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('audio page, with a chosen file', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(server.url + '/audio');
    await page.getByRole('heading', { name: 'Audio Coaching Analysis' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await page.getByLabel('Audio file').setInputFiles({
      name: 'call.wav',
      mimeType: 'audio/wav',
      buffer: Buffer.alloc(1024),
    });
    await page.getByTestId('chosen-file').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('coaching card with the gate and its one form after a full call', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(roleplayUrl(server.url, { stage: 'Windows' }));
    await roleplay.startCall(page);
    await roleplay.waitForCoaching(page);
    await roleplay.summaryForm(page).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('audio page with a transcribed recording, coaching and the player', async () => {
    const { page, context } = await openPage(browser);
    // Offline transcription shares the CPU with everything else running.
    page.setDefaultTimeout(150_000);
    await page.goto(server.url + '/audio');
    await page
      .getByLabel('Audio file')
      .setInputFiles(path.join(sharedDir, 'fixtures/audio/faster_whisper/stereo_diarization.wav'));
    await page.getByRole('button', { name: 'Upload & Analyze' }).click();
    await page.getByRole('region', { name: 'Transcript' }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await roleplay.generateCoaching(page);
    await page.getByRole('button', { name: 'Download PDF Report' }).waitFor();
    await page
      .getByRole('region', { name: 'Coaching Feedback' })
      .getByText(/Score: \d+\/10/)
      .first()
      .waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });

  it('404 page', async () => {
    const { page, context } = await openPage(browser);
    await page.goto(server.url + '/missing');
    await page.getByRole('heading', { name: "We couldn't find that page" }).waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await context.close();
  });
});
