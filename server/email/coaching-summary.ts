import {
  formatBlocks,
  headingPrefix,
  overallScore,
  scoreTone,
  type CoachingDocument,
  type ScoreTone,
  type TextBlock,
} from '../../core/coaching-format';
import { SCORE_STRENGTH_MIN } from '../../core/constants';
import { escapeHtml, safeHref } from './html';
import type { KeyMetric } from './key-metrics';

/**
 * What an email carries comes only from the coached session and the server: no text the form's
 * sender wrote (not the name, which could say "Claim your prize at evil.example"), so the form
 * cannot carry someone else's message to an inbox.
 */
export interface SummaryEmailInput {
  stage: string | null;
  personaName: string | null;
  doc: CoachingDocument | null;
  metrics: KeyMetric[];
  /** Link back to the app (PUBLIC_URL). */
  appUrl: string;
  /** Link that reopens this role-play's transcript and coaching (PUBLIC_URL/?session=<id>). */
  sessionUrl?: string;
}

export interface RenderedEmail {
  subject: string;
  text: string;
  html: string;
}

interface ScoredItem {
  title: string;
  label: string;
  score: number | null;
  content: string;
}

interface Highlight {
  title: string;
  score: number | null;
  /** The section's advice, first paragraph, as plain text. */
  advice: string;
  /** Lines the coaching quotes as better things to say ('>' lines). */
  betterLines: string[];
}

/** The same for everyone: the name in the form is never written into the email. */
export const GREETING = 'Hi there,';

const MAX_STRENGTHS = 3;
const MAX_IMPROVEMENTS = 3;

const plain = (block: TextBlock) => block.lines.map((line) => line.map((s) => s.text).join('')).join(' ');

function highlight(item: ScoredItem): Highlight {
  const blocks = formatBlocks(item.content);
  const paragraph = blocks.find((b) => b.kind === 'paragraph');
  const betterLines = blocks
    .filter((b) => b.kind === 'quote')
    .flatMap((b) =>
      b.lines.map((line) =>
        line
          .map((s) => s.text)
          .join('')
          .trim(),
      ),
    )
    .filter(Boolean);
  return { title: item.title, score: item.score, advice: paragraph ? plain(paragraph) : '', betterLines };
}

/** Every scored item in reading order: Best, then the six sections. */
function scoredItems(doc: CoachingDocument): ScoredItem[] {
  const items: ScoredItem[] = [];
  if (doc.best) {
    items.push({
      title: doc.best.title,
      label: `Best: ${doc.best.title}`,
      score: doc.best.score,
      content: doc.best.content,
    });
  }
  for (const s of doc.sections) {
    items.push({
      title: s.title,
      label: `${headingPrefix(s.score)}: ${s.title}`,
      score: s.score,
      content: s.content,
    });
  }
  return items;
}

/** Strengths: the Best moment, then sections scored 8+, highest first; at least the top section. */
export function topStrengths(doc: CoachingDocument): Highlight[] {
  const sections = doc.sections.filter((s) => s.score !== null).sort((a, b) => b.score! - a.score!);
  const strong = sections.filter((s) => s.score! >= SCORE_STRENGTH_MIN);
  const picked: ScoredItem[] = [];
  if (doc.best)
    picked.push({ title: doc.best.title, label: '', score: doc.best.score, content: doc.best.content });
  for (const s of strong.length ? strong : sections.slice(0, 1)) {
    picked.push({ title: s.title, label: '', score: s.score, content: s.content });
  }
  return picked.slice(0, MAX_STRENGTHS).map(highlight);
}

/** Improvements: sections below 8, lowest first, each with its better lines to say. */
export function topImprovements(doc: CoachingDocument): Highlight[] {
  return doc.sections
    .filter((s) => s.score !== null && s.score < SCORE_STRENGTH_MIN)
    .sort((a, b) => a.score! - b.score!)
    .slice(0, MAX_IMPROVEMENTS)
    .map((s) => highlight({ title: s.title, label: '', score: s.score, content: s.content }));
}

const healthNote = (healthy: boolean | null) =>
  healthy === null ? '' : healthy ? ' (on target)' : ' (work on this)';

const scoreText = (score: number | null) => (score === null ? 'not scored' : `${score}/10`);

export function renderCoachingSummaryEmail(input: SummaryEmailInput): RenderedEmail {
  const doc = input.doc;
  const overall = doc ? overallScore(doc) : null;
  const subject =
    overall !== null
      ? `Your Doorstep coaching summary: ${overall}/10 overall`
      : 'Your Doorstep coaching summary';
  return { subject, text: renderText(input, overall), html: renderHtml(input, overall) };
}

function intro(input: SummaryEmailInput): string {
  const what = input.stage ? `your ${input.stage} role-play` : 'your role-play';
  const withWhom = input.personaName ? ` with ${input.personaName}` : '';
  return input.doc
    ? `Here is the coaching summary for ${what}${withWhom}.`
    : `Thanks for practising. We could not find coaching for ${what} yet, so there are no scores in this email. Run another role-play to get scored feedback.`;
}

function renderText(input: SummaryEmailInput, overall: number | null): string {
  const out: string[] = [GREETING, '', intro(input), ''];
  const doc = input.doc;
  if (doc) {
    if (overall !== null) out.push(`Overall: ${overall}/10`, '');
    out.push('YOUR SCORES');
    for (const item of scoredItems(doc)) out.push(`- ${item.label}: ${scoreText(item.score)}`);
    out.push('');
  }
  if (input.metrics.length) {
    out.push('KEY CONVERSATION METRICS');
    for (const m of input.metrics) out.push(`- ${m.label}: ${m.value}${healthNote(m.healthy)}`);
    out.push('');
  }
  if (doc) {
    if (doc.summary.trim()) {
      out.push('SUMMARY', formatBlocks(doc.summary).map(plain).join('\n\n'), '');
    }
    const strengths = topStrengths(doc);
    if (strengths.length) {
      out.push('TOP STRENGTHS');
      strengths.forEach((h, i) => {
        out.push(`${i + 1}. ${h.title} (${scoreText(h.score)})`);
        if (h.advice) out.push(`   ${h.advice}`);
      });
      out.push('');
    }
    const improvements = topImprovements(doc);
    if (improvements.length) {
      out.push('TOP IMPROVEMENTS');
      improvements.forEach((h, i) => {
        out.push(`${i + 1}. ${h.title} (${scoreText(h.score)})`);
        if (h.advice) out.push(`   ${h.advice}`);
        if (h.betterLines.length) {
          out.push('   Better lines to say:');
          for (const line of h.betterLines) out.push(`   > ${line}`);
        }
      });
      out.push('');
    }
  }
  if (input.sessionUrl) out.push(`See this call again: ${input.sessionUrl}`);
  out.push(`Practise again: ${input.appUrl}`, '', '- Doorstep');
  return out.join('\n') + '\n';
}

const TONE_STYLE: Record<ScoreTone, string> = {
  green: 'background:#d1fae5;color:#065f46;border:1px solid #a7f3d0',
  yellow: 'background:#fef3c7;color:#78350f;border:1px solid #fde68a',
  red: 'background:#fee2e2;color:#991b1b;border:1px solid #fecaca',
};

function scoreBadge(score: number | null): string {
  if (score === null) return '<span style="color:#64748b">not scored</span>';
  return `<span data-score="${score}" style="display:inline-block;padding:2px 10px;border-radius:999px;font-weight:600;font-size:13px;${TONE_STYLE[scoreTone(score)]}">${score}/10</span>`;
}

function highlightHtml(h: Highlight, withLines: boolean): string {
  const lines =
    withLines && h.betterLines.length
      ? `<p style="margin:8px 0 4px;font-weight:600;color:#0f172a">Better lines to say:</p>` +
        h.betterLines
          .map(
            (l) =>
              `<blockquote style="margin:4px 0;padding:6px 12px;border-left:3px solid #2563eb;background:#eff6ff;color:#1e3a8a">${escapeHtml(l)}</blockquote>`,
          )
          .join('')
      : '';
  return `<li style="margin:0 0 14px"><strong>${escapeHtml(h.title)}</strong> ${scoreBadge(h.score)}${
    h.advice ? `<div style="margin-top:4px;color:#334155">${escapeHtml(h.advice)}</div>` : ''
  }${lines}</li>`;
}

function renderHtml(input: SummaryEmailInput, overall: number | null): string {
  const doc = input.doc;
  const href = escapeHtml(safeHref(input.appUrl));
  const h2 = (t: string) =>
    `<h2 style="font-size:16px;margin:24px 0 8px;color:#0f172a">${escapeHtml(t)}</h2>`;
  const parts: string[] = [
    `<p style="margin:0 0 12px">${escapeHtml(GREETING)}</p>`,
    `<p style="margin:0 0 12px">${escapeHtml(intro(input))}</p>`,
  ];
  if (doc) {
    if (overall !== null) {
      parts.push(`<p style="margin:0 0 12px;font-size:18px"><strong>Overall: ${overall}/10</strong></p>`);
    }
    parts.push(
      h2('Your scores'),
      `<table role="presentation" cellpadding="6" cellspacing="0" style="border-collapse:collapse;width:100%">${scoredItems(
        doc,
      )
        .map(
          (item) =>
            `<tr style="border-bottom:1px solid #e2e8f0"><td>${escapeHtml(item.label)}</td><td style="text-align:right">${scoreBadge(item.score)}</td></tr>`,
        )
        .join('')}</table>`,
    );
  }
  if (input.metrics.length) {
    parts.push(
      h2('Key conversation metrics'),
      `<ul style="padding-left:20px;margin:0">${input.metrics
        .map(
          (m) =>
            `<li>${escapeHtml(m.label)}: <strong>${escapeHtml(m.value)}</strong>${
              m.healthy === null
                ? ''
                : `<span style="color:${m.healthy ? '#047857' : '#b45309'}">${escapeHtml(healthNote(m.healthy))}</span>`
            }</li>`,
        )
        .join('')}</ul>`,
    );
  }
  if (doc) {
    if (doc.summary.trim()) {
      parts.push(
        h2('Summary'),
        formatBlocks(doc.summary)
          .map((b) => `<p style="margin:0 0 8px;color:#334155">${escapeHtml(plain(b))}</p>`)
          .join(''),
      );
    }
    const strengths = topStrengths(doc);
    if (strengths.length) {
      parts.push(
        h2('Top strengths'),
        `<ol style="padding-left:20px;margin:0">${strengths.map((h) => highlightHtml(h, false)).join('')}</ol>`,
      );
    }
    const improvements = topImprovements(doc);
    if (improvements.length) {
      parts.push(
        h2('Top improvements'),
        `<ol style="padding-left:20px;margin:0">${improvements.map((h) => highlightHtml(h, true)).join('')}</ol>`,
      );
    }
  }
  if (input.sessionUrl) {
    parts.push(
      `<p style="margin:20px 0 0"><a href="${escapeHtml(safeHref(input.sessionUrl))}" style="color:#0f766a;font-weight:600">See this call's transcript and coaching again</a></p>`,
    );
  }
  parts.push(
    `<p style="margin:28px 0 8px"><a href="${href}" style="display:inline-block;background:#2563eb;color:#ffffff;padding:10px 18px;border-radius:8px;text-decoration:none;font-weight:600">Practise again in Doorstep</a></p>`,
  );
  if (href !== '#') parts.push(`<p style="margin:0;color:#64748b;font-size:12px">Or open ${href}</p>`);
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>${escapeHtml(
    'Your Doorstep coaching summary',
  )}</title></head>
<body style="margin:0;padding:0;background:#f8fafc;font-family:Arial,Helvetica,sans-serif;font-size:14px;line-height:1.5;color:#0f172a">
<div style="max-width:600px;margin:0 auto;padding:24px;background:#ffffff">
<h1 style="font-size:20px;margin:0 0 16px">Doorstep coaching summary</h1>
${parts.join('\n')}
</div></body></html>
`;
}
