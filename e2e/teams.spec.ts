import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { skipWithout } from '../server/test-support/engines';
import { startSmtpSink, type SmtpSink } from '../server/test-support/smtp-sink';
import { waitFor } from '../server/test-support/harness';
import { launchBrowser, openPage, seriousViolations, startAppServer, type TestServer } from './support';

const noBrowser = skipWithout('chromium');

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const MANAGER = 'sam.manager@example.com';
const REP = 'riley.rep@example.com';
const COMMENT = 'Ask what the drafts cost them each winter before you talk price.';

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

async function linkFromInbox(to: string, seen: number): Promise<string> {
  const mail = await waitFor(
    async () => (await sink.messages()).slice(seen).find((m) => m.to && JSON.stringify(m.to).includes(to)),
    'the sign-in email',
    30_000,
  );
  const m = mail.text?.match(/http:\/\/\S+\/sign-in#token=[A-Za-z0-9_-]{43}/);
  expect(m, mail.text).toBeTruthy();
  return m![0];
}

/** On a page showing the sign-in form: ask for a link, open it, press Sign in. */
async function signInHere(page: Page, email: string): Promise<void> {
  const seen = (await sink.messages()).length;
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
  await page.getByText('Check your email').waitFor();
  await page.goto(await linkFromInbox(email, seen));
  await page.getByRole('button', { name: 'Sign in' }).click();
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

async function noOverflow(page: Page): Promise<void> {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, page.url()).toBeLessThanOrEqual(0);
}

describe.skipIf(noBrowser)('Teams: a manager on a desktop, a rep on a phone', () => {
  it('creates a team, a rep joins, the manager comments on a line, the rep sees it and leaves', async () => {
    // The manager signs in from the Teams page and starts a team.
    const boss = await openPage(browser, { viewport: DESKTOP });
    await boss.page.goto(`${server.url}/teams`);
    await boss.page.getByRole('heading', { name: 'Sign in to use teams' }).waitFor();
    await signInHere(boss.page, MANAGER);
    await boss.page.getByText(`Signed in as ${MANAGER}`).waitFor();
    await boss.page.getByRole('link', { name: 'Teams' }).click();
    await boss.page.getByLabel('Team name').fill('North Crew');
    await boss.page.getByRole('button', { name: 'Create team' }).click();
    await boss.page.getByRole('heading', { name: 'North Crew' }).waitFor();
    await boss.page.getByText('No reps yet. Share an invite link to add them.').waitFor();
    await boss.page.getByRole('button', { name: 'Make an invite link' }).click();
    const invite = await boss.page.getByLabel('New invite link (shown once)').inputValue();
    expect(invite).toMatch(/\/join#invite=[A-Za-z0-9_-]{43}$/);

    // The rep opens the link on a phone, signs in, and is brought back to decide.
    const rep = await openPage(browser, { viewport: PHONE });
    await rep.page.goto(invite);
    await rep.page.getByText('Sign in first.', { exact: false }).waitFor();
    await signInHere(rep.page, REP);
    await rep.page.getByText('Join North Crew?').waitFor();
    await rep.page.getByText(MANAGER).waitFor();
    await noOverflow(rep.page);
    expect(await seriousViolations(rep.page)).toEqual([]);
    const join = rep.page.getByRole('button', { name: 'Join team' });
    expect(await join.isDisabled()).toBe(true);
    await rep.page.getByLabel("I agree to share my practice with this team's managers.").check();
    await join.click();
    await rep.page.getByText('You’re in North Crew.'.replace('’', "'")).waitFor();
    expect(rep.page.url()).not.toContain('invite=');

    // The rep practises while signed in: the call is theirs, so the team sees it.
    const call = await practise(rep.page);

    // The manager sees the rep, their scores and the team's weakest sections, then the call.
    await boss.page.reload();
    const reps = boss.page.getByTestId('team-reps');
    await reps.getByText(REP).waitFor();
    await reps.getByText(/1 call · average \d/).waitFor();
    await boss.page.getByTestId('team-weakest').waitFor();
    await boss.page.getByLabel('Trade').selectOption('HVAC');
    await boss.page.getByText('No calls match these filters yet.').waitFor();
    expect(boss.page.url()).toContain('stage=HVAC');
    await boss.page.getByRole('button', { name: 'Clear filters' }).click();
    await reps.getByText(/1 call · average \d/).waitFor();
    await reps.getByRole('link').first().click();
    await boss.page.getByRole('heading', { name: REP }).waitFor();
    await boss.page.getByTestId('chart-empathy').locator('svg.recharts-surface').waitFor();
    await boss.page.getByTestId('rep-calls').getByRole('link').first().click();
    await boss.page.getByText('Read-only').waitFor();
    expect(boss.page.url()).toContain(`/calls/roleplay/${call}`);
    await boss.page
      .getByRole('region', { name: 'Coaching' })
      .getByRole('heading', { name: /^Empathy and Connection/ })
      .waitFor();

    // A comment pinned to the third line.
    const third = boss.page.locator('[data-line="2"]');
    const quote = (await third.locator('p').nth(1).innerText()).trim();
    await third.getByRole('button', { name: 'Comment on line 3' }).click();
    await third.getByLabel('Comment on this line').fill(COMMENT);
    await third.getByRole('button', { name: 'Save comment' }).click();
    await third.getByTestId('line-comment').getByText(COMMENT).waitFor();
    expect(await seriousViolations(boss.page)).toEqual([]);

    // The manager's pages fit a phone as well.
    await boss.page.setViewportSize(PHONE);
    await noOverflow(boss.page);
    await boss.page.goto(`${server.url}/teams`);
    await boss.page.getByRole('link', { name: /North Crew/ }).click();
    await reps.getByText(REP).waitFor();
    await noOverflow(boss.page);
    await boss.page.setViewportSize(DESKTOP);

    // The rep sees the comment with that call's results, and the line it is about.
    await rep.page.goto(`${server.url}/?session=${call}`);
    const mine = rep.page.getByRole('region', { name: 'Comments from your manager' });
    await mine.getByText(COMMENT).waitFor();
    await mine.getByText(quote, { exact: false }).waitFor();
    await noOverflow(rep.page);

    // The rep leaves; the manager no longer sees them or their call.
    await rep.page.goto(`${server.url}/teams`);
    await rep.page.getByRole('button', { name: 'Leave', exact: true }).click();
    await rep.page.getByRole('button', { name: 'Leave team' }).click();
    await rep.page.getByRole('button', { name: 'Create team' }).waitFor();
    await expect.poll(() => rep.page.getByText('Teams you’re in'.replace('’', "'")).count()).toBe(0);
    await boss.page.goto(`${server.url}/teams`);
    await boss.page.getByRole('link', { name: /North Crew/ }).click();
    await boss.page.getByText('No reps yet. Share an invite link to add them.').waitFor();
    await boss.page.goto(
      `${server.url}/teams/${new URL(boss.page.url()).pathname.split('/')[2]}/calls/roleplay/${call}`,
    );
    await boss.page.getByText('Call not found').waitFor();

    expect(boss.errors.pageErrors).toEqual([]);
    expect(rep.errors.pageErrors).toEqual([]);
    // The one refused request is the manager's last look at the call after the rep left.
    expect(boss.errors.consoleErrors.filter((e) => !/404/.test(e))).toEqual([]);
    expect(rep.errors.consoleErrors).toEqual([]);
    await boss.context.close();
    await rep.context.close();
  }, 300_000);

  it('signed out, the public results show no team comments and ask for nothing of an account', async () => {
    const { page, context, errors } = await openPage(browser, { viewport: PHONE });
    const requests: string[] = [];
    page.on('request', (r) => requests.push(new URL(r.url()).pathname));
    await practise(page);
    expect(await page.getByRole('region', { name: 'Comments from your manager' }).count()).toBe(0);
    expect(
      requests.filter((p) => p.startsWith('/api/teams') || p.startsWith('/api/account/comments')),
    ).toEqual([]);
    expect(errors.pageErrors).toEqual([]);
    expect(errors.consoleErrors).toEqual([]);
    await context.close();
  }, 180_000);
});
