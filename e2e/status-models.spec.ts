import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import type { Browser } from 'playwright-core';
import { launchBrowser, openPage, startAppServer, type TestServer } from './support';

/**
 * The operator page's "Better engines" card. The server's own answer (fetch off in tests) and one
 * with a download under way: the real /api/status with the models part of a fetch in progress.
 */
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  server = await startAppServer();
  browser = await launchBrowser();
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
});

const MB = 1024 * 1024;

describe('/status: models fetched in the background', () => {
  it('says the fetch is off, and why, when it is', async () => {
    const { page, context, errors } = await openPage(browser, { viewport: { width: 390, height: 844 } });
    await page.goto(server.url + '/status');
    const card = page.getByRole('region', { name: 'Better engines' });
    await card.waitFor();
    expect(await card.innerText()).toMatch(/Not fetched automatically: off in tests/);
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });

  it('shows each model with its state, bytes, licence and reason, and refreshes while one downloads', async () => {
    const { page, context, errors } = await openPage(browser, { viewport: { width: 1440, height: 900 } });
    let calls = 0;
    await page.route('**/api/status', async (route) => {
      calls++;
      const real = (await (await fetch(`${server.url}/api/status`)).json()) as Record<string, unknown>;
      // The second answer onwards: the download has moved on and finished.
      const done = calls > 1;
      real.models = {
        enabled: true,
        models: [
          {
            id: 'whisper-base.en',
            capability: 'speech-to-text',
            description: 'Whisper base.en',
            licence: 'MIT',
            state: done ? 'ready' : 'downloading',
            bytesDone: done ? 200 * MB : 50 * MB,
            bytesTotal: 200 * MB,
          },
          {
            id: 'kokoro-int8-en-v0_19',
            capability: 'text-to-speech',
            description: 'Kokoro voices',
            licence: 'Apache-2.0',
            state: 'failed',
            bytesDone: 0,
            bytesTotal: 99 * MB,
            reason: 'checksum mismatch for kokoro-int8-en-v0_19',
          },
        ],
      };
      return route.fulfill({ status: 200, contentType: 'application/json', body: JSON.stringify(real) });
    });
    await page.goto(server.url + '/status');
    const card = page.getByRole('region', { name: 'Better engines' });
    await card.waitFor();
    const bar = card.getByRole('progressbar', { name: 'Whisper base.en download' });
    expect(await bar.getAttribute('aria-valuenow')).toBe('25');
    const text = await card.innerText();
    expect(text).toContain('50 MB of 200 MB');
    expect(text).toContain('licence MIT');
    expect(text).toMatch(/Failed[\s\S]*checksum mismatch/);
    const axe = await new AxeBuilder({ page }).include('[aria-labelledby="status-models-title"]').analyze();
    expect(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
    // No click: the page asks again while a download runs, and shows it ready.
    await card.locator('[data-model="whisper-base.en"][data-state="ready"]').waitFor({ timeout: 15_000 });
    expect(await card.getByRole('progressbar').count()).toBe(0);
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });
});
