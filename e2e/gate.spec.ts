import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../server/test-support/engines';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { eq } from 'drizzle-orm';
import { storedDocument } from '../core/coaching-document';
import { GATED_SECTIONS, LOCKED_SECTION_TEXT } from '../core/coaching-format';
import { EMAIL_MESSAGE } from '../core/schemas';
import { leads, sessions } from '../server/db/schema';
import { launchBrowser, openPage, startAppServer, type TestServer } from './support';

const noBrowser = skipWithout('chromium');

const HUBSPOT_SCRIPT = 'https://js.hsforms.net/forms/embed/v2.js';
const STAND_IN = fs.readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/hubspot-stand-in.js'),
  'utf8',
);
const GATED_TITLES = ['Objection Handling', 'Closing', 'Follow-Up'];

let browser: Browser;
beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

const coachingCard = (page: Page) => page.getByRole('region', { name: 'Coaching Feedback' });
const gated = (page: Page) => coachingCard(page).getByTestId('gated-sections');
const gate = (page: Page) => page.getByTestId('unlock-gate');

/**
 * Opens /debug, which saves a sample Windows session through the real API and coaches it.
 * With `sessionId`, the page is handed that existing session instead of a new one: the debug
 * page creates a session on every load, and a reload test needs to see the same one again.
 */
async function openCoachedSession(page: Page, base: string, sessionId?: string): Promise<string> {
  if (sessionId) {
    await page.route(
      (url) => url.pathname === '/api/sessions',
      async (route) => {
        if (route.request().method() !== 'POST') return route.continue();
        const res = await fetch(`${base}/api/sessions/${sessionId}`);
        await route.fulfill({ status: 201, contentType: 'application/json', body: await res.text() });
      },
    );
  }
  const created = page.waitForResponse(
    (r) => r.request().method() === 'POST' && r.url().endsWith('/api/sessions'),
    { timeout: 60_000 },
  );
  await page.goto(`${base}/debug`);
  const id = ((await (await created).json()) as { id: string }).id;
  await coachingCard(page)
    .getByText(/Score: \d+\/10|Unable to generate coaching feedback\./)
    .first()
    .waitFor({ timeout: 90_000 });
  const failure = coachingCard(page).getByRole('alert');
  if (await failure.count())
    throw new Error(`The coaching card shows an error: ${await failure.innerText()}`);
  return id;
}

/** The stored coaching's gated advice lines (not quotes of the call, which the transcript shows anyway). */
async function gatedAdvice(server: TestServer, id: string): Promise<string[]> {
  const [row] = await server.server.ctx.database.db
    .select({ coaching: sessions.coaching })
    .from(sessions)
    .where(eq(sessions.id, id));
  const doc = storedDocument(row?.coaching ?? null);
  if (!doc) throw new Error('The session has no stored coaching');
  return doc.sections
    .filter((s) => GATED_SECTIONS.includes(s.key))
    .flatMap((s) => s.content.split('\n'))
    .filter((l) => l.trim() && !l.trim().startsWith('>'))
    .map((l) => l.replace(/\*\*/g, '').trim())
    .filter((l) => l.length >= 25);
}

/** Before unlock the page never received the gated sections: not in its text, not in its HTML. */
async function expectNoGatedContent(page: Page, server: TestServer, id: string) {
  const advice = await gatedAdvice(server, id);
  expect(advice.length).toBeGreaterThan(0);
  const html = (await page.content())
    .replace(/<[^>]+>/g, ' ')
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'");
  const flat = html.replace(/\s+/g, ' ');
  for (const line of advice) expect(flat).not.toContain(line.replace(/\s+/g, ' '));
  expect(await gated(page).innerText()).toContain(LOCKED_SECTION_TEXT);
  expect(await gated(page).innerText()).not.toMatch(/Score: \d+\/10/);
}

async function expectLocked(page: Page) {
  await gate(page).waitFor();
  expect(await gate(page).innerText()).toContain('Unlock Full Coaching Results');
  expect(await gate(page).innerText()).toContain(
    'Get detailed feedback on Objection Handling, Closing, and Follow-Up techniques. Enter your email to see the complete analysis.',
  );
  const state = await gated(page).evaluate((el) => ({
    inert: (el as HTMLElement).inert,
    ariaHidden: el.getAttribute('aria-hidden'),
    userSelect: getComputedStyle(el).userSelect,
  }));
  expect(state).toEqual({ inert: true, ariaHidden: 'true', userSelect: 'none' });
  // Hidden from screen readers: the accessibility tree of the card has no gated section.
  const tree = await coachingCard(page).ariaSnapshot();
  for (const title of GATED_TITLES) expect(tree).not.toContain(`region "${title}"`);
  expect(tree).toContain('region "Needs Analysis"');
}

async function expectUnlocked(page: Page) {
  await gated(page).waitFor();
  await page.waitForFunction(() => {
    const el = document.querySelector<HTMLElement>('[data-testid="gated-sections"]');
    return !!el && !el.inert && !el.hasAttribute('aria-hidden');
  });
  expect(await gate(page).count()).toBe(0);
  const tree = await coachingCard(page).ariaSnapshot();
  for (const title of GATED_TITLES) expect(tree).toContain(`region "${title}"`);
  expect(await gated(page).innerText()).toMatch(/Objection Handling[\s\S]*Closing[\s\S]*Follow-Up/);
}

/** Tabs through the page until focus reaches `selector`; fails if focus ever lands in the gated sections. */
async function tabTo(page: Page, selector: string) {
  await page.locator('body').focus();
  for (let i = 0; i < 80; i++) {
    await page.keyboard.press('Tab');
    const where = await page.evaluate((sel) => {
      const active = document.activeElement;
      return {
        inGated: !!active?.closest('[data-testid="gated-sections"]'),
        reached: !!active?.matches(sel),
      };
    }, selector);
    expect(where.inGated).toBe(false);
    if (where.reached) return;
  }
  throw new Error(`Tab never reached ${selector}`);
}

async function sessionUnlocked(base: string, id: string): Promise<boolean> {
  const res = await fetch(`${base}/api/sessions/${id}`);
  return ((await res.json()) as { unlocked: boolean }).unlocked;
}

describe.skipIf(noBrowser)('the built-in gate', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAppServer();
  });
  afterAll(async () => {
    await server?.close();
  });

  it('keeps the last three sections inert until the form is sent, then unlocks them for good', async () => {
    const { page, context, errors } = await openPage(browser);
    const id = await openCoachedSession(page, server.url);
    await expectLocked(page);
    expect(await sessionUnlocked(server.url, id)).toBe(false);

    // The unlock panel is reachable from the keyboard, and focus never enters the gated sections.
    const form = gate(page).getByRole('form', { name: 'Unlock and email me the summary' });
    await tabTo(page, '[data-testid="unlock-gate"] input[type="email"]');

    // Validated in the page before anything is sent.
    const leadPosts: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'POST' && r.url().endsWith('/api/leads')) leadPosts.push(r.postData() ?? '');
    });
    await form.getByRole('button', { name: 'Unlock and email me the summary' }).click();
    await form.getByText('Email is required.').waitFor();
    await page.keyboard.type('not-an-email');
    await form.getByRole('button', { name: 'Unlock and email me the summary' }).click();
    await form.getByText(EMAIL_MESSAGE).waitFor();
    await form.getByRole('textbox', { name: 'Email' }).fill('rep@example.com');
    expect(leadPosts).toHaveLength(0);
    await expectLocked(page);
    await expectNoGatedContent(page, server, id);

    // The coaching-tips box is separate, unticked and optional: the email alone unlocks.
    const optIn = form.getByRole('checkbox', { name: /coaching tips/ });
    expect(await optIn.isChecked()).toBe(false);
    await form.getByRole('textbox', { name: /Name/ }).fill('Rep <b>Tester</b>');
    const posted = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith('/api/leads'),
    );
    const refetched = page.waitForResponse(
      (r) => r.request().method() === 'POST' && r.url().endsWith(`/api/sessions/${id}/coaching`),
    );
    await form.getByRole('button', { name: 'Unlock and email me the summary' }).click();
    expect((await posted).status()).toBe(201);
    // The full coaching is fetched again from the server once it has the lead.
    expect(((await (await refetched).json()) as { unlocked: boolean }).unlocked).toBe(true);
    await expectUnlocked(page);
    const advice = await gatedAdvice(server, id);
    expect(await gated(page).innerText()).toContain(advice[0]);

    // Stored with the session it came from, the name neutralised.
    const rows = await server.server.ctx.database.db.select().from(leads).where(eq(leads.sessionId, id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      email: 'rep@example.com',
      name: 'Rep Tester',
      sessionKind: 'roleplay',
      source: 'builtin',
      // "Send me coaching tips" was left unticked.
      consent: false,
    });
    expect(await sessionUnlocked(server.url, id)).toBe(true);

    // A reload of the same session stays unlocked.
    await openCoachedSession(page, server.url, id);
    await expectUnlocked(page);
    expect(errors.pageErrors).toEqual([]);
    await context.close();

    // So does a browser that never saw the unlock (the server remembers), but not another session.
    const fresh = await openPage(browser);
    await openCoachedSession(fresh.page, server.url, id);
    await expectUnlocked(fresh.page);
    await fresh.context.close();
    const other = await openPage(browser);
    const otherId = await openCoachedSession(other.page, server.url);
    expect(otherId).not.toBe(id);
    await expectLocked(other.page);
    await other.context.close();
  });
});

describe.skipIf(noBrowser)('the HubSpot gate', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startAppServer({ HUBSPOT_PORTAL_ID: '1234567', HUBSPOT_FORM_ID: 'stand-in-form' });
  });
  afterAll(async () => {
    await server?.close();
  });

  async function withStandIn(
    mode: 'message' | 'callback' | 'both',
  ): Promise<{ page: Page; context: BrowserContext; errors: { pageErrors: string[] } }> {
    const opened = await openPage(browser);
    await opened.context.addInitScript((m) => {
      (window as unknown as { __hubspotStandInMode: string }).__hubspotStandInMode = m;
    }, mode);
    // The real script URL, answered locally: the page code is exactly what runs against HubSpot.
    await opened.context.route(HUBSPOT_SCRIPT, (route) =>
      route.fulfill({ status: 200, contentType: 'application/javascript', body: STAND_IN }),
    );
    return opened;
  }

  it.each(['message', 'callback'] as const)(
    'unlocks on the %s success signal and records the lead',
    async (mode) => {
      const { page, context, errors } = await withStandIn(mode);
      const id = await openCoachedSession(page, server.url);
      await expectLocked(page);
      await expectNoGatedContent(page, server, id);
      const hs = gate(page).getByTestId('hubspot-form');
      await hs.locator('input[name="email"]').waitFor();
      expect(await gate(page).getByRole('form', { name: 'Unlock and email me the summary' }).count()).toBe(0);
      const created = await page.evaluate(() => (window as any).__hubspotStandIn.created);
      expect(created).toEqual([
        expect.objectContaining({ region: 'na1', portalId: '1234567', formId: 'stand-in-form' }),
      ]);

      // Submitting alone does not unlock; the success event does.
      await hs.locator('input[name="email"]').fill(`${mode}@example.com`);
      const posted = page.waitForResponse(
        (r) => r.request().method() === 'POST' && r.url().endsWith('/api/leads'),
      );
      await hs.locator('input[type="submit"]').click();
      await expectUnlocked(page);
      expect((await posted).status()).toBe(201);
      const rows = await server.server.ctx.database.db.select().from(leads).where(eq(leads.sessionId, id));
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({
        email: `${mode}@example.com`,
        source: 'hubspot',
        sessionKind: 'roleplay',
      });

      await openCoachedSession(page, server.url, id);
      await expectUnlocked(page);
      expect(errors.pageErrors).toEqual([]);
      await context.close();
    },
  );

  it('takes the session id out of the page address before HubSpot’s script loads', async () => {
    // A coached role-play reopened from its link (/?session=<id>), as from the summary email.
    const created = await fetch(`${server.url}/api/sessions`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ stage: 'Windows' }),
    }).then((r) => r.json() as Promise<{ id: string }>);
    const transcript = [
      { role: 'assistant', transcript: 'Hi, come on in. The windows are in the back.', timestamp: 1 },
      { role: 'user', transcript: 'Thanks! What made you start thinking about new windows?', timestamp: 2 },
      { role: 'assistant', transcript: 'The drafts in winter, and the heating bills.', timestamp: 3 },
    ].map((e) => ({ ...e, transcriptType: 'final' }));
    await fetch(`${server.url}/api/sessions/${created.id}/transcript`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ transcript, duration: '120' }),
    });
    expect(
      (await fetch(`${server.url}/api/sessions/${created.id}/coaching`, { method: 'POST' })).status,
    ).toBe(200);

    const opened = await openPage(browser);
    // The stand-in notes the address as HubSpot's script would see it, at load and at create.
    await opened.context.route(HUBSPOT_SCRIPT, (route) =>
      route.fulfill({
        status: 200,
        contentType: 'application/javascript',
        body: `window.__addressAtLoad = location.href;\n${STAND_IN}`,
      }),
    );
    const { page } = opened;
    await page.goto(`${server.url}/?session=${created.id}`);
    await gate(page).getByTestId('hubspot-form').locator('input[name="email"]').waitFor({ timeout: 60_000 });
    const seen = await page.evaluate(
      () => (window as unknown as { __addressAtLoad: string }).__addressAtLoad,
    );
    expect(seen).not.toContain(created.id);
    expect(page.url()).not.toContain(created.id);
    // The reopened session is still the one on screen.
    await coachingCard(page).waitFor();
    await opened.context.close();
  });

  it('ignores a success event for another form', async () => {
    const { page, context } = await withStandIn('both');
    const id = await openCoachedSession(page, server.url);
    await gate(page).getByTestId('hubspot-form').locator('input[name="email"]').waitFor();
    // Our probe listens after the gate's listener, so once it has seen the message the gate has too.
    const seen = (formId: string) =>
      page.evaluate(
        (f) =>
          new Promise<void>((resolve) => {
            const probe = (e: MessageEvent) => {
              if (e.data?.id !== f) return;
              window.removeEventListener('message', probe);
              requestAnimationFrame(() => requestAnimationFrame(() => resolve()));
            };
            window.addEventListener('message', probe);
            window.postMessage(
              { type: 'hsFormCallback', eventName: 'onFormSubmitted', id: f, data: {} },
              window.location.origin,
            );
          }),
        formId,
      );
    await seen('some-other-form');
    await expectLocked(page);
    // The same event for the configured form without an email cannot unlock on the server, so
    // the page asks for the email in the built-in form instead of pretending.
    await seen('stand-in-form');
    await gate(page).getByRole('form', { name: 'Unlock and email me the summary' }).waitFor();
    expect(await gate(page).innerText()).toContain('Please confirm your email here to finish unlocking.');
    await expectLocked(page);
    expect(await sessionUnlocked(server.url, id)).toBe(false);
    await context.close();
  });

  it('falls back to the built-in form when the HubSpot script cannot load', async () => {
    const { page, context } = await openPage(browser);
    await context.route(HUBSPOT_SCRIPT, (route) => route.abort('blockedbyclient'));
    await openCoachedSession(page, server.url);
    await gate(page).getByRole('form', { name: 'Unlock and email me the summary' }).waitFor();
    expect(await gate(page).innerText()).toContain('The sign-up form could not load');
    await context.close();
  });
});
