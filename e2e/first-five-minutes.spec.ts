import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api, sharedDir } from '../server/test-support/harness';
import { skipWithout } from '../server/test-support/engines';
import {
  fakeMicArgs,
  launchBrowser,
  openPage,
  roleplay,
  roleplayUrl,
  seriousViolations,
  startAppServer,
  type TestServer,
} from './support';

/**
 * A new rep's first five minutes (issue 28), each item on a phone and a desktop: the call
 * never waits on a question, Talk and Type side by side (one tap from a trade to a homeowner),
 * no engine names on any rep page or in the PDF, one form after a call, phone ergonomics, the
 * player's duration and the leave guard, focus and axe, and the homeowners' voices.
 * The browser's speech APIs do not run headless: fixtures/web-speech-stand-in.js stands in.
 */
const STAND_IN = fs.readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/web-speech-stand-in.js'),
  'utf8',
);
const noEngines = skipWithout('pocketsphinx', 'pdftotext', 'flite');

export const SIZES = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1440, height: 900 },
} as const;

/** Engine, program and model names a rep must never read (operators see them on /status). */
const ENGINE_NAMES =
  /pocketsphinx|sphinx|espeak|silero|whisper|kokoro|piper|sherpa|zipformer|moonshine|parakeet|vapi|openai|llama|gguf|onnx|rubric|festival|flite|\bvad\b|web speech|hubspot|nodemailer|pglite|postgres|ffmpeg|debug:|router/i;

let tmp: string;
let server: TestServer;
let browser: Browser;
/** A transcribed and coached recording, shared by the PDF and player checks. */
let recordingId: string;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-first-e2e-'));
  const silence = path.join(tmp, 'silence.wav');
  execFileSync('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', silence, 'trim', '0', '60']);
  server = await startAppServer();
  browser = await launchBrowser(fakeMicArgs(silence));
  if (noEngines) return;
  const form = new FormData();
  const file = path.join(sharedDir, 'fixtures/audio/faster_whisper/stereo_diarization.wav');
  form.append('audio', new Blob([fs.readFileSync(file)], { type: 'audio/wav' }), 'kitchen-call.wav');
  form.append('stage', 'General');
  const upload = await fetch(`${server.url}/api/audio/upload`, { method: 'POST', body: form });
  expect(upload.status).toBeLessThan(300);
  recordingId = ((await upload.json()) as { sessionId: string }).sessionId;
  for (let i = 0; i < 300; i++) {
    const s = await api(server.url, 'GET', `/api/audio/${recordingId}`);
    if (s.body.status === 'transcribed') break;
    if (s.body.status === 'failed') throw new Error(`transcription failed: ${s.body.error}`);
    await new Promise((r) => setTimeout(r, 500));
  }
  const coached = await api(server.url, 'POST', `/api/audio/${recordingId}/coaching`);
  expect(coached.status).toBe(200);
}, 240_000);

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function open(
  viewport: { width: number; height: number },
  speech?: { available?: string; voices?: unknown[] },
) {
  const opened = await openPage(browser, { viewport });
  await opened.context.grantPermissions(['microphone'], { origin: server.url });
  if (speech) {
    await opened.context.addInitScript(`window.__speechSetup = ${JSON.stringify(speech)};`);
    await opened.context.addInitScript(STAND_IN);
  }
  return opened;
}

const activeId = (page: Page) => page.evaluate(() => document.activeElement?.id ?? '');
const box = async (page: Page, selector: ReturnType<Page['locator']>) => {
  const b = await selector.boundingBox();
  if (!b) throw new Error('not visible');
  return b;
};
const finalLine = (page: Page) =>
  page.locator('[data-testid="transcript-panel"] li:not([data-partial])').first();
const ungated = (page: Page) =>
  page.waitForFunction(() => {
    const gated = document.querySelector('[data-testid="gated-sections"]');
    return !!gated && !gated.hasAttribute('inert');
  });

for (const [size, viewport] of Object.entries(SIZES)) {
  describe.skipIf(noEngines)(`a new rep's first five minutes on ${size}`, () => {
    it('1. starts the call at once when the device offers a speech-pack download; offers it after', async () => {
      const { page, context, errors } = await open(viewport, { available: 'downloadable' });
      await page.goto(`${server.url}/?stage=General`);
      await roleplay.startCall(page);
      await page.getByText('Time Remaining').waitFor({ timeout: 15_000 });
      const question = page.getByRole('region', { name: 'Speech recognition choice' });
      expect(await question.count()).toBe(0);
      expect(await page.getByText('Connecting to AI...').count()).toBe(0);
      await roleplay.stopCall(page);
      // After the call: the offer, in the call card beside the start buttons, not below the fold.
      await question.waitFor();
      const card = await box(page, roleplay.callCard(page));
      const offer = await box(page, question);
      expect(offer.y).toBeGreaterThanOrEqual(card.y);
      expect(offer.y + offer.height).toBeLessThanOrEqual(card.y + card.height);
      expect(errors.pageErrors).toEqual([]);
      await context.close();
    });

    it('2. one tap from a trade to a typing homeowner: Talk and Type side by side, a typed call is a chat', async () => {
      const { page, context, errors } = await open(viewport, { available: 'available' });
      await page.goto(server.url + '/');
      await page.locator('label', { hasText: 'Flooring' }).click();
      const talk = roleplay.callCard(page).getByRole('button', { name: 'Talk', exact: true });
      const type = roleplay.callCard(page).getByRole('button', { name: 'Type', exact: true });
      await type.waitFor();
      // Choosing the trade brings Talk and Type on screen (a phone scrolls to them): the next tap starts.
      await page.waitForFunction(() => {
        const r = document.querySelector('[data-testid="start-typing"]')?.getBoundingClientRect();
        return !!r && r.top >= 0 && r.bottom <= window.innerHeight;
      });
      // Side by side: measured together, as the page may still be settling its scroll.
      const tops = await page.evaluate(() =>
        ['start-call', 'start-typing', 'brief-title'].map(
          (id) =>
            (document.querySelector(`[data-testid="${id}"]`) ??
              document.getElementById(id))!.getBoundingClientRect().top,
        ),
      );
      expect(Math.abs(tops[0] - tops[1])).toBeLessThan(4);
      expect(await talk.isVisible()).toBe(true);
      if (size === 'phone') expect(tops[2]).toBeLessThan(tops[1]);

      await type.click();
      // Nothing to answer: the box has focus and the homeowner is already talking.
      const input = page.getByRole('textbox', { name: 'What you say' });
      await input.waitFor({ timeout: 15_000 });
      expect(await input.evaluate((el) => el === document.activeElement)).toBe(true);
      await roleplay.transcriptLines(page).filter({ hasText: 'Priya' }).first().waitFor({ timeout: 20_000 });
      const bar = page.getByRole('region', { name: 'Call controls' });
      expect(await bar.getByTestId('typing-status').count()).toBe(1);
      expect(await bar.getByTestId('recording-status').count()).toBe(0);
      expect(await bar.getByTestId('mic-meter').count()).toBe(0);
      expect(await page.getByTestId('call-status').count()).toBe(0);

      await input.fill('Hi Priya, what would you love the living room floor to feel like?');
      await bar.getByRole('button', { name: 'Send' }).click();
      await roleplay.transcriptLines(page).filter({ hasText: 'what would you love' }).waitFor();
      // The reply is heard (the device voice spoke it) and can be read (it is in the transcript).
      await page.waitForFunction(() => (window as any).__speech.state.spoken.length >= 2, undefined, {
        timeout: 20_000,
      });
      const spoken = await page.evaluate(() => (window as any).__speech.state.spoken.map((s: any) => s.text));
      await roleplay
        .transcriptLines(page)
        .filter({ hasText: spoken[spoken.length - 1].slice(0, 20) })
        .first()
        .waitFor();

      await roleplay.stopCall(page);
      const coaching = await roleplay.waitForCoaching(page, 90_000);
      await coaching.getByTestId('typed-metrics-note').waitFor();
      const text = await coaching.innerText();
      expect(text).not.toMatch(/Speaking pace|Patience|% of time/);
      expect(errors.pageErrors).toEqual([]);
      await context.close();
    });

    it('3. names no engine, program or model on any rep page (a live call, coaching, uploads, sample, 404)', async () => {
      const { page, context } = await open(viewport);
      const read = async () => page.locator('body').innerText();
      await page.goto(`${server.url}/?voice=server&stage=Windows`);
      expect(await read()).not.toMatch(ENGINE_NAMES);
      await roleplay.startCall(page);
      await page.getByText('Time Remaining').waitFor({ timeout: 20_000 });
      await page.getByTestId('call-status').waitFor();
      // A final line (the opening, once played), so the call has something to coach.
      await finalLine(page).waitFor({ timeout: 30_000 });
      const during = await read();
      expect(during).not.toMatch(ENGINE_NAMES);
      // At most one plain quality line.
      expect(during.match(/Transcript may be approximate/g)?.length ?? 0).toBeLessThanOrEqual(1);
      await roleplay.stopCall(page);
      await roleplay.waitForCoaching(page, 90_000);
      expect(await read()).not.toMatch(ENGINE_NAMES);

      await page.goto(`${server.url}/audio`);
      await page.getByRole('heading', { name: 'Audio Coaching Analysis' }).waitFor();
      expect(await read()).not.toMatch(ENGINE_NAMES);
      await page.goto(`${server.url}/audio?session=${recordingId}`);
      await page.getByRole('region', { name: 'Transcript' }).waitFor({ timeout: 30_000 });
      await page
        .getByRole('region', { name: 'Coaching Feedback' })
        .getByText(/Score: \d+\/10/)
        .first()
        .waitFor();
      expect(await read()).not.toMatch(ENGINE_NAMES);

      // /debug reads as a sample of coaching.
      await page.goto(`${server.url}/debug`);
      await page.getByRole('heading', { name: /Sample coaching/ }).waitFor();
      await roleplay.waitForCoaching(page, 90_000);
      const debugText = await read();
      expect(debugText).not.toMatch(ENGINE_NAMES);
      expect(debugText).not.toMatch(/real API|canned|Session [0-9a-f]{8}-/);

      // The 404 speaks to a rep, with both tools a tap away.
      const missing = await page.goto(`${server.url}/no/such/page`);
      expect(missing?.status()).toBe(404);
      await page.getByRole('heading', { name: "We couldn't find that page" }).waitFor();
      expect(await read()).not.toMatch(ENGINE_NAMES);
      await page.getByRole('link', { name: 'Analyse a call recording' }).click();
      await page.getByRole('heading', { name: 'Audio Coaching Analysis' }).waitFor();
      await context.close();
    });

    it('4. one form after a call: unlock and email the summary, then "Sent to" and what to do next on top', async () => {
      const { page, context, errors } = await open(viewport);
      await page.goto(roleplayUrl(server.url, { stage: 'Windows' }));
      await roleplay.startCall(page);
      const coaching = await roleplay.waitForCoaching(page);
      const forms = page.locator('form');
      // The one form (the stage picker is not a form).
      await roleplay.summaryForm(page).waitFor();
      expect(await forms.count()).toBe(1);
      expect(await page.getByText('Want more detailed feedback on your call?').count()).toBe(0);
      const form = roleplay.summaryForm(page);
      expect(await form.getByLabel(/Name/).count()).toBe(1);
      expect(await form.getByRole('checkbox').isChecked()).toBe(false);
      await form.getByLabel('Email', { exact: true }).fill('rep@example.com');
      await form.getByLabel(/Name/).fill('Rae');
      const posted: string[] = [];
      page.on('request', (r) => {
        if (r.method() === 'POST' && /\/api\/(leads|feedback)$/.test(r.url()))
          posted.push(new URL(r.url()).pathname);
      });
      await form.getByRole('button', { name: 'Unlock and email me the summary' }).click();
      const actions = roleplay.resultsActions(page);
      await actions.getByText('Sent to rep@example.com').waitFor();
      await ungated(page);
      expect(posted).toEqual(['/api/leads', '/api/feedback']);
      expect(await page.locator('form').count()).toBe(0);
      // "Practise again" sits above the coaching, in the results' first screen.
      const a = await box(page, actions);
      const c = await box(page, coaching);
      expect(a.y).toBeLessThan(c.y);
      await actions.getByRole('button', { name: 'Resend' }).waitFor();
      await actions.getByRole('button', { name: /Try a harder homeowner/ }).click();
      expect(await page.getByRole('radio', { name: /^HVAC/ }).isChecked()).toBe(true);
      expect(await roleplay.coaching(page).count()).toBe(0);
      expect(errors.pageErrors).toEqual([]);
      await context.close();
    });

    it('5. phone ergonomics: tap-open help on 44 px targets, words beside colours, brief first, one sorted scale', async () => {
      const { page, context } = await open(viewport);
      await page.goto(roleplayUrl(server.url, { stage: 'Roofing' }));
      // The five trades from the easiest homeowner to the hardest, on one five-step scale.
      const labels = await page.locator('fieldset label').allInnerTexts();
      expect(labels.map((l) => l.split('\n')[0].trim())).toEqual([
        'General',
        'Flooring',
        'Windows',
        'HVAC',
        'Roofing',
      ]);
      labels.forEach((l, i) => expect(l).toContain(`${i + 1}/5`));
      // The brief is read before the start buttons.
      const brief = await box(page, page.getByRole('region', { name: 'Your brief' }));
      const talk = await box(
        page,
        roleplay.callCard(page).getByRole('button', { name: 'Talk', exact: true }),
      );
      // Above it on a phone, before it (to its left) on a desktop.
      if (size === 'phone') expect(brief.y + brief.height).toBeLessThanOrEqual(talk.y);
      else expect(brief.x + brief.width).toBeLessThanOrEqual(talk.x);

      await roleplay.startCall(page);
      const coaching = await roleplay.waitForCoaching(page);
      const helps = coaching.getByRole('button', { name: /^About / });
      expect(await helps.count()).toBeGreaterThanOrEqual(5);
      for (const b of await helps.all()) {
        const r = await box(page, b);
        expect(r.width).toBeGreaterThanOrEqual(44);
        expect(r.height).toBeGreaterThanOrEqual(44);
      }
      const first = helps.first();
      const helpId = await first.getAttribute('aria-controls');
      expect(await page.locator(`#${helpId}`).isVisible()).toBe(false);
      await first.tap().catch(() => first.click());
      expect(await page.locator(`#${helpId}`).isVisible()).toBe(true);
      expect(await first.getAttribute('aria-expanded')).toBe('true');
      // Every coloured value carries a word.
      for (const badge of await coaching.locator('[data-tone]').all())
        expect(await badge.innerText()).toMatch(/Strong|Fair|Needs work/);
      for (const health of await coaching.locator('[data-health]').all())
        expect(await health.innerText()).toMatch(/^(In range|Out of range)$/);
      await context.close();
    });

    it('6. the player shows the duration on a reopened recording; leaving a live call asks first', async () => {
      const { page, context } = await open(viewport);
      await page.goto(`${server.url}/audio?session=${recordingId}`);
      const player = page.getByRole('region', { name: 'Recording player' });
      await player.waitFor({ timeout: 30_000 });
      await page.waitForFunction(() =>
        /\/ 0:0[1-9]/.test(document.querySelector('[aria-label="Recording player"]')?.textContent ?? ''),
      );
      await page.reload();
      await player.waitFor({ timeout: 30_000 });
      await page.waitForFunction(() =>
        /\/ 0:0[1-9]/.test(document.querySelector('[aria-label="Recording player"]')?.textContent ?? ''),
      );

      await page.goto(roleplayUrl(server.url, { script: 'silent', pace: 'real' }));
      await roleplay.startCall(page);
      await page.getByText('Time Remaining').waitFor();
      const dialogs: string[] = [];
      page.on('dialog', (d) => {
        dialogs.push(d.type());
        void d.dismiss();
      });
      await page
        .getByRole('navigation', { name: 'Main' })
        .getByRole('link', { name: 'Call analysis' })
        .click();
      await expect.poll(() => dialogs).toEqual(['confirm']);
      // Dismissed: still on the call.
      expect(new URL(page.url()).pathname).toBe('/');
      expect(await page.getByText('Time Remaining').count()).toBe(1);
      // A reload asks through the browser's own prompt.
      await page.reload({ timeout: 3000 }).catch(() => undefined);
      await expect.poll(() => dialogs).toContain('beforeunload');
      expect(await page.getByText('Time Remaining').count()).toBe(1);
      await roleplay.stopCall(page);
      await context.close();
    });

    it('7. focus moves to the new heading after Start, the call end and the unlock; axe stays clean', async () => {
      const { page, context } = await open(viewport);
      const clean = async () => expect(await seriousViolations(page)).toEqual([]);
      await page.goto(roleplayUrl(server.url, { stage: 'Windows' }));
      await clean();
      await roleplay.startCall(page);
      await page.getByText('Time Remaining').waitFor();
      await expect.poll(() => activeId(page)).toBe('live-transcript-title');
      await clean();
      await roleplay.waitForCoaching(page);
      await expect.poll(() => activeId(page)).toBe('coaching-title');
      await clean();
      const form = roleplay.summaryForm(page);
      await form.getByLabel('Email', { exact: true }).fill('focus@example.com');
      await form.getByRole('button', { name: 'Unlock and email me the summary' }).click();
      await ungated(page);
      await expect.poll(() => activeId(page)).toBe('first-unlocked-section');
      await roleplay.resultsActions(page).getByText('Sent to focus@example.com').waitFor();
      await clean();

      // The recording page: the transcript's seek buttons say what they show.
      await page.goto(`${server.url}/audio?session=${recordingId}`);
      await page.getByRole('region', { name: 'Transcript' }).waitFor({ timeout: 30_000 });
      const seek = page.getByRole('button', { name: /^Play from / }).first();
      // Named by its own text ("Play from" is read, not shown), not by a label that differs from it.
      expect(await seek.getAttribute('aria-label')).toBeNull();
      expect(await seek.innerText()).toMatch(/\d+:\d{2}/);
      await clean();
      for (const url of ['/audio', '/debug', '/not-here']) {
        await page.goto(server.url + url);
        await page.locator('h1').first().waitFor();
        if (url === '/debug') await roleplay.waitForCoaching(page, 90_000);
        await clean();
      }
      await context.close();
    });

    it("8. the homeowner speaks in the persona's own server voice", async () => {
      const { page, context } = await open(viewport);
      const stage = size === 'phone' ? 'Flooring' : 'General';
      const formats: number[] = [];
      page.on('websocket', (ws) =>
        ws.on('framereceived', (f) => {
          if (typeof f.payload !== 'string') return;
          const m = JSON.parse(f.payload) as { type: string; sampleRate?: number };
          if (m.type === 'audio-format' && m.sampleRate) formats.push(m.sampleRate);
        }),
      );
      const created = page.waitForResponse(
        (r) => r.url().endsWith('/api/sessions') && r.request().method() === 'POST',
      );
      await page.goto(`${server.url}/?voice=server&stage=${stage}`);
      await roleplay.startCall(page);
      const sessionId = ((await (await created).json()) as { id: string }).id;
      await expect.poll(() => formats.length, { timeout: 20_000 }).toBeGreaterThan(0);
      // The opening line played to the end is kept with the call, and the engines with it.
      await finalLine(page).waitFor({ timeout: 30_000 });
      // Priya is a step higher than Flite's own 16 kHz voice; Tom speaks at its own rate.
      expect(formats[0]).toBe(stage === 'Flooring' ? 17_280 : 16_000);
      await roleplay.stopCall(page);
      await page.getByText('Ready to start').waitFor();
      const saved = await api(server.url, 'GET', `/api/sessions/${sessionId}`);
      const tts = (saved.body.engines as { capability: string; engine: string }[]).find(
        (e) => e.capability === 'text-to-speech',
      );
      expect(tts?.engine).toBe('flite');
      await context.close();
    });
  });
}

describe.skipIf(noEngines)('the PDF report', () => {
  it('names no engine, program or model', async () => {
    const pdf = await fetch(`${server.url}/api/audio/${recordingId}/pdf`);
    expect(pdf.status).toBe(200);
    const file = path.join(tmp, 'report.pdf');
    fs.writeFileSync(file, Buffer.from(await pdf.arrayBuffer()));
    const text = execFileSync('pdftotext', [file, '-'], { encoding: 'utf8' });
    expect(text).toContain('Call Coaching Report');
    expect(text).not.toMatch(ENGINE_NAMES);
    expect(text).not.toMatch(/Speech-to-text:|Coaching: /);
  });
});
