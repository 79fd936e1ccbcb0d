/**
 * Screenshots of every page at phone (390x844) and desktop (1440x900) size into docs/screens/,
 * taken from the real server (embedded database, built client) with system Chromium.
 * Run after UI changes: `npm run screens`; `npm run screens -- --only team,join` takes only the
 * shots whose names start with one of those.
 */
import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Page } from 'playwright-core';
import { ensureClientBuilt, rootDir } from '../e2e/support/build';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../e2e/support/browser';
import { roleplayUrl } from '../e2e/support/urls';
import { startTestServer } from '../server/test-support/harness';
// The recording shown on the audio page is written straight into the database, as the tests do.
import {
  accounts,
  audioSessions,
  leads,
  outbox,
  sessions,
  teamComments,
  teamInvites,
  teamMembers,
  teams,
} from '../server/db/schema';
import { hashSecret, randomToken } from '../server/domain/accounts/tokens';
import { transcriptLines } from '../server/domain/teams/service';
import { desc, eq } from 'drizzle-orm';
import { canonicalDocument } from '../core/coaching-document';
import { parseCoaching } from '../core/coaching-format';
import { fixtureTranscript, sampleCoaching } from '../server/test-support/sample-session';

const SIZES = {
  phone: { width: 390, height: 844 },
  desktop: { width: 1440, height: 900 },
} as const;

const outDir = path.join(rootDir, 'docs/screens');

const COACHED = /Score: \d+\/10|Unable to generate coaching feedback\./;

async function main() {
  ensureClientBuilt();
  fs.mkdirSync(outDir, { recursive: true });
  const server = await startTestServer({});
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  const [recording] = await server.server.ctx.database.db
    .insert(audioSessions)
    .values({
      fileName: 'Smith kitchen call.m4a',
      stage: 'General',
      storageKey: 'screenshots-not-stored',
      status: 'transcribed',
      progress: 100,
      durationMs: 48_000,
      attribution: 'stereo',
      transcript: [
        {
          role: 'user',
          transcript: 'Hi, thanks for having me over today.',
          timestamp: 0,
          transcriptType: 'final',
        },
        {
          role: 'assistant',
          transcript: 'Sure, come in. The back door sticks and the deck is getting old.',
          timestamp: 3500,
          transcriptType: 'final',
        },
        {
          role: 'user',
          transcript: 'What would you most like to have fixed before the summer?',
          timestamp: 9000,
          transcriptType: 'final',
        },
        {
          role: 'assistant',
          transcript: 'The deck, really. The kids are out there all the time and a board cracked last week.',
          timestamp: 13000,
          transcriptType: 'final',
        },
        {
          role: 'user',
          transcript: 'That makes sense. Can I take a look at it and show you two ways to do it?',
          timestamp: 21000,
          transcriptType: 'final',
        },
      ],
    })
    .returning({ id: audioSessions.id });

  // A signed-in rep with six weeks of practice, for My progress.
  const db = server.server.ctx.database.db;
  const PROGRESS_EMAIL = 'dana.rep@example.com';
  const [account] = await db.insert(accounts).values({ email: PROGRESS_EMAIL }).returning();
  const fx = fixtureTranscript();
  const sampleDoc = canonicalDocument(parseCoaching(sampleCoaching())!);
  const weeks = [
    { stage: 'Windows', shift: -2, talk: 64, questions: 5, monologue: 140 },
    { stage: 'HVAC', shift: -1, talk: 58, questions: 8, monologue: 110 },
    { stage: 'Windows', shift: 0, talk: 55, questions: 9, monologue: 95 },
    { stage: 'Roofing', shift: 0, talk: 51, questions: 12, monologue: 80 },
    { stage: 'General', shift: 1, talk: 47, questions: 14, monologue: 62 },
    { stage: 'Windows', shift: 2, talk: 44, questions: 15, monologue: 55 },
  ];
  for (const [i, w] of weeks.entries()) {
    const doc = {
      ...sampleDoc,
      sections: sampleDoc.sections.map((sec) => ({
        ...sec,
        score: sec.score === null ? null : Math.max(1, Math.min(10, sec.score + w.shift)),
      })),
    };
    const [row] = await db
      .insert(sessions)
      .values({
        stage: w.stage,
        transcript: fx.transcript,
        coaching: doc,
        metrics: {
          version: 1,
          durationSec: 300,
          repWords: 500,
          homeownerWords: 500,
          repTurns: 20,
          homeownerTurns: 20,
          talkRatioWordsPercent: w.talk,
          talkRatioTimePercent: w.talk,
          longestMonologueWords: w.monologue,
          longestMonologueSec: null,
          questions: {
            total: w.questions,
            open: Math.ceil(w.questions / 2),
            closed: Math.floor(w.questions / 2),
          },
          questionsPerMinute: null,
          interactivityPerMinute: null,
          patienceSec: null,
          fillerWords: 0,
          fillersPerMinute: null,
          paceWpm: null,
          pressurePhrases: [],
        },
        startedAt: new Date(Date.now() - (weeks.length - i) * 7 * 86_400_000),
        accountId: account.id,
      })
      .returning({ id: sessions.id });
    // Unlocked, as a rep who gave their email sees them: every section scored.
    await db
      .insert(leads)
      .values({ sessionId: row.id, sessionKind: 'roleplay', email: PROGRESS_EMAIL, consent: true });
  }
  // A team: its manager, Dana and two more reps with a few calls, a comment on Dana's newest call
  // and an invite link for a fourth rep's consent screen.
  const MANAGER_EMAIL = 'sam.manager@example.com';
  const NEW_REP_EMAIL = 'alex.rep@example.com';
  const [manager] = await db.insert(accounts).values({ email: MANAGER_EMAIL }).returning();
  const [team] = await db.insert(teams).values({ name: 'North Crew', createdBy: manager.id }).returning();
  await db.insert(teamMembers).values([
    { teamId: team.id, accountId: manager.id, role: 'manager' },
    { teamId: team.id, accountId: account.id, role: 'rep' },
  ]);
  for (const [r, email] of ['jo.rep@example.com', 'kim.rep@example.com'].entries()) {
    const [rep] = await db.insert(accounts).values({ email }).returning();
    await db.insert(teamMembers).values({ teamId: team.id, accountId: rep.id, role: 'rep' });
    for (let i = 0; i < 3 + r; i++) {
      const doc = {
        ...sampleDoc,
        sections: sampleDoc.sections.map((sec, j) => ({
          ...sec,
          score: sec.score === null ? null : Math.max(1, Math.min(10, sec.score + ((i + j + r) % 4) - 1)),
        })),
      };
      const [row] = await db
        .insert(sessions)
        .values({
          stage: ['HVAC', 'Roofing', 'Windows'][i % 3],
          transcript: fx.transcript,
          coaching: doc,
          startedAt: new Date(Date.now() - (i * 5 + r) * 86_400_000),
          accountId: rep.id,
        })
        .returning({ id: sessions.id });
      await db.insert(leads).values({ sessionId: row.id, sessionKind: 'roleplay', email, consent: true });
    }
  }
  await db.insert(accounts).values({ email: NEW_REP_EMAIL });
  const inviteToken = randomToken();
  await db.insert(teamInvites).values({
    teamId: team.id,
    tokenHash: hashSecret(inviteToken),
    createdBy: manager.id,
    expiresAt: new Date(Date.now() + 14 * 86_400_000),
  });
  const [newest] = await db
    .select({ id: sessions.id, transcript: sessions.transcript })
    .from(sessions)
    .where(eq(sessions.accountId, account.id))
    .orderBy(desc(sessions.startedAt))
    .limit(1);
  const commentLine = 2;
  await db.insert(teamComments).values({
    teamId: team.id,
    sessionKind: 'roleplay',
    sessionId: newest.id,
    line: commentLine,
    quote: transcriptLines(newest.transcript, false)[commentLine].text,
    authorId: manager.id,
    body: 'Good opener. Next time ask what the drafts cost them each winter before you talk price.',
  });

  /** Signs the page's browser in (as the rep above unless told), through the real link flow. */
  async function signIn(page: Page, site: string, email = PROGRESS_EMAIL): Promise<void> {
    await page.request.post(`${site}/api/account/sign-in-link`, { data: { email } });
    const [mail] = await db
      .select()
      .from(outbox)
      .where(eq(outbox.toAddress, email))
      .orderBy(desc(outbox.createdAt))
      .limit(1);
    const token = mail.text.match(/token=([A-Za-z0-9_-]{43})/)![1];
    await page.request.post(`${site}/api/account/sign-in`, { data: { token } });
  }

  const shots: { name: string; go: (page: Page, base: string) => Promise<void> }[] = [
    {
      name: 'roleplay',
      go: async (page, base) => {
        await page.goto(`${base}/?stage=Windows`);
        await page.getByRole('button', { name: 'Talk', exact: true }).waitFor();
      },
    },
    {
      name: 'roleplay-call',
      go: async (page, base) => {
        await page.goto(roleplayUrl(base, { script: 'balance-60-40' }));
        await page.getByRole('button', { name: 'Talk', exact: true }).click();
        await page.getByText('Great listening ratio!').waitFor();
      },
    },
    {
      name: 'roleplay-coaching',
      go: async (page, base) => {
        await page.goto(roleplayUrl(base, { stage: 'Windows' }));
        await page.getByRole('button', { name: 'Talk', exact: true }).click();
        await page
          .getByRole('region', { name: 'Coaching Feedback' })
          .getByText(COACHED)
          .first()
          .waitFor({ timeout: 120_000 });
        await page.getByTestId('unlock-gate').scrollIntoViewIfNeeded();
      },
    },
    {
      name: 'roleplay-typed',
      go: async (page, base) => {
        await page.goto(`${base}/?stage=General`);
        await page.getByRole('button', { name: 'Type', exact: true }).click();
        const input = page.getByRole('textbox', { name: 'What you say' });
        await input.waitFor({ timeout: 30_000 });
        await page.getByTestId('transcript-panel').locator('li').first().waitFor({ timeout: 30_000 });
        await input.fill('Hi Tom, thanks for having me. What has been on your list lately?');
        await page.getByRole('button', { name: 'Send' }).click();
        await page
          .getByTestId('transcript-panel')
          .locator('li[data-role="user"]')
          .first()
          .waitFor({ timeout: 30_000 });
        // The homeowner's answer, when it comes in time for the picture.
        await page
          .locator('[data-testid="transcript-panel"] li[data-role="user"] ~ li[data-role="assistant"]')
          .first()
          .waitFor({ timeout: 20_000 })
          .catch(() => undefined);
      },
    },
    {
      name: 'roleplay-results',
      go: async (page, base) => {
        await page.goto(roleplayUrl(base, { stage: 'Windows' }));
        await page.getByRole('button', { name: 'Talk', exact: true }).click();
        const form = page.getByRole('form', { name: 'Unlock and email me the summary' });
        await form.waitFor({ timeout: 120_000 });
        await form.getByLabel('Email', { exact: true }).fill('rep@example.com');
        await form.getByRole('button', { name: 'Unlock and email me the summary' }).click();
        await page.getByText('Sent to rep@example.com').waitFor();
        await page.getByTestId('results-actions').scrollIntoViewIfNeeded();
      },
    },
    {
      name: 'audio',
      go: async (page, base) => {
        await page.goto(`${base}/audio`);
        await page.getByText('Drop your audio file here').waitFor();
      },
    },
    {
      name: 'audio-coaching',
      go: async (page, base) => {
        await page.goto(`${base}/audio?session=${recording.id}`);
        // Coached on the first size already: the page then opens with the coaching shown.
        const generate = page.getByRole('button', { name: 'Generate Coaching Feedback' });
        const download = page.getByRole('button', { name: 'Download PDF Report' });
        await generate.or(download).first().waitFor();
        if (await generate.isVisible()) await generate.click();
        await download.waitFor({ timeout: 120_000 });
        await page.getByRole('region', { name: 'Transcript' }).scrollIntoViewIfNeeded();
      },
    },
    {
      name: 'debug',
      go: async (page, base) => {
        await page.goto(`${base}/debug`);
        await page.getByRole('region', { name: 'Coaching Feedback' }).getByText(COACHED).first().waitFor({
          timeout: 120_000,
        });
      },
    },
    {
      name: 'status',
      go: async (page, base) => {
        await page.goto(`${base}/status`);
        await page.getByTestId('status-report').waitFor();
      },
    },
    {
      name: 'progress-sign-in',
      go: async (page, site) => {
        await page.goto(`${site}/progress`);
        await page.getByRole('heading', { name: 'See your progress on any device' }).waitFor();
      },
    },
    {
      name: 'progress',
      go: async (page, site) => {
        await signIn(page, site);
        await page.goto(`${site}/progress`);
        await page.getByTestId('chart-empathy').locator('svg.recharts-surface').waitFor();
      },
    },
    {
      name: 'progress-charts',
      go: async (page, site) => {
        await signIn(page, site);
        await page.goto(`${site}/progress`);
        const metrics = page.getByRole('region', { name: 'How you talk' });
        await metrics.locator('svg.recharts-surface').first().waitFor();
        await metrics.getByText('Show as a table').first().click();
        await metrics.scrollIntoViewIfNeeded();
      },
    },
    {
      name: 'teams',
      go: async (page, site) => {
        await signIn(page, site, MANAGER_EMAIL);
        await page.goto(`${site}/teams`);
        await page.getByRole('heading', { name: 'Teams you manage' }).waitFor();
      },
    },
    {
      name: 'team-page',
      go: async (page, site) => {
        await signIn(page, site, MANAGER_EMAIL);
        await page.goto(`${site}/teams/${team.id}`);
        await page.getByTestId('team-reps').getByText(PROGRESS_EMAIL).waitFor();
      },
    },
    {
      name: 'team-rep',
      go: async (page, site) => {
        await signIn(page, site, MANAGER_EMAIL);
        await page.goto(`${site}/teams/${team.id}/reps/${account.id}`);
        await page.getByTestId('chart-empathy').locator('svg.recharts-surface').waitFor();
      },
    },
    {
      name: 'team-call',
      go: async (page, site) => {
        await signIn(page, site, MANAGER_EMAIL);
        await page.goto(`${site}/teams/${team.id}/calls/roleplay/${newest.id}`);
        await page.getByTestId('line-comment').waitFor();
        await page.locator(`[data-line="${commentLine}"]`).scrollIntoViewIfNeeded();
      },
    },
    {
      name: 'join',
      go: async (page, site) => {
        await signIn(page, site, NEW_REP_EMAIL);
        await page.goto(`${site}/join#invite=${inviteToken}`);
        await page.getByText('Join North Crew?').waitFor();
      },
    },
    {
      name: 'results-comments',
      go: async (page, site) => {
        await signIn(page, site);
        await page.goto(`${site}/?session=${newest.id}`);
        const comments = page.getByRole('region', { name: 'Comments from your manager' });
        await comments.waitFor();
        await comments.scrollIntoViewIfNeeded();
      },
    },
    {
      name: 'not-found',
      go: async (page, base) => {
        await page.goto(`${base}/no-such-page`);
        await page.getByRole('heading', { name: "We couldn't find that page" }).waitFor();
      },
    },
  ];

  try {
    const only = process.argv.includes('--only')
      ? process.argv[process.argv.indexOf('--only') + 1]?.split(',')
      : null;
    for (const [size, viewport] of Object.entries(SIZES)) {
      for (const shot of shots.filter((s) => !only || only.some((o) => s.name.startsWith(o)))) {
        const context = await browser.newContext({ viewport, deviceScaleFactor: 1 });
        const page = await context.newPage();
        page.setDefaultTimeout(60_000);
        await shot.go(page, server.url);
        // Let transitions and the smooth scroll settle before the picture.
        await page.waitForTimeout(600);
        const file = path.join(outDir, `${shot.name}-${size}.png`);
        await page.screenshot({ path: file });
        console.log(`wrote ${path.relative(rootDir, file)}`);
        await context.close();
      }
    }
  } finally {
    await browser.close();
    await server.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
