import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Flags for a fake microphone that plays a WAV file (for the live voice engine). */
export function fakeMicArgs(wavFile: string): string[] {
  return [
    '--use-fake-ui-for-media-stream',
    '--use-fake-device-for-media-stream',
    `--use-file-for-fake-audio-capture=${wavFile}`,
  ];
}

/** One browser per test file: launch in beforeAll, close in afterAll. */
export async function launchBrowser(extraArgs: string[] = []): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM_PATH, args: [...CHROMIUM_ARGS, ...extraArgs] });
}

export interface PageErrors {
  /** Uncaught exceptions in the page. */
  pageErrors: string[];
  /** console.error lines. */
  consoleErrors: string[];
}

/** A fresh context and page that record uncaught errors (assert on them to catch crashes). */
export async function openPage(
  browser: Browser,
  options: { viewport?: { width: number; height: number } } = {},
): Promise<{ context: BrowserContext; page: Page; errors: PageErrors }> {
  const context = await browser.newContext({ viewport: options.viewport ?? { width: 1280, height: 900 } });
  const page = await context.newPage();
  const errors: PageErrors = { pageErrors: [], consoleErrors: [] };
  page.on('pageerror', (err) => errors.pageErrors.push(err.message));
  page.on('console', (msg) => {
    if (msg.type() === 'error') errors.consoleErrors.push(msg.text());
  });
  // Generous: the machine running the suite may be busy with other work.
  page.setDefaultTimeout(30_000);
  return { context, page, errors };
}
