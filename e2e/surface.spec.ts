import { describe, expect, it } from 'vitest';
import type { Browser } from 'playwright-core';
import {
  openPage,
  roleplay,
  roleplayUrl,
  seriousViolations,
  useAppAndBrowser,
  type TestServer,
} from './support';

/** What reps must never be shown: commands, variable names, file paths. */
const SET_UP_TEXT =
  /npm run|npm install|[A-Z]{2,}_[A-Z_]{2,}|\/usr\/|\/work\/|\.gguf|\.onnx|MODELS_DIR|apt-get/;

export const SIZES = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1440, height: 900 },
} as const;

let server: TestServer;
let browser: Browser;

useAppAndBrowser((s, b) => ([server, browser] = [s, b]));

for (const [size, viewport] of Object.entries(SIZES)) {
  describe(`what the rep sees on ${size} (${viewport.width}x${viewport.height})`, () => {
    it('shows no set-up text during a call or with coaching shown, and lists engines at most once', async () => {
      const { page, context, errors } = await openPage(browser, { viewport });
      await page.goto(roleplayUrl(server.url, { stage: 'Windows' }));
      await roleplay.startCall(page);
      await roleplay.waitForCoaching(page, 90_000);
      const text = await page.locator('body').innerText();
      expect(text).not.toMatch(SET_UP_TEXT);
      expect(await page.getByTestId('coach-quality').innerText()).toMatch(/coach — (basic|enhanced)/);
      expect(await page.getByTestId('call-engines').count()).toBe(0);
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors.pageErrors).toEqual([]);
      await context.close();
    });

    it('gives operators a /status page with engines, why, how to upgrade, queue and database', async () => {
      const { page, context, errors } = await openPage(browser, { viewport });
      const response = await page.goto(server.url + '/status');
      expect(response?.status()).toBe(200);
      await page.getByRole('heading', { name: 'Status', exact: true }).waitFor();
      await page.getByTestId('status-report').waitFor();
      const engines = page.getByRole('region', { name: 'Engines', exact: true });
      await engines.waitFor();
      expect(await engines.locator('li').count()).toBeGreaterThan(3);
      expect(await engines.innerText()).toContain('Why:');
      expect(await engines.innerText()).toContain('Upgrade:');
      expect(await page.getByRole('region', { name: 'Database' }).innerText()).toContain('OK');
      expect(await page.getByRole('region', { name: 'Job queue' }).innerText()).toMatch(/queued/i);
      expect(await seriousViolations(page)).toEqual([]);
      expect(errors.pageErrors).toEqual([]);
      await context.close();
    });

    it('asks for the operator token when the status endpoint refuses, and keeps it for the tab', async () => {
      const { page, context } = await openPage(browser, { viewport });
      const seen: (string | undefined)[] = [];
      await page.route('**/api/status', async (route) => {
        const auth = route.request().headers()['authorization'];
        seen.push(auth);
        if (auth !== 'Bearer right-token')
          return route.fulfill({
            status: 401,
            contentType: 'application/json',
            body: '{"error":{"code":"unauthorized","message":"A token is needed"}}',
          });
        const health = await fetch(`${server.url}/api/status`);
        return route.fulfill({ status: 200, contentType: 'application/json', body: await health.text() });
      });
      await page.goto(server.url + '/status');
      const form = page.getByRole('region', { name: 'Operator token' });
      await form.getByLabel('Token').fill('wrong');
      await form.getByRole('button', { name: 'Show status' }).click();
      await form.getByText('That token was not accepted.').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await form.getByLabel('Token').fill('right-token');
      await form.getByRole('button', { name: 'Show status' }).click();
      await page.getByRole('region', { name: 'Engines', exact: true }).waitFor();
      expect(await page.evaluate(() => sessionStorage.getItem('doorstep:status-token'))).toBe('right-token');
      expect(seen).toContain('Bearer right-token');
      await context.close();
    });

    it('answers an unknown page with HTTP 404 and the 404 page', async () => {
      const { page, context } = await openPage(browser, { viewport });
      const response = await page.goto(server.url + '/no/such/page');
      expect(response?.status()).toBe(404);
      await page.getByRole('heading', { name: "We couldn't find that page" }).waitFor();
      expect(await page.locator('main').innerText()).not.toContain('router');
      expect(await seriousViolations(page)).toEqual([]);
      await context.close();
    });
  });
}
