import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { skipWithout } from '../server/test-support/engines';
import { startSmtpSink, type SmtpSink } from '../server/test-support/smtp-sink';
import { waitFor } from '../server/test-support/harness';
import { launchBrowser, openPage, seriousViolations, startAppServer, type TestServer } from './support';

const noBrowser = skipWithout('chromium');

const PHONE = { width: 390, height: 844 };
const EMAIL = 'dana.rep@example.com';

let sink: SmtpSink;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  if (noBrowser) return;
  sink = await startSmtpSink();
  server = await startAppServer({ SMTP_URL: sink.url, SMTP_FROM: 'Doorstep <coach@doorstep.example>' });
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.close();
  await sink?.stop();
});

/** The sign-in link in the newest email to `to` that arrived after `seen` messages. */
async function linkFromInbox(to: string, seen: number): Promise<string> {
  const mail = await waitFor(
    async () => {
      const all = await sink.messages();
      return all.slice(seen).find((m) => m.to && JSON.stringify(m.to).includes(to));
    },
    'the sign-in email',
    30_000,
  );
  expect(mail.subject).toBe('Your Doorstep sign-in link');
  const m = mail.text?.match(/http:\/\/\S+\/sign-in#token=[A-Za-z0-9_-]{43}/);
  expect(m, mail.text).toBeTruthy();
  return m![0];
}

/** Opens /debug, which saves and coaches a sample Windows role-play from this browser. */
async function practise(page: Page): Promise<string> {
  const created = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().endsWith('/api/sessions'),
    { timeout: 60_000 },
  );
  await page.goto(`${server.url}/debug`);
  const id = ((await (await created).json()) as { id: string }).id;
  await page
    .getByRole('region', { name: 'Coaching Feedback' })
    .getByText(/Score: \d+\/10/)
    .first()
    .waitFor({ timeout: 90_000 });
  return id;
}

/** From My progress signed out: ask for a link, open it from the inbox, press Sign in. */
async function signIn(page: Page): Promise<void> {
  const seen = (await sink.messages()).length;
  // A phone's header holds the two tools; the way in is at the foot of every page.
  await page.goto(`${server.url}/audio`);
  await page.getByRole('contentinfo').getByRole('link', { name: 'My progress' }).click();
  await page.getByRole('heading', { name: 'See your progress on any device' }).waitFor();
  await page.getByLabel('Email').fill(EMAIL);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByText('Check your email').waitFor();
  await page.getByText(`We sent a sign-in link to ${EMAIL}`).waitFor();
  const link = await linkFromInbox(EMAIL, seen);
  await page.goto(link);
  await page.getByRole('heading', { name: 'Sign in to Doorstep' }).waitFor();
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByText(`Signed in as ${EMAIL}`).waitFor();
  // The spent token is gone from the address bar.
  expect(page.url()).not.toContain('token=');
}

describe.skipIf(noBrowser)('My progress on a phone: sign in by link, practice from two devices', () => {
  it('claims one device’s practice, adds another device’s, and shows both with charts and tables', async () => {
    // Device one practises before signing in.
    const one = await openPage(browser, { viewport: PHONE });
    const first = await practise(one.page);
    await signIn(one.page);
    const claim = one.page.getByRole('region', { name: 'Practice on this device' });
    await claim.getByText('This device has 1 role-play from before you signed in.').waitFor();
    await claim.getByRole('button', { name: 'Add to my progress' }).click();
    await one.page.getByText('Added 1 session from this device to your progress.').waitFor();
    const list = one.page.getByTestId('progress-list');
    await expect.poll(() => list.getByRole('listitem').count()).toBe(1);

    // Device two signs in and sees device one's call; then it practises: the account's at once.
    const two = await openPage(browser, { viewport: PHONE });
    await signIn(two.page);
    await expect.poll(() => two.page.getByTestId('progress-list').getByRole('listitem').count()).toBe(1);
    const second = await practise(two.page);
    await two.page.goto(`${server.url}/progress`);
    await expect.poll(() => two.page.getByTestId('progress-list').getByRole('listitem').count()).toBe(2);

    // Back on device one: both calls, newest first, each opening its results.
    await one.page.reload();
    await expect.poll(() => list.getByRole('listitem').count()).toBe(2);
    const hrefs = await list.getByRole('link').evaluateAll((as) => as.map((a) => a.getAttribute('href')));
    expect(hrefs).toEqual([`/?session=${second}`, `/?session=${first}`]);
    await expect.poll(() => list.getByText('Windows role-play').count()).toBe(2);

    // The weakest section is named; charts come with the same numbers as a table.
    await one.page.getByRole('heading', { name: /^Work on: / }).waitFor();
    const empathy = one.page.getByTestId('chart-empathy');
    await empathy.locator('svg.recharts-surface').waitFor();
    await empathy.getByText('Show as a table').click();
    const rows = empathy.getByRole('table', { name: 'Empathy and Connection' }).getByRole('row');
    await expect.poll(() => rows.count()).toBe(3); // heading + two calls
    await one.page.getByTestId('chart-questions').locator('svg.recharts-surface').waitFor();

    // Readable on a phone: nothing runs off the side of the screen.
    const overflow = await one.page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    expect(await seriousViolations(one.page)).toEqual([]);

    // A result opens from the list.
    await list.getByRole('link').first().click();
    await one.page.getByRole('region', { name: 'Coaching Feedback' }).waitFor();
    expect(new URL(one.page.url()).search).toBe(`?session=${second}`);

    // Sign out everywhere on device one ends device two's sign-in too.
    await one.page.goto(`${server.url}/progress`);
    await one.page.getByRole('button', { name: 'Sign out everywhere' }).click();
    await one.page.getByRole('heading', { name: 'See your progress on any device' }).waitFor();
    await two.page.reload();
    await two.page.getByRole('heading', { name: 'See your progress on any device' }).waitFor();

    expect(one.errors.pageErrors).toEqual([]);
    expect(two.errors.pageErrors).toEqual([]);
    // No request of the page failed: the new pages are pages to the server (200, not the 404
    // shell), and a signed-out page never asks for the account's data.
    expect(one.errors.consoleErrors).toEqual([]);
    expect(two.errors.consoleErrors).toEqual([]);
    await one.context.close();
    await two.context.close();
  }, 300_000);

  it('a used link says so plainly and offers a new one', async () => {
    const { page, context, errors } = await openPage(browser, { viewport: PHONE });
    await page.goto(`${server.url}/sign-in#token=${'Z'.repeat(43)}`);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByText('This sign-in link has expired or was already used. Ask for a new one.').waitFor();
    await page.getByRole('link', { name: 'Ask for a new link' }).click();
    await page.getByRole('heading', { name: 'See your progress on any device' }).waitFor();
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });
});
