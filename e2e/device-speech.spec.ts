import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { api } from '../server/test-support/harness';
import { fakeMicArgs, launchBrowser, openPage, roleplay, startAppServer, type TestServer } from './support';

/**
 * The device voice engine in the page, with scripted stand-ins for SpeechRecognition and
 * speechSynthesis (fixtures/web-speech-stand-in.js) over the real call socket and server:
 * the choice of engines and its notice, the questions before a download or online
 * recognition, recognised turns, barge-in, echo gating, and recogniser errors.
 */
const STAND_IN = fs.readFileSync(
  path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures/web-speech-stand-in.js'),
  'utf8',
);

interface Setup {
  available?: 'available' | 'downloadable' | 'unavailable' | 'none';
  recognition?: boolean;
  voices?: { name: string; lang: string; localService: boolean }[];
}

interface SpeechState {
  instances: number;
  starts: { lang: string; processLocally: boolean; continuous: boolean; interim: boolean }[];
  spoken: { text: string; voice: string; rate: number; pitch: number }[];
  cancels: number;
  installs: number;
  speaking: unknown;
  hold: boolean;
  msPerChar: number;
}

let tmp: string;
let server: TestServer;
let browser: Browser;

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-device-e2e-'));
  // A silent microphone: the level meter and barge-in by level stay quiet, recognition is scripted.
  const silence = path.join(tmp, 'silence.wav');
  execFileSync('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', silence, 'trim', '0', '30']);
  server = await startAppServer();
  browser = await launchBrowser(fakeMicArgs(silence));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

async function openDevicePage(setup: Setup, query = 'stage=General') {
  const opened = await openPage(browser);
  await opened.context.grantPermissions(['microphone'], { origin: server.url });
  await opened.context.addInitScript(`window.__speechSetup = ${JSON.stringify(setup)};`);
  await opened.context.addInitScript(STAND_IN);
  await opened.page.goto(`${server.url}/?${query}`);
  return opened;
}

const speech = (page: Page) => page.evaluate(() => (window as any).__speech.state as SpeechState);
/** A recognition result once a recognition session is live; returns the cancels it caused at once. */
async function say(page: Page, text: string, isFinal: boolean): Promise<number> {
  await page.waitForFunction(() => (window as any).__speech.state.active !== null);
  return page.evaluate(([t, f]) => (window as any).__speech.result(t, f) as number, [text, isFinal] as const);
}
const setSpeech = (page: Page, patch: Partial<Pick<SpeechState, 'hold' | 'msPerChar'>>) =>
  page.evaluate((p) => Object.assign((window as any).__speech.state, p), patch);

/** Transcript lines as the page shows them ("You..." / "Tom..."). */
const lines = (page: Page) =>
  page.evaluate(() =>
    [...document.querySelectorAll('[data-testid="transcript-panel"] li')].map((li) => li.textContent ?? ''),
  );

async function waitForLine(page: Page, who: string, text: string, timeout = 30_000) {
  await page.waitForFunction(
    ([w, t]) =>
      [...document.querySelectorAll('[data-testid="transcript-panel"] li')].some(
        (li) => (li.textContent ?? '').startsWith(w) && (li.textContent ?? '').includes(t),
      ),
    [who, text] as const,
    { timeout },
  );
}

async function startAndWaitForOpening(page: Page) {
  const session = page.waitForResponse(
    (r) => r.url().endsWith('/api/sessions') && r.request().method() === 'POST',
  );
  await roleplay.startCall(page);
  const sessionId = ((await (await session).json()) as { id: string }).id;
  await page.getByText('Time Remaining').waitFor({ timeout: 20_000 });
  // The homeowner's opening line is spoken by the device voice, then shown as a final line.
  await page.waitForFunction(() => (window as any).__speech.state.spoken.length > 0, undefined, {
    timeout: 20_000,
  });
  return sessionId;
}

describe('device speech in the browser', () => {
  it('runs a call on the device: recognised turns, the persona voice, barge-in and echo gating', async () => {
    const { page, context, errors } = await openDevicePage({});
    const sessionId = await startAndWaitForOpening(page);
    await page.getByTestId('device-speech-notice').getByText("Using your device's speech").waitFor();

    let state = await speech(page);
    // On-device recognition, continuous with interim results, in US English.
    expect(state.starts[0]).toEqual({ lang: 'en-US', processLocally: true, continuous: true, interim: true });
    // Tom (General) is male: the male English voice, at his rate and pitch.
    expect(state.spoken[0].voice).toBe('Daniel');
    expect(state.spoken[0].rate).toBeCloseTo(170 / 175, 2);
    expect(state.spoken[0].pitch).toBe(1);
    await page.waitForFunction(() => !(window as any).__speech.state.speaking);

    // Interim results are the live caption; the final becomes the rep's turn.
    await say(page, 'hi there my name is alex', false);
    await waitForLine(page, 'You', 'hi there my name is alex');
    await say(page, 'Hi there, my name is Alex. How old is the house?', true);
    await waitForLine(page, 'You', 'How old is the house?');
    const spokenBefore = (await speech(page)).spoken.length;
    await page.waitForFunction(
      (n) => (window as any).__speech.state.spoken.length > n && !(window as any).__speech.state.speaking,
      spokenBefore,
      { timeout: 20_000 },
    );
    const reply = (await speech(page)).spoken.slice(spokenBefore).map((s) => s.text);
    await waitForLine(page, 'Tom', reply[0]);

    // Next reply: the homeowner keeps talking (held) while the microphone hears it back.
    await setSpeech(page, { hold: true });
    const heldFrom = (await speech(page)).spoken.length;
    await say(page, 'What would you most like to change about the home?', true);
    await page.waitForFunction((n) => (window as any).__speech.state.spoken.length > n, heldFrom, {
      timeout: 20_000,
    });
    state = await speech(page);
    const talking = state.spoken[heldFrom].text;
    const cancelsBefore = state.cancels;
    // Echo: the homeowner's own words recognised from the speakers do not cut it off...
    expect(await say(page, talking.split(/\s+/).slice(0, 4).join(' '), false)).toBe(0);
    expect(await say(page, talking, true)).toBe(0);
    expect((await speech(page)).cancels).toBe(cancelsBefore);
    // ...the rep's own words do, at once (in the same event, well inside 300 ms).
    expect(await say(page, 'sorry to jump in', false)).toBe(1);
    await say(page, 'Sorry to jump in, when would suit you for a visit?', true);
    await waitForLine(page, 'You', 'when would suit you for a visit?');
    // The cut-off reply shows only what was spoken; the echo never became a rep line.
    await waitForLine(page, 'Tom', talking);
    const shown = await lines(page);
    expect(shown.filter((l) => l.startsWith('You')).some((l) => l.includes(talking))).toBe(false);
    await setSpeech(page, { hold: false });
    await page.evaluate(() => (window as any).__speech.release());

    await roleplay.stopCall(page);
    await roleplay.coaching(page).waitFor({ timeout: 60_000 });
    const saved = await api(server.url, 'GET', `/api/sessions/${sessionId}`);
    const entries = saved.body.transcript as { role: string; transcript: string }[];
    const user = entries.filter((e) => e.role === 'user').map((e) => e.transcript);
    expect(user).toEqual([
      'Hi there, my name is Alex. How old is the house?',
      'What would you most like to change about the home?',
      'Sorry to jump in, when would suit you for a visit?',
    ]);
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });

  it('never holds a call on the download question: the pack is offered after the call, then used', async () => {
    const { page, context } = await openDevicePage({ available: 'downloadable' });
    await roleplay.startCall(page);
    // The call starts at once on the server's recognition; nothing asks while it starts or runs.
    await page.getByText('Time Remaining').waitFor({ timeout: 20_000 });
    const question = page.getByRole('region', { name: 'Speech recognition choice' });
    expect(await question.count()).toBe(0);
    expect((await speech(page)).instances).toBe(0);
    expect((await speech(page)).installs).toBe(0);
    await roleplay.stopCall(page);

    // After the call, the offer sits with the start buttons.
    await question.getByText(/For your next call.*one-time download/).waitFor();
    await question.getByRole('button', { name: 'Download' }).click();
    await page.getByText(/English speech pack ready/).waitFor({ timeout: 20_000 });
    expect((await speech(page)).installs).toBe(1);

    await roleplay.startCall(page);
    await page.getByText('Time Remaining').waitFor({ timeout: 20_000 });
    await page.getByTestId('device-speech-notice').getByText("Using your device's speech").waitFor();
    expect((await speech(page)).starts[0].processLocally).toBe(true);
    await roleplay.stopCall(page);
    await context.close();
  });

  it('never uses online recognition unasked; a refusal is remembered and the server listens', async () => {
    // A recogniser that cannot promise on-device processing (as in Safari).
    const { page, context } = await openDevicePage({ available: 'none' });
    await roleplay.startCall(page);
    await page.getByText('Time Remaining').waitFor({ timeout: 20_000 });
    const question = page.getByRole('region', { name: 'Speech recognition choice' });
    expect(await question.count()).toBe(0);
    await page
      .getByTestId('device-speech-notice')
      .getByText("Using your device's voice for the homeowner; your words are recognised on our server")
      .waitFor();
    // The server listens (no recogniser in the page) and the device voices the opening line.
    await page.waitForFunction(() => (window as any).__speech.state.spoken.length > 0, undefined, {
      timeout: 20_000,
    });
    await waitForLine(page, 'Tom', (await speech(page)).spoken[0].text);
    expect((await speech(page)).instances).toBe(0);
    await roleplay.stopCall(page);
    await page.getByText('Ready to start').waitFor();

    await question.getByText(/sending your voice to Google/).waitFor();
    await question.getByRole('button', { name: "Use this site's recognition" }).click();
    // The next call does not offer it again.
    await roleplay.startCall(page);
    await page.getByText('Time Remaining').waitFor({ timeout: 20_000 });
    expect((await speech(page)).instances).toBe(0);
    await roleplay.stopCall(page);
    await page.getByText('Ready to start').waitFor();
    expect(await question.count()).toBe(0);
    await context.close();
  });

  it('uses online recognition only after the rep allows it, and says so', async () => {
    const { page, context } = await openDevicePage({ available: 'unavailable' });
    await roleplay.startCall(page);
    await page.getByText('Time Remaining').waitFor({ timeout: 20_000 });
    expect((await speech(page)).instances).toBe(0);
    await roleplay.stopCall(page);
    await page.getByRole('button', { name: 'Use online recognition' }).click();
    await roleplay.startCall(page);
    await page.getByText('Time Remaining').waitFor({ timeout: 20_000 });
    const notice = page.getByTestId('device-speech-notice');
    await notice.getByText(/online speech recognition \(you allowed it\)/).waitFor();
    const state = await speech(page);
    expect(state.starts[0].processLocally).toBe(false);
    await say(page, 'Hello, how are you today?', true);
    await waitForLine(page, 'You', 'how are you today?');
    // The rep can take it back.
    await notice.getByRole('button', { name: 'Stop using online recognition' }).click();
    await roleplay.stopCall(page);
    await context.close();
  });

  it('restarts quietly after no-speech, and ends with a clear message on network and permission errors', async () => {
    const { page, context, errors } = await openDevicePage({}, 'stage=HVAC');
    await startAndWaitForOpening(page);
    const first = (await speech(page)).instances;
    expect(await page.evaluate(() => (window as any).__speech.error('no-speech'))).toBe(true);
    await page.waitForFunction((n) => (window as any).__speech.state.instances > n, first);
    expect(await roleplay.callCard(page).getByRole('alert').count()).toBe(0);

    // Online recognition unreachable three times in a row.
    for (let i = 0; i < 3; i++) {
      const n = (await speech(page)).instances;
      await page.evaluate(() => (window as any).__speech.error('network'));
      if (i < 2) await page.waitForFunction((k) => (window as any).__speech.state.instances > k, n);
    }
    const alert = roleplay.callCard(page).getByRole('alert');
    await alert.getByText(/cannot be reached/).waitFor();
    await roleplay.callCard(page).getByRole('button', { name: 'Talk', exact: true }).waitFor();

    await startAndWaitForOpening(page);
    await page.evaluate(() => (window as any).__speech.error('not-allowed'));
    await alert.getByText(/Microphone access is blocked/).waitFor();
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });

  it('recognises on the device while the server voices the homeowner when the device has no voice', async () => {
    const { page, context } = await openDevicePage({ voices: [] }, 'stage=Windows');
    await roleplay.startCall(page);
    await page.getByText('Time Remaining').waitFor({ timeout: 20_000 });
    await page
      .getByTestId('device-speech-notice')
      .getByText(/device's speech recognition; the homeowner's voice comes from our server/)
      .waitFor();
    // The opening line, voiced by the server, reaches the transcript.
    await waitForLine(page, 'Linda', ' ');
    await say(page, 'Hi Linda, what made you start looking at new windows?', true);
    await waitForLine(page, 'You', 'what made you start looking at new windows?');
    expect((await speech(page)).spoken).toEqual([]);
    await roleplay.stopCall(page);
    await context.close();
  });

  it('uses the server engines when the page asks for them', async () => {
    const { page, context } = await openDevicePage({}, 'stage=General&voice=server');
    await roleplay.startCall(page);
    await page.getByText('Time Remaining').waitFor({ timeout: 20_000 });
    await waitForLine(page, 'Tom', ' ');
    const state = await speech(page);
    expect([state.instances, state.spoken.length]).toEqual([0, 0]);
    expect(await page.getByTestId('device-speech-notice').count()).toBe(0);
    await roleplay.stopCall(page);
    await context.close();
  });
});
