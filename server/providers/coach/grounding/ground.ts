import { SECTION_KEYS, type CoachingDocument, type SectionKey } from '../../../../core/coaching-format';
import type { CallFacts } from '../../../understanding/call-facts';
import { coachingLines } from '../../../understanding/readers/coaching-text';
import { auditCoaching, type AuditContext, type GroundingFinding, type Part } from './audit';

/**
 * The grounding check applied to coaching another engine wrote (a language model): every
 * sentence or quote the audit cannot trace to the call is dropped before a rep sees it; a section
 * left with nothing is the rubric coach's, and a Best that fails is removed.
 */
export interface Grounded {
  doc: CoachingDocument;
  /** What was dropped, and why (for the operator's log and the note). */
  dropped: GroundingFinding[];
  /** Sections that fell back to the rubric coach's text. */
  replaced: SectionKey[];
}

/** A part's text without the lines and sentences named in the findings. */
export function withoutFindings(text: string, findings: GroundingFinding[]): string {
  if (!findings.length) return text;
  const bad = new Set(findings.map((f) => f.text));
  const out: string[] = [];
  for (const line of text.split('\n')) {
    const { quotes, sentences } = coachingLines(line);
    if (quotes.some((q) => bad.has(q))) continue;
    const kept = sentences.filter((s) => !bad.has(s));
    if (!quotes.length && sentences.length && kept.length !== sentences.length) {
      if (kept.length) out.push(kept.join(' '));
      continue;
    }
    out.push(line);
  }
  return out.join('\n').trim();
}

const substantive = (text: string) => text.trim().length > 0;

/** Applies the audit to a document: drops what fails, falls back to the rubric's text where empty. */
export function groundDocument(
  doc: CoachingDocument,
  fallback: CoachingDocument,
  facts: CallFacts,
  ctx: AuditContext,
): Grounded {
  const findings = auditCoaching(doc, facts, ctx);
  const of = (part: Part) => findings.filter((f) => f.part === part);
  const replaced: SectionKey[] = [];
  const summary = withoutFindings(doc.summary, of('summary'));
  const out: CoachingDocument = {
    summary: substantive(summary) ? summary : fallback.summary,
    best: doc.best && !of('best').length ? doc.best : null,
    sections: SECTION_KEYS.map((key) => {
      const s = doc.sections.find((x) => x.key === key);
      const rubric = fallback.sections.find((x) => x.key === key)!;
      const content = s ? withoutFindings(s.content, of(key)) : '';
      if (!s || !substantive(content)) {
        replaced.push(key);
        return { ...rubric };
      }
      return { ...s, content };
    }),
  };
  // A Best that failed the audit is gone; the rubric's stands in if it has one.
  if (!out.best && fallback.best && doc.best) out.best = fallback.best;
  return { doc: out, dropped: findings, replaced };
}

/** What a section says when every sentence of its own text failed the audit. */
const PLAIN_SECTION = 'Scored from the call as a whole; nothing more specific could be said with certainty.';

/**
 * The rubric coach's own text, held to the same audit on calls its phrasing has never met: a
 * sentence, quote or Best the call does not support is taken out rather than shown, so an
 * unfamiliar call gets less said about it, never something false. On the evaluation sets nothing
 * is taken out (the audit test keeps it so).
 */
export function settleOwnText(
  doc: CoachingDocument,
  facts: CallFacts,
  ctx: AuditContext,
): { doc: CoachingDocument; dropped: GroundingFinding[] } {
  const findings = auditCoaching(doc, facts, ctx);
  if (!findings.length) return { doc, dropped: [] };
  const of = (part: Part) => findings.filter((f) => f.part === part);
  const summary = withoutFindings(doc.summary, of('summary'));
  return {
    doc: {
      summary: substantive(summary) ? summary : doc.summary,
      best: doc.best && !of('best').length ? doc.best : null,
      sections: doc.sections.map((s) => {
        const content = withoutFindings(s.content, of(s.key));
        return { ...s, content: substantive(content) ? content : PLAIN_SECTION };
      }),
    },
    dropped: findings,
  };
}
