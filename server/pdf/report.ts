import fs from 'node:fs';
import PDFDocument from 'pdfkit';
import {
  formatBlocks,
  headingPrefix,
  isLockedSection,
  scoreTone,
  type CoachingDocument,
  type ScoreTone,
  type TextBlock,
} from '../../core/coaching-format';
import { LISTENING_TARGET_PERCENT } from '../../core/constants';
import { describeMetrics, isConversationMetrics } from '../../core/conversation-metrics';
import { speakingBalance } from '../../core/speaking-balance';
import type { TranscriptEntry } from '../../core/transcript';

/** What the report needs from an audio session (the AudioSession view). */
export interface ReportInput {
  fileName: string;
  stage: string;
  uploadedAt: string;
  durationMs: number | null;
  transcript: TranscriptEntry[];
  /**
   * The stored coaching, gated for this visitor: a document, or (a legacy row) text that is not
   * in the coaching format; null before coaching.
   */
  coaching: CoachingDocument | string | null;
  metrics: unknown;
  sttEngine: { quality: 'basic' | 'enhanced' } | null;
  coachingEngine: { quality: 'basic' | 'enhanced' } | null;
  attributionIsGuess?: boolean;
}

/** The names the report gives the two sides of an uploaded call: the same as the audio page. */
export const SPEAKER_NAMES = { user: 'Rep', assistant: 'Customer' } as const;

const TONE_COLOURS: Record<ScoreTone, string> = { green: '#16a34a', yellow: '#eab308', red: '#dc2626' };
const INK = '#0f172a';
const MUTED = '#64748b';
/** The app's teal (client/src/index.css --color-brand-600) and its tints. */
const BRAND = '#0f766a';
const BRAND_DARK = '#0c4b45';
const BRAND_TINT = '#d7f2ed';
const RULE = '#e2e8f0';

/** Unicode fonts when the system has them (names and quotes in any language), else the PDF core fonts. */
const FONT_DIRS = ['/usr/share/fonts/truetype/dejavu'];
function fonts(): { regular: string; bold: string } {
  for (const dir of FONT_DIRS) {
    const regular = `${dir}/DejaVuSans.ttf`;
    const bold = `${dir}/DejaVuSans-Bold.ttf`;
    if (fs.existsSync(regular) && fs.existsSync(bold)) return { regular, bold };
  }
  return { regular: 'Helvetica', bold: 'Helvetica-Bold' };
}

export function formatClock(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}

function humanise(key: string): string {
  const words = key.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1).toLowerCase();
}

function formatValue(v: unknown): string | null {
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : v.toFixed(2).replace(/\.?0+$/, '');
  if (typeof v === 'string') return v.length > 120 ? `${v.slice(0, 117)}...` : v;
  if (typeof v === 'boolean') return v ? 'Yes' : 'No';
  if (Array.isArray(v) && v.every((x) => typeof x === 'string' || typeof x === 'number')) {
    return v.length ? v.slice(0, 8).join(', ') : null;
  }
  return null;
}

/** Flattens the measured metrics (shape owned by the coach) into label/value rows. */
export function metricRows(metrics: unknown): { label: string; value: string }[] {
  // The coach's metrics explain themselves the same way the coaching card does.
  if (isConversationMetrics(metrics))
    return describeMetrics(metrics).map(({ label, value }) => ({ label, value }));
  if (!metrics || typeof metrics !== 'object' || Array.isArray(metrics)) return [];
  const rows: { label: string; value: string }[] = [];
  for (const [key, value] of Object.entries(metrics as Record<string, unknown>)) {
    const direct = formatValue(value);
    if (direct !== null) {
      rows.push({ label: humanise(key), value: direct });
      continue;
    }
    if (value && typeof value === 'object' && !Array.isArray(value)) {
      for (const [k2, v2] of Object.entries(value as Record<string, unknown>)) {
        const nested = formatValue(v2);
        if (nested !== null)
          rows.push({ label: `${humanise(key)}: ${humanise(k2).toLowerCase()}`, value: nested });
      }
    }
  }
  return rows.slice(0, 40);
}

/**
 * A PDF being laid out: the page's text column and the drawing steps every part of the report
 * shares (room on the page, section titles, score bars, formatted text).
 */
class ReportLayout {
  readonly left: number;
  readonly width: number;

  constructor(readonly doc: PDFKit.PDFDocument) {
    this.left = doc.page.margins.left;
    this.width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  }

  /** Starts a new page unless `height` more fits on this one. */
  ensure(height: number): void {
    const doc = this.doc;
    if (doc.y + height > doc.page.height - doc.page.margins.bottom) doc.addPage();
  }

  sectionTitle(title: string): void {
    const { doc, left, width } = this;
    this.ensure(60);
    doc.moveDown(0.8);
    doc.font('bold').fontSize(14).fillColor(INK).text(title, left, doc.y, { width });
    const y = doc.y + 3;
    doc
      .moveTo(left, y)
      .lineTo(left + width, y)
      .lineWidth(1)
      .strokeColor(RULE)
      .stroke();
    doc.y = y + 8;
  }

  subheading(text: string): void {
    const { doc, left, width } = this;
    this.ensure(48);
    doc.moveDown(0.5);
    doc.font('bold').fontSize(12).fillColor(INK).text(text, left, doc.y, { width });
    doc.moveDown(0.2);
  }

  /** A muted line of explanation. */
  note(text: string, size = 10.5): void {
    this.doc.font('body').fontSize(size).fillColor(MUTED).text(text, { width: this.width });
  }

  scoreBar(score: number): void {
    const { doc, left } = this;
    this.ensure(22);
    const y = doc.y;
    const barWidth = 180;
    const colour = TONE_COLOURS[scoreTone(score)];
    doc.roundedRect(left, y, barWidth, 9, 4).fillColor('#f1f5f9').fill();
    doc
      .roundedRect(left, y, Math.max(9, (barWidth * score) / 10), 9, 4)
      .fillColor(colour)
      .fill();
    doc
      .font('bold')
      .fontSize(10)
      .fillColor(colour)
      .text(`Score: ${score}/10`, left + barWidth + 10, y - 1.5, {
        lineBreak: false,
      });
    doc.x = left;
    doc.y = y + 16;
  }

  /** Paragraphs and quotes with their bold spans (the card's formatting). */
  blocks(content: TextBlock[]): void {
    const { doc, left, width } = this;
    for (const block of content) {
      const indent = block.kind === 'quote' ? 14 : 0;
      for (const line of block.lines) {
        this.ensure(16);
        const startY = doc.y;
        const colour = block.kind === 'quote' ? '#334155' : INK;
        line.forEach((span, i) => {
          doc
            .font(span.bold ? 'bold' : 'body')
            .fontSize(10.5)
            .fillColor(colour);
          const continued = i < line.length - 1;
          // Later spans continue the same line: repeating position or width would restart it.
          if (i === 0)
            doc.text(span.text, left + indent, startY, { width: width - indent, continued, lineGap: 2 });
          else doc.text(span.text, { continued });
        });
        if (!line.length) doc.moveDown(0.5);
        if (block.kind === 'quote' && doc.y > startY) {
          // The rule is drawn per line so quotes split across pages stay marked on both.
          doc
            .moveTo(left + 4, startY)
            .lineTo(left + 4, doc.y - 2)
            .lineWidth(2)
            .strokeColor('#94a3b8')
            .stroke();
        }
      }
      doc.moveDown(0.4);
    }
  }
}

/** The header band: title, file, date, length and stage; then which engines did the work. */
function drawHeader(layout: ReportLayout, input: ReportInput): void {
  const { doc, left, width } = layout;
  doc.rect(0, 0, doc.page.width, 118).fillColor(BRAND_DARK).fill();
  doc.rect(0, 114, doc.page.width, 4).fillColor(BRAND).fill();
  doc.font('bold').fontSize(20).fillColor('#ffffff').text('Call Coaching Report', left, 34, { width });
  doc
    .font('body')
    .fontSize(11)
    .fillColor(BRAND_TINT)
    .text(input.fileName, left, doc.y + 2, { width, ellipsis: true, height: 16 });
  const uploaded = new Date(input.uploadedAt);
  const facts = [
    `Date: ${Number.isNaN(uploaded.getTime()) ? input.uploadedAt : uploaded.toISOString().slice(0, 16).replace('T', ' ')} UTC`,
    `Duration: ${input.durationMs !== null ? formatClock(input.durationMs) : 'unknown'}`,
    `Stage: ${input.stage}`,
  ];
  doc
    .fontSize(10)
    .fillColor('#ffffff')
    .text(facts.join('   |   '), left, doc.y + 4, { width });
  doc.y = 134;
  doc.x = left;
  doc.font('body').fontSize(9).fillColor(MUTED);
  // Reports name no engine (operators see them on /status): one plain line when the words may be off.
  if (input.sttEngine?.quality !== 'enhanced') doc.text('Transcript may be approximate.', { width });
  if (input.attributionIsGuess) {
    doc.text(
      'Who said what was worked out from the voices in a one-channel recording and may be imperfect.',
      { width },
    );
  }
}

/** Who talked how much, as a bar and in words. */
function drawBalance(layout: ReportLayout, transcript: TranscriptEntry[]): void {
  const { doc, left, width } = layout;
  const balance = speakingBalance(transcript);
  layout.sectionTitle('Speaker Balance');
  layout.ensure(50);
  const by = doc.y;
  const repWidth = (width * balance.userPercent) / 100;
  doc.rect(left, by, width, 16).fillColor('#e2e8f0').fill();
  if (repWidth > 0) doc.rect(left, by, repWidth, 16).fillColor(BRAND).fill();
  if (repWidth < width)
    doc
      .rect(left + repWidth, by, width - repWidth, 16)
      .fillColor('#f59e0b')
      .fill();
  doc.y = by + 22;
  doc
    .font('bold')
    .fontSize(10)
    .fillColor(INK)
    .text(
      `${SPEAKER_NAMES.user} ${balance.userPercent}% (${balance.userWords} words)   ${SPEAKER_NAMES.assistant} ${balance.personaPercent}% (${balance.personaWords} words)`,
      left,
      doc.y,
      { width },
    );
  doc
    .font('body')
    .fontSize(10)
    .fillColor(MUTED)
    .text(
      balance.goodListening
        ? `Great listening ratio! The ${SPEAKER_NAMES.assistant.toLowerCase()} did most of the talking.`
        : `Try to listen more - aim for the ${SPEAKER_NAMES.assistant.toLowerCase()} to speak ${LISTENING_TARGET_PERCENT}%+ of the time.`,
      { width },
    );
}

/** The coach's measured numbers, label and value side by side. */
function drawMetrics(layout: ReportLayout, metrics: unknown): void {
  const { doc, left, width } = layout;
  const rows = metricRows(metrics);
  if (!rows.length) return;
  layout.sectionTitle('Measured Metrics');
  for (const row of rows) {
    layout.ensure(16);
    const y = doc.y;
    doc
      .font('body')
      .fontSize(10)
      .fillColor(MUTED)
      .text(row.label, left, y, { width: width * 0.55 });
    const afterLabel = doc.y;
    doc
      .font('bold')
      .fontSize(10)
      .fillColor(INK)
      .text(row.value, left + width * 0.58, y, { width: width * 0.42 });
    doc.y = Math.max(afterLabel, doc.y) + 2;
    doc.x = left;
  }
}

/** The stored coaching document, section by section; a locked section shows its heading only. */
function drawCoaching(layout: ReportLayout, coaching: ReportInput['coaching']): void {
  layout.sectionTitle('Coaching Feedback');
  if (!coaching) {
    layout.note('Coaching has not been generated for this call yet.');
    return;
  }
  if (typeof coaching === 'string') {
    layout.note('Unable to parse coaching feedback.');
    layout.blocks(formatBlocks(coaching));
    return;
  }
  layout.subheading('Summary');
  layout.blocks(formatBlocks(coaching.summary));
  if (coaching.best) {
    layout.subheading(`Best: ${coaching.best.title}`);
    if (coaching.best.score !== null) layout.scoreBar(coaching.best.score);
    layout.blocks(formatBlocks(coaching.best.content));
  }
  for (const section of coaching.sections) {
    if (isLockedSection(section)) {
      // Not unlocked yet: the section's heading and why it is empty, never its content.
      layout.subheading(`${section.title} (locked)`);
      layout.note(
        'Unlock the full coaching results with your email on the call page, then download the report again.',
      );
      layout.doc.moveDown(0.4);
      continue;
    }
    layout.subheading(`${headingPrefix(section.score)}: ${section.title}`);
    if (section.score !== null) layout.scoreBar(section.score);
    layout.blocks(formatBlocks(section.content));
  }
}

/** Every line with its time in the recording and who said it. */
function drawTranscript(layout: ReportLayout, transcript: TranscriptEntry[]): void {
  const { doc, left, width } = layout;
  layout.sectionTitle('Transcript');
  if (!transcript.length) layout.note('No transcript.');
  const first = transcript[0]?.timestamp ?? 0;
  for (const entry of transcript) {
    layout.ensure(28);
    // Offsets into the recording are small; wall-clock times are shown relative to the first entry.
    const offset = entry.timestamp < 1e11 ? entry.timestamp : entry.timestamp - first;
    const y = doc.y;
    const rep = entry.role === 'user';
    doc
      .font('body')
      .fontSize(9)
      .fillColor(MUTED)
      .text(formatClock(offset), left, y + 1, { width: 44, lineBreak: false });
    doc
      .font('bold')
      .fontSize(10)
      .fillColor(rep ? BRAND : '#b45309')
      .text(rep ? SPEAKER_NAMES.user : SPEAKER_NAMES.assistant, left + 46, y, {
        width: 80,
        lineBreak: false,
      });
    doc
      .font('body')
      .fontSize(10)
      .fillColor(INK)
      .text(entry.transcript, left + 128, y, { width: width - 128, lineGap: 1.5 });
    doc.x = left;
    doc.moveDown(0.35);
  }
}

/** Page numbers in the footer of every page. */
function drawFooters(layout: ReportLayout): void {
  const { doc, left, width } = layout;
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const marginBottom = doc.page.margins.bottom;
    doc.page.margins.bottom = 0; // writing inside the margin must not open a new page
    doc
      .font('body')
      .fontSize(8)
      .fillColor(MUTED)
      .text(`Doorstep call coaching report  -  page ${i + 1} of ${range.count}`, left, doc.page.height - 36, {
        width,
        align: 'center',
        lineBreak: false,
      });
    doc.page.margins.bottom = marginBottom;
  }
}

/** Renders the call report (header, balance, metrics, scored coaching sections, timed transcript). */
export function renderAudioReport(input: ReportInput): Promise<Buffer> {
  const font = fonts();
  const doc = new PDFDocument({
    size: 'A4',
    margins: { top: 56, bottom: 60, left: 56, right: 56 },
    bufferPages: true,
    info: {
      Title: `Call coaching report - ${input.fileName}`,
      Author: 'Doorstep',
      Subject: 'Sales call coaching',
    },
  });
  doc.registerFont('body', font.regular);
  doc.registerFont('bold', font.bold);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const layout = new ReportLayout(doc);
  drawHeader(layout, input);
  drawBalance(layout, input.transcript);
  drawMetrics(layout, input.metrics);
  drawCoaching(layout, input.coaching);
  drawTranscript(layout, input.transcript);
  drawFooters(layout);
  doc.end();
  return done;
}
