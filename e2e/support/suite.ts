import type { Browser } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { launchBrowser } from './browser';
import { startAppServer, type TestServer } from './server';

/**
 * The usual spec file set-up: the real server serving the built client, and one browser, both
 * started before the file's tests (`ready` receives them) and closed after the last one.
 */
export function useAppAndBrowser(
  ready: (server: TestServer, browser: Browser) => void,
  options: { env?: Record<string, string>; browserArgs?: string[] } = {},
): void {
  let server: TestServer | undefined;
  let browser: Browser | undefined;
  beforeAll(async () => {
    server = await startAppServer(options.env);
    browser = await launchBrowser(options.browserArgs);
    ready(server, browser);
  });
  afterAll(async () => {
    await browser?.close();
    await server?.close();
  });
}
