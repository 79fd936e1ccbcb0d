import { SCORE_MID_MIN, SCORE_STRENGTH_MIN } from './constants';

/**
 * The coaching text format (spec §3), interpreted line by line:
 *   **Summary**                      (a 'Summary' heading; '#', '##' or bold all accepted)
 *   **Best: {title}**                then 'Score: N/10' and content
 *   **To Improve: Empathy and Connection** / Needs Analysis / Exploring Options /
 *   Objection Handling / Closing      each with 'Score: N/10' and content
 *   **Follow-Up**                    with 'Score: N/10' and content
 *   '---' lines are ignored.
 */
export const SECTION_KEYS = [
  'empathy',
  'needsAnalysis',
  'exploringOptions',
  'objectionHandling',
  'closing',
  'followUp',
] as const;
export type SectionKey = (typeof SECTION_KEYS)[number];

export const SECTION_TITLES: Record<SectionKey, string> = {
  empathy: 'Empathy and Connection',
  needsAnalysis: 'Needs Analysis',
  exploringOptions: 'Exploring Options',
  objectionHandling: 'Objection Handling',
  closing: 'Closing',
  followUp: 'Follow-Up',
};

/** The sections hidden until the email gate unlocks (spec §2). */
export const GATED_SECTIONS: readonly SectionKey[] = ['objectionHandling', 'closing', 'followUp'];

export interface CoachingSection {
  key: SectionKey;
  title: string;
  score: number | null;
  content: string;
  /** A gated section withheld until the session is unlocked (its heading and the locked line). */
  locked?: true;
}

export interface CoachingBest {
  title: string;
  score: number | null;
  content: string;
}

export interface CoachingDocument {
  summary: string;
  best: CoachingBest | null;
  sections: CoachingSection[];
}

export type ScoreTone = 'green' | 'yellow' | 'red';

export function scoreTone(score: number): ScoreTone {
  if (score >= SCORE_STRENGTH_MIN) return 'green';
  if (score >= SCORE_MID_MIN) return 'yellow';
  return 'red';
}

export function headingPrefix(score: number | null): 'Strength' | 'To Improve' {
  return score !== null && score >= SCORE_STRENGTH_MIN ? 'Strength' : 'To Improve';
}

function sectionKeyFromTitle(title: string): SectionKey | null {
  const t = title.toLowerCase();
  if (t.includes('empathy') || t.includes('connection') || t.includes('rapport')) return 'empathy';
  if (t.includes('needs')) return 'needsAnalysis';
  if (t.includes('option')) return 'exploringOptions';
  if (t.includes('objection')) return 'objectionHandling';
  if (t.includes('follow')) return 'followUp';
  if (t.includes('clos')) return 'closing';
  return null;
}

const stripBold = (s: string) => s.replace(/^\*\*(.*)\*\*:?$/, '$1').trim();

type Target = { kind: 'summary' } | { kind: 'best' } | { kind: 'section'; key: SectionKey } | null;

/** Parses coaching text; returns null when nothing recognisable is present (the card's parse-failure state). */
export function parseCoaching(text: string | null | undefined): CoachingDocument | null {
  if (!text || typeof text !== 'string') return null;
  const doc: CoachingDocument = { summary: '', best: null, sections: [] };
  const sectionsByKey = new Map<SectionKey, CoachingSection>();
  let target: Target = null;
  const buffers = new Map<string, string[]>();
  const bufferFor = (t: Exclude<Target, null>) => {
    const id = t.kind === 'section' ? t.key : t.kind;
    let b = buffers.get(id);
    if (!b) buffers.set(id, (b = []));
    return b;
  };
  let found = false;

  for (const rawLine of text.replace(/\r\n?/g, '\n').split('\n')) {
    const line = rawLine.trim();
    if (/^-{3,}$/.test(line)) continue;

    const heading = line.replace(/^#{1,6}\s*/, '');
    const isHeadingLine = /^#{1,6}\s/.test(line) || /^\*\*.+\*\*:?$/.test(line);
    if (isHeadingLine) {
      const inner = stripBold(heading);
      if (/^summary\b/i.test(inner)) {
        target = { kind: 'summary' };
        found = true;
        continue;
      }
      const best = inner.match(/^best\s*[:\-–]\s*(.+)$/i);
      if (best) {
        doc.best = { title: best[1].trim(), score: null, content: '' };
        target = { kind: 'best' };
        found = true;
        continue;
      }
      const labelled = inner.match(/^(?:to improve|strength|improve)\s*[:\-–]\s*(.+)$/i);
      const key = sectionKeyFromTitle(labelled ? labelled[1] : inner);
      if (key && (labelled || /^follow[\s-]?up/i.test(inner))) {
        if (!sectionsByKey.has(key)) {
          const section: CoachingSection = { key, title: SECTION_TITLES[key], score: null, content: '' };
          sectionsByKey.set(key, section);
        }
        target = { kind: 'section', key };
        found = true;
        continue;
      }
    }

    const score = line.match(/^\**\s*score\s*:?\s*\**\s*(\d{1,2})(?:\.\d+)?\s*\/\s*10\b/i);
    if (score && target && target.kind !== 'summary') {
      const value = Math.max(0, Math.min(10, Number(score[1])));
      if (target.kind === 'best' && doc.best && doc.best.score === null) {
        doc.best.score = value;
        continue;
      }
      if (target.kind === 'section') {
        const s = sectionsByKey.get(target.key)!;
        if (s.score === null) {
          s.score = value;
          continue;
        }
      }
    }
    if (target) bufferFor(target).push(rawLine.replace(/\s+$/, ''));
  }

  if (!found) return null;
  const joined = (id: string) => trimBlankLines(buffers.get(id) ?? []).join('\n');
  doc.summary = joined('summary');
  if (doc.best) doc.best.content = joined('best');
  for (const key of SECTION_KEYS) {
    const s = sectionsByKey.get(key);
    if (s) {
      s.content = joined(key);
      if (isLockedSection(s)) s.locked = true;
      doc.sections.push(s);
    }
  }
  return doc;
}

function trimBlankLines(lines: string[]): string[] {
  let start = 0;
  let end = lines.length;
  while (start < end && lines[start].trim() === '') start++;
  while (end > start && lines[end - 1].trim() === '') end--;
  return lines.slice(start, end).map((l) => l.trim());
}

/** Problems that make a coaching text incomplete (used to validate an LLM's answer). Empty = valid. */
export function coachingProblems(doc: CoachingDocument | null): string[] {
  if (!doc) return ['The text has no Summary heading or coaching sections.'];
  const problems: string[] = [];
  if (!doc.summary.trim()) problems.push('The Summary is missing or empty.');
  // No Best is allowed: a call with no strong moment in an unlocked section has none.
  if (doc.best && doc.best.score === null) problems.push("The Best section has no 'Score: N/10' line.");
  for (const key of SECTION_KEYS) {
    const s = doc.sections.find((x) => x.key === key);
    if (!s) problems.push(`The ${SECTION_TITLES[key]} section is missing.`);
    else if (s.score === null) problems.push(`The ${SECTION_TITLES[key]} section has no 'Score: N/10' line.`);
    else if (!s.content.trim()) problems.push(`The ${SECTION_TITLES[key]} section has no content.`);
  }
  return problems;
}

/** Renders a document in the canonical text format; parseCoaching(renderCoaching(d)) round-trips. */
export function renderCoaching(doc: CoachingDocument): string {
  const parts: string[] = ['**Summary**', doc.summary.trim(), '', '---', ''];
  if (doc.best) {
    parts.push(`**Best: ${doc.best.title}**`);
    if (doc.best.score !== null) parts.push(`Score: ${doc.best.score}/10`);
    parts.push(doc.best.content.trim(), '', '---', '');
  }
  for (const s of doc.sections) {
    parts.push(s.key === 'followUp' ? '**Follow-Up**' : `**To Improve: ${SECTION_TITLES[s.key]}**`);
    if (s.score !== null) parts.push(`Score: ${s.score}/10`);
    parts.push(s.content.trim(), '', '---', '');
  }
  while (parts.length && (parts[parts.length - 1] === '' || parts[parts.length - 1] === '---')) parts.pop();
  return parts.join('\n') + '\n';
}

/** Mean of the six section scores, one decimal; null when none is scored. */
export function overallScore(doc: CoachingDocument): number | null {
  const scores = doc.sections.map((s) => s.score).filter((s): s is number => s !== null);
  if (!scores.length) return null;
  return Math.round((scores.reduce((a, b) => a + b, 0) / scores.length) * 10) / 10;
}

/** Inline formatting inside a section: **bold**, '>' quote lines, blank-line paragraphs. */
export interface TextSpan {
  text: string;
  bold: boolean;
}
export interface TextBlock {
  kind: 'paragraph' | 'quote';
  lines: TextSpan[][];
}

export function parseInline(line: string): TextSpan[] {
  const spans: TextSpan[] = [];
  const re = /\*\*(.+?)\*\*/g;
  let last = 0;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line))) {
    if (m.index > last) spans.push({ text: line.slice(last, m.index), bold: false });
    spans.push({ text: m[1], bold: true });
    last = m.index + m[0].length;
  }
  if (last < line.length) spans.push({ text: line.slice(last), bold: false });
  return spans;
}

export function formatBlocks(content: string): TextBlock[] {
  const blocks: TextBlock[] = [];
  let current: TextBlock | null = null;
  for (const raw of content.split('\n')) {
    const line = raw.trim();
    if (!line) {
      current = null;
      continue;
    }
    const isQuote = line.startsWith('>');
    const kind = isQuote ? 'quote' : 'paragraph';
    const text = isQuote ? line.replace(/^>\s?/, '') : line;
    if (!current || current.kind !== kind) {
      current = { kind, lines: [] };
      blocks.push(current);
    }
    current.lines.push(parseInline(text));
  }
  return blocks;
}

/** What a gated section carries until the session is unlocked: its heading and this line. */
export const LOCKED_SECTION_TEXT = 'Locked. Enter your email to unlock the full coaching results.';

/** Whether a parsed section is the locked stand-in rather than real coaching. */
export function isLockedSection(section: Pick<CoachingSection, 'key' | 'content' | 'score'>): boolean {
  return (
    GATED_SECTIONS.includes(section.key) &&
    section.score === null &&
    section.content.trim() === LOCKED_SECTION_TEXT
  );
}

/**
 * The coaching text as a visitor who has not unlocked the session may receive it: every
 * section stays, but the gated ones (Objection Handling, Closing, Follow-Up) keep only their
 * heading and the locked line; their scores and advice never leave the server. Text that is
 * not in the coaching format has no sections to withhold and is returned as it is.
 */
export function withholdGatedSections(text: string | null): string | null {
  const doc = parseCoaching(text);
  if (!doc) return text;
  const sections = doc.sections.map((s) =>
    GATED_SECTIONS.includes(s.key) ? { ...s, score: null, content: LOCKED_SECTION_TEXT } : s,
  );
  return renderCoaching({ ...doc, sections });
}

/** The coaching text a response may carry for a session in this gate state. */
export function coachingForGate(text: string | null, unlocked: boolean): string | null {
  return unlocked ? text : withholdGatedSections(text);
}
