import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { skipWithout } from '../server/test-support/engines';
import type { Browser } from 'playwright-core';
import { api } from '../server/test-support/harness';
import { fakeMicArgs, launchBrowser, openPage, roleplay, startAppServer, type TestServer } from './support';

const noBrowser = skipWithout('chromium', 'pocketsphinx', 'espeak-ng');

/**
 * A full call through the page with the live engine: Chromium's fake microphone plays a
 * WAV of a rep's lines (espeak-ng) separated by pauses; the server recognises them,
 * the homeowner answers, the page saves the transcript and shows scored coaching.
 */
const REP_LINES = [
  'Hi there, my name is Alex with Bright Home. What problems are you having with the house?',
  'I understand. How old is the home, and when are you hoping to get this done?',
  'Can we set up an appointment for Saturday?',
];

let tmp: string;
let micFile: string;
let server: TestServer;
let browser: Browser;

function makeMicFile(dir: string): string {
  const parts: string[] = [];
  const silence = (sec: number) => {
    const f = path.join(dir, `silence-${parts.length}.wav`);
    execFileSync('sox', ['-n', '-r', '16000', '-c', '1', '-b', '16', f, 'trim', '0', String(sec)]);
    parts.push(f);
  };
  // The homeowner opens the call first; the rep waits, then speaks each line and listens.
  silence(5);
  REP_LINES.forEach((line, i) => {
    const raw = path.join(dir, `line-${i}-raw.wav`);
    execFileSync('espeak-ng', ['-v', 'en-us', '-s', '150', '-w', raw, line]);
    const f = path.join(dir, `line-${i}.wav`);
    execFileSync('sox', [raw, '-r', '16000', '-c', '1', '-b', '16', f]);
    parts.push(f);
    silence(7);
  });
  const out = path.join(dir, 'rep.wav');
  execFileSync('sox', [...parts, out]);
  return out;
}

beforeAll(async () => {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-voice-e2e-'));
  micFile = makeMicFile(tmp);
  // These calls exercise the server's own speech engines. Headless Chromium exposes the browser's
  // online recognition, which the device engine (e2e/device-speech.spec.ts) would first ask about.
  server = await startAppServer({ DEVICE_SPEECH: 'off' });
  browser = await launchBrowser(fakeMicArgs(micFile));
});

afterAll(async () => {
  await browser?.close();
  await server?.close();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

describe.skipIf(noBrowser)('live voice call in the browser', () => {
  it('runs a full call with the microphone and reaches scored coaching', async () => {
    const { page, context, errors } = await openPage(browser);
    await context.grantPermissions(['microphone'], { origin: server.url });
    await page.goto(`${server.url}/?voice=local&stage=General`);
    const sessionResponse = page.waitForResponse(
      (r) => r.url().endsWith('/api/sessions') && r.request().method() === 'POST',
    );
    await roleplay.startCall(page);
    const sessionId = ((await (await sessionResponse).json()) as { id: string }).id;
    await page.getByText('Time Remaining').waitFor({ timeout: 20_000 });

    // The engine notice and the two level meters are shown during the call.
    const status = page.getByTestId('call-status');
    await status.waitFor();
    // No engine is named; the offline recogniser earns one plain quality line.
    await status.getByTestId('call-quality').getByText('Transcript may be approximate').waitFor();
    expect(await status.innerText()).not.toMatch(/PocketSphinx|espeak|Silero|engine/i);
    expect(await status.getByRole('progressbar', { name: 'Your microphone level' }).count()).toBe(1);
    expect(await status.getByRole('progressbar', { name: 'Tom voice level' }).count()).toBe(1);

    // The rep's recognised words and the homeowner's answers appear in the Live Transcript.
    const lines = roleplay.transcriptLines(page);
    await lines.filter({ hasText: 'You' }).first().waitFor({ timeout: 40_000 });
    await page.waitForFunction(
      () => {
        const items = [...document.querySelectorAll('[data-testid="transcript-panel"] li')].map(
          (li) => li.textContent ?? '',
        );
        const user = items.filter((t) => t.startsWith('You')).length;
        const tom = items.filter((t) => t.startsWith('Tom')).length;
        return user >= 2 && tom >= 3;
      },
      undefined,
      { timeout: 60_000 },
    );

    await roleplay.stopCall(page);
    const card = await roleplay.waitForCoaching(page, 90_000);
    expect(await card.getByText(/Score: \d+\/10/).count()).toBeGreaterThan(0);

    // The transcript the page saved holds both sides of the conversation.
    const saved = await api(server.url, 'GET', `/api/sessions/${sessionId}`);
    const entries = saved.body.transcript as { role: string; transcript: string }[];
    expect(entries.filter((e) => e.role === 'user').length).toBeGreaterThanOrEqual(2);
    // The opening line and at least one answer (a reply cut off by the stop may be partial).
    expect(entries.filter((e) => e.role === 'assistant').length).toBeGreaterThanOrEqual(2);
    console.log(entries.map((e) => `${e.role}: ${e.transcript}`).join('\n'));
    expect(entries.every((e) => e.transcript.trim().length > 0)).toBe(true);
    expect(errors.pageErrors).toEqual([]);
    await context.close();
  });

  it('shows the microphone error in the alert when access is refused, with a way to retry', async () => {
    const denied = await launchBrowser(['--use-fake-device-for-media-stream', '--deny-permission-prompts']);
    try {
      const { page, context } = await openPage(denied);
      await page.goto(`${server.url}/?voice=local&stage=General`);
      await roleplay.startCall(page);
      const alert = roleplay.callCard(page).getByRole('alert');
      await alert.waitFor({ timeout: 20_000 });
      expect(await alert.innerText()).toMatch(/microphone.*try again/i);
      // The start button is back, so the rep can retry.
      await roleplay.callCard(page).getByRole('button', { name: 'Talk', exact: true }).waitFor();
      await context.close();
    } finally {
      await denied.close();
    }
  });
});
