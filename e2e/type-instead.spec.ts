import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, roleplay, startAppServer, type TestServer } from './support';

let server: TestServer;
beforeAll(async () => {
  // These calls exercise the server's own speech engines. Headless Chromium exposes the browser's
  // online recognition, which the device engine (e2e/device-speech.spec.ts) would first ask about.
  server = await startAppServer({ DEVICE_SPEECH: 'off' });
});
afterAll(async () => {
  await server?.close();
});

/** Sends one typed turn and waits until the transcript shows it as the rep's line, then a reply. */
async function typeTurn(page: Page, text: string) {
  const form = page.getByRole('form', { name: 'Type your turn' });
  await form.getByRole('textbox', { name: 'What you say' }).fill(text);
  await form.getByRole('button', { name: 'Send' }).click();
  const mine = roleplay.transcriptLines(page).filter({ hasText: text });
  await mine.first().waitFor({ timeout: 30_000 });
  expect(await mine.first().innerText()).toMatch(/^You/);
  // The homeowner answers it like a spoken turn.
  // (A turn typed over the opening line cuts it off, so count lines after the rep's own.)
  await page.waitForFunction(
    (said) => {
      const items = [...document.querySelectorAll('[data-testid="transcript-panel"] li')];
      const mineAt = items.findIndex((li) => li.textContent?.includes(said));
      return mineAt >= 0 && items.slice(mineAt + 1).some((li) => (li.textContent ?? '').trim().length > 4);
    },
    text,
    { timeout: 30_000 },
  );
}

describe('typing instead of speaking', () => {
  it('offers to practise by typing when the microphone is refused, and typed turns count like spoken ones', async () => {
    const denied: Browser = await launchBrowser([
      '--use-fake-device-for-media-stream',
      '--deny-permission-prompts',
    ]);
    try {
      const { page, context, errors } = await openPage(denied, { viewport: { width: 390, height: 844 } });
      await page.goto(`${server.url}/?voice=local&stage=General`);
      await roleplay.startCall(page);
      const alert = roleplay.callCard(page).getByRole('alert');
      await alert.waitFor({ timeout: 20_000 });
      await alert.getByRole('button', { name: 'Practise by typing instead' }).click();
      const bar = page.getByRole('region', { name: 'Call controls' });
      await bar.waitFor({ timeout: 20_000 });
      expect(await bar.innerText()).toContain('Typing');
      // Typing needs no microphone: the mute button is not offered.
      expect(await bar.getByRole('button', { name: 'Mute microphone' }).count()).toBe(0);
      await typeTurn(page, 'Hi Tom, thanks for having me. What projects have been on your mind?');
      await roleplay.balance(page).waitFor();
      await roleplay.stopCall(page);
      await bar.waitFor({ state: 'detached' });
      expect(errors.pageErrors).toEqual([]);
      await context.close();
    } finally {
      await denied.close();
    }
  });

  it('offers "Type instead" during a spoken call', async () => {
    const mic: Browser = await launchBrowser([
      '--use-fake-ui-for-media-stream',
      '--use-fake-device-for-media-stream',
    ]);
    try {
      const { page, context, errors } = await openPage(mic);
      await page.goto(`${server.url}/?voice=local&stage=General`);
      await roleplay.startCall(page);
      const bar = page.getByRole('region', { name: 'Call controls' });
      await bar.waitFor({ timeout: 20_000 });
      const toggle = bar.getByRole('button', { name: 'Type instead' });
      await toggle.click();
      expect(await toggle.getAttribute('aria-pressed')).toBe('true');
      await typeTurn(page, 'How long have you lived in the house?');
      await roleplay.stopCall(page);
      await bar.waitFor({ state: 'detached' });
      expect(errors.pageErrors).toEqual([]);
      await context.close();
    } finally {
      await mic.close();
    }
  });
});
