import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { gateDocument } from '../../core/coaching-document';
import { parseCoaching } from '../../core/coaching-format';
import { skipWithout } from '../test-support/engines';
import type { TranscriptEntry } from '../../core/transcript';
import { metricRows, renderAudioReport, type ReportInput } from './report';

const coaching = `**Summary**
You opened warmly and **asked about the drafty windows** early.

---

**Best: Warm opening**
Score: 9/10
> "Hi, I'm Sam from Brightline, thanks for making time."
That set a friendly tone.

**To Improve: Empathy and Connection**
Score: 8/10
You mirrored the homeowner's worry about **energy bills**.

**To Improve: Needs Analysis**
Score: 6/10
Ask how long they plan to stay in the house.

**To Improve: Exploring Options**
Score: 5/10
Offer two options instead of one.

**To Improve: Objection Handling**
Score: 4/10
> "That's more than I wanted to spend."
You dropped the price at once; explore the concern first.

**To Improve: Closing**
Score: 3/10
No clear next step was agreed.

**Follow-Up**
Score: 7/10
You promised to send the brochure.
`;

function pdfText(pdf: Buffer): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-'));
  const file = path.join(dir, 'r.pdf');
  fs.writeFileSync(file, pdf);
  try {
    return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

function pageCount(pdf: Buffer): number {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-'));
  const file = path.join(dir, 'r.pdf');
  fs.writeFileSync(file, pdf);
  try {
    const info = execFileSync('pdfinfo', [file], { encoding: 'utf8' });
    return Number(/Pages:\s+(\d+)/.exec(info)![1]);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

const base: ReportInput = {
  fileName: 'Smith kitchen call – 12 May.m4a',
  stage: 'Windows',
  uploadedAt: '2026-05-12T15:04:00.000Z',
  durationMs: 754_000,
  transcript: [
    {
      role: 'user',
      transcript: 'Hi, thanks for having me over today.',
      timestamp: 0,
      transcriptType: 'final',
    },
    { role: 'assistant', transcript: 'Sure, come on in. The windows are in the back.', timestamp: 4200 },
  ],
  coaching: parseCoaching(coaching),
  metrics: { talkRatio: { rep: 0.41, homeowner: 0.59 }, questionsAsked: 7, longestMonologueSec: 48.5 },
  sttEngine: { quality: 'basic' },
  coachingEngine: { quality: 'basic' },
  attributionIsGuess: true,
};

describe.skipIf(skipWithout('pdftotext'))('audio PDF report', () => {
  it('holds the header, balance, metrics, every section heading and score, and the timed transcript', async () => {
    const text = pdfText(await renderAudioReport(base));
    for (const needle of [
      'Call Coaching Report',
      'Smith kitchen call – 12 May.m4a',
      '2026-05-12 15:04',
      'Duration: 12:34',
      'Transcript may be approximate.',
      'Speaker Balance',
      'Measured Metrics',
      'Questions asked',
      'Summary',
      'Best: Warm opening',
      'Strength: Empathy and Connection',
      'To Improve: Needs Analysis',
      'To Improve: Exploring Options',
      'To Improve: Objection Handling',
      'To Improve: Closing',
      'To Improve: Follow-Up',
      'Transcript',
      '0:04',
      'Customer',
    ]) {
      expect(text, needle).toContain(needle);
    }
    for (const score of [9, 8, 6, 5, 4, 3, 7]) expect(text).toContain(`Score: ${score}/10`);
    // Bold markers and quote markers are rendered, not printed.
    expect(text).not.toContain('**');
    expect(text).not.toMatch(/^\s*>/m);
    expect(text).toContain('asked about the drafty windows');
  });

  it('names no engine: one plain quality line, and none for an enhanced transcript', async () => {
    const stored = {
      ...base,
      sttEngine: {
        id: 'pocketsphinx',
        label: 'Offline speech engine (PocketSphinx)',
        quality: 'basic' as const,
      },
    };
    const text = pdfText(await renderAudioReport(stored));
    expect(text).not.toMatch(/PocketSphinx|Speech-to-text:|Coaching: /);
    expect(text).toContain('Transcript may be approximate.');
    const enhanced = pdfText(await renderAudioReport({ ...base, sttEngine: { quality: 'enhanced' } }));
    expect(enhanced).not.toContain('Transcript may be approximate');
  });

  it('prints the gated sections of a locked call as headings only', async () => {
    const pdf = await renderAudioReport({ ...base, coaching: gateDocument(parseCoaching(coaching)!, false) });
    const text = pdfText(pdf);
    for (const title of ['Objection Handling (locked)', 'Closing (locked)', 'Follow-Up (locked)'])
      expect(text).toContain(title);
    expect(text).toContain('Unlock the full coaching results with your email');
    for (const advice of ['explore the concern first', 'No clear next step', 'send the brochure'])
      expect(text).not.toContain(advice);
    for (const score of [4, 3, 7]) expect(text).not.toContain(`Score: ${score}/10`);
    // The open sections are all there.
    expect(text).toContain('Offer two options instead of one.');
  });

  it("draws the header band in the app's teal", async () => {
    const pdf = await renderAudioReport(base);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-'));
    try {
      fs.writeFileSync(path.join(dir, 'r.pdf'), pdf);
      execFileSync('pdftoppm', ['-r', '18', '-f', '1', '-l', '1', '-singlefile', 'r.pdf', 'page'], {
        cwd: dir,
      });
      // A binary PPM: "P6\n<w> <h>\n255\n" then RGB triples; the pixel at (4, 4) is in the band.
      const ppm = fs.readFileSync(path.join(dir, 'page.ppm'));
      const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(ppm.toString('latin1', 0, 40))!;
      const width = Number(header[1]);
      const at = header[0].length + (4 * width + 4) * 3;
      const [r, g, b] = [ppm[at], ppm[at + 1], ppm[at + 2]];
      expect(Math.abs(r - 0x0c) + Math.abs(g - 0x4b) + Math.abs(b - 0x45)).toBeLessThan(24);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('flows a very long transcript over many pages without losing any line', async () => {
    const transcript: TranscriptEntry[] = Array.from({ length: 600 }, (_, i) => ({
      role: i % 2 ? 'assistant' : 'user',
      transcript: `Line ${i} ${'and the homeowner keeps talking about the windows '.repeat((i % 7) + 1)}end${i}`,
      timestamp: i * 5000,
      transcriptType: 'final',
    }));
    const pdf = await renderAudioReport({ ...base, transcript });
    const text = pdfText(pdf);
    expect(pageCount(pdf)).toBeGreaterThan(10);
    for (const i of [0, 1, 299, 598, 599]) expect(text).toContain(`end${i}`);
    expect(text).toContain('49:55'); // the last entry's timestamp
    expect(text).toMatch(/page \d+ of \d+/);
  });

  it('prints a legacy coaching text that is not in the coaching format as it was stored', async () => {
    const text = pdfText(await renderAudioReport({ ...base, coaching: 'Good call, **keep asking**.' }));
    expect(text).toContain('Unable to parse coaching feedback.');
    expect(text).toContain('Good call, keep asking.');
  });

  it('says so when coaching was not generated yet', async () => {
    const text = pdfText(await renderAudioReport({ ...base, coaching: null, metrics: null }));
    expect(text).toContain('Coaching has not been generated for this call yet.');
    expect(text).not.toContain('Measured Metrics');
  });

  it('flattens metrics into labelled rows', () => {
    expect(metricRows({ questionsAsked: 3, talkRatio: { rep: 0.4 }, skip: { deep: { x: 1 } } })).toEqual([
      { label: 'Questions asked', value: '3' },
      { label: 'Talk ratio: rep', value: '0.4' },
    ]);
  });
});

describe('metricRows with measured conversation metrics', () => {
  it('uses the same labels and values as the coaching card', async () => {
    const { describeMetrics } = await import('../../core/conversation-metrics');
    const { conversationMetrics } = await import('../understanding/metrics');
    const m = conversationMetrics([
      { role: 'user', transcript: 'Hi, what got you looking at a new roof?', timestamp: 1_000 },
      { role: 'assistant', transcript: 'A leak.', timestamp: 3_000 },
    ]);
    const rows = metricRows(m);
    expect(rows).toEqual(describeMetrics(m).map(({ label, value }) => ({ label, value })));
    expect(rows.map((r) => r.label)).toContain('Your talk time');
  });
});
