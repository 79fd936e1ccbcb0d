import {
  coachingProblems,
  GATED_SECTIONS,
  parseCoaching,
  renderCoaching,
  SECTION_KEYS,
  SECTION_TITLES,
  type CoachingDocument,
  type SectionKey,
} from '../../../core/coaching-format';
import { normalizeText } from '../../understanding/text/normalise';
import { coachingFromReply, quotedLinesOf } from '../../understanding/readers/coaching-text';
import { rubricCoaching, type RubricResult } from './rubric/rubric';
import { LlmError, type ChatClient, type ChatMessage } from '../llm/chat-client';
import { coachingMessages, retryMessage } from './llm-prompt';
import type { Coach, CoachInput, CoachResult } from './types';
import { RUBRIC_COACH_ID } from './rubric-coach';
import { BEST_MIN_SCORE, questionFigures, statedFigures } from './rubric/summary';
import { groundDocument } from './grounding/ground';
import { callView } from './rubric/view';

export interface LlmCoachOptions {
  /** Longest wait for the model's first words, and between any two pieces of its answer. */
  timeoutMs?: number;
  /** Longest time for a whole answer (slow CPU models stream steadily but take a while). */
  totalTimeoutMs?: number;
  maxTokens?: number;
  log?: { warn: (o: object, m?: string) => void };
}

/** Models often wrap the answer in a code fence or add a preamble; keep only the coaching. */
export const extractCoaching = coachingFromReply;

/** What the rubric found, per section, for the model to weigh: its score and the rep's lines. */
export function rubricEvidence(r: RubricResult): string[] {
  if (r.degenerate === 'short')
    return ['The rep said too little in this call to judge; say so and score every section 0-4.'];
  const a = r.analysis;
  const findings = {
    empathy: a.empathy,
    needsAnalysis: a.needs,
    exploringOptions: a.options,
    objectionHandling: a.objections,
    closing: a.closing,
    followUp: a.followUp,
  };
  const out: string[] = [];
  for (const key of SECTION_KEYS) {
    const f = findings[key];
    const good = [...f.evidence].sort((x, y) => y.strength - x.strength).slice(0, 2);
    const bad = [...f.missteps].sort((x, y) => y.strength - x.strength).slice(0, 1);
    out.push(
      `- ${SECTION_TITLES[key]}: ${[...f.positives, ...f.gaps.map((g) => `gap: ${g}`)].join('; ') || 'nothing found'}` +
        good.map((e) => ` | rep (${e.label}): "${e.quote}"`).join('') +
        bad.map((e) => ` | rep misstep (${e.label}): "${e.quote}"`).join(''),
    );
  }
  if (a.objections.raised === 0)
    out.push('- No objection was raised: Objection Handling was not tested (score 5-6 and say so).');
  return out;
}

/**
 * Best follows the coaching rule: a moment from a section everyone can read (not one behind the
 * email gate) that scored at least 6. A Best naming a gated section, or none of the open sections
 * scoring 6 or more, is dropped; otherwise it carries the top open score.
 */
export function settleBest(doc: CoachingDocument): void {
  if (!doc.best) return;
  const open = doc.sections.filter((s) => !GATED_SECTIONS.includes(s.key));
  const top = Math.max(0, ...open.map((s) => s.score ?? 0));
  const namesGated = GATED_SECTIONS.some((k) =>
    `${doc.best!.title}\n${doc.best!.content}`.includes(SECTION_TITLES[k]),
  );
  if (top < BEST_MIN_SCORE || namesGated) doc.best = null;
  else doc.best.score = top;
}

/** Replaces unusable sections with the rubric's; returns the keys it replaced. */
function mendSections(doc: CoachingDocument, rubric: CoachingDocument, repText: string): SectionKey[] {
  const replaced: SectionKey[] = [];
  for (const key of SECTION_KEYS) {
    const s = doc.sections.find((x) => x.key === key);
    const quotes = quotedLinesOf(s?.content ?? '');
    const ok =
      s &&
      s.score !== null &&
      Number.isInteger(s.score) &&
      s.content.trim() &&
      quotes.every((q) => !q || repText.includes(q));
    if (ok) continue;
    const fallback = rubric.sections.find((x) => x.key === key)!;
    if (s) Object.assign(s, { score: fallback.score, content: fallback.content });
    else doc.sections.push({ ...fallback });
    replaced.push(key);
  }
  doc.sections.sort((x, y) => SECTION_KEYS.indexOf(x.key) - SECTION_KEYS.indexOf(y.key));
  return replaced;
}

/**
 * Coaching by a language model given the transcript and the measured metrics. Its answer is
 * checked against the spec's format and re-asked once; if it still fails (or the model is
 * unreachable or slow), the rubric engine answers and the result says so in `note`.
 */
export class LlmCoach implements Coach {
  readonly id: string;
  readonly label: string;

  constructor(
    private readonly client: ChatClient,
    private readonly opts: LlmCoachOptions = {},
  ) {
    this.id = `llm:${client.id}`;
    this.label = `Language-model coach (${client.model})`;
  }

  async coach(input: CoachInput, opts: { signal?: AbortSignal } = {}): Promise<CoachResult> {
    const rubric = rubricCoaching({
      stage: String(input.stage),
      transcript: input.transcript,
      durationSec: input.durationSec,
      personaName: input.personaName,
      oneVoice: input.oneVoice,
      source: input.source,
      input: input.input,
      recognition: input.recognition,
    });
    const messages: ChatMessage[] = coachingMessages({
      stage: String(input.stage),
      transcript: input.transcript,
      personaName: input.personaName,
      metrics: rubric.metrics,
      referenceScores: rubric.scores,
      evidence: rubricEvidence(rubric),
      source: input.source,
      input: input.input,
      recognition: input.recognition,
      questions: questionFigures(rubric.analysis),
    });
    const ctx = { view: callView(input), figures: statedFigures(rubric.analysis) };
    const repText = normalizeText(
      input.transcript
        .filter((e) => e.role === 'user')
        .map((e) => e.transcript)
        .join(' '),
    );
    // `reason` goes to the log; `shownReason` goes to the rep, without hosts, paths or server replies.
    let reason = '';
    let shownReason = '';
    for (let attempt = 0; attempt < 2; attempt++) {
      let raw = '';
      const totalMs = this.opts.totalTimeoutMs ?? 300_000;
      const total = AbortSignal.timeout(totalMs);
      try {
        // Streamed, so a slow but working model is judged by its progress, not its length.
        for await (const piece of this.client.streamChat({
          messages,
          signal: opts.signal ? AbortSignal.any([opts.signal, total]) : total,
          timeoutMs: this.opts.timeoutMs ?? 60_000,
          temperature: 0.3,
          maxTokens: this.opts.maxTokens ?? 1600,
        })) {
          raw += piece;
        }
      } catch (err) {
        if (opts.signal?.aborted) throw err;
        const tooLong = total.aborted && err instanceof LlmError && err.kind === 'aborted';
        reason = tooLong
          ? `the answer took longer than ${totalMs} ms`
          : err instanceof Error
            ? err.message
            : String(err);
        shownReason = tooLong ? reason : plainFailure(err);
        break; // an unreachable or slow model will not do better on a second try
      }
      const text = extractCoaching(raw);
      const doc = parseCoaching(text);
      // A section the model answered badly (missing, unscored, empty, or quoting words the rep
      // never said) is replaced by the rubric's; the rest of the model's coaching stands.
      const mended = doc && doc.summary.trim() ? mendSections(doc, rubric.doc, repText) : [];
      const problems = coachingProblems(doc);
      if (!problems.length && doc && mended.length <= 3) {
        settleBest(doc);
        // Every claim the model made is checked against the call; what fails is dropped.
        const grounded = groundDocument(doc, rubric.doc, rubric.facts, ctx);
        if (grounded.dropped.length)
          this.opts.log?.warn(
            { engine: this.id, dropped: grounded.dropped.map((d) => `${d.part}: ${d.problem}`) },
            'language-model coaching stated things the call does not support; they were dropped',
          );
        const replaced = [...new Set([...mended, ...grounded.replaced])];
        return {
          text: renderCoaching(grounded.doc),
          document: grounded.doc,
          metrics: rubric.metrics,
          engine: this.id,
          ...(replaced.length
            ? {
                note: `The language model's ${replaced.map((k) => SECTION_TITLES[k]).join(', ')} ${replaced.length === 1 ? 'section was' : 'sections were'} unusable, so the built-in rubric coach wrote ${replaced.length === 1 ? 'it' : 'them'}.`,
              }
            : {}),
        };
      }
      reason = `its answer did not follow the coaching format (${problems[0] ?? 'unreadable'})`;
      shownReason = reason;
      messages.push({ role: 'assistant', content: raw }, retryMessage(problems));
    }
    this.opts.log?.warn(
      { engine: this.id, reason },
      'language-model coaching failed; the rubric coach answered',
    );
    return {
      text: rubric.text,
      document: rubric.doc,
      metrics: rubric.metrics,
      engine: RUBRIC_COACH_ID,
      note: `The language model could not coach this call (${shownReason}), so the built-in rubric coach wrote this feedback.`,
    };
  }

  async close(): Promise<void> {
    await this.client.close?.();
  }
}

/**
 * Why the model failed, in words a rep may read: an error's own text can carry the model's host,
 * its file path or whatever its server answered, which belong in the operator's log only.
 */
function plainFailure(err: unknown): string {
  if (!(err instanceof LlmError)) return 'it failed';
  switch (err.kind) {
    case 'timeout':
    case 'aborted':
    case 'bad-response':
      return err.message; // fixed sentences that name nothing on the server
    case 'http':
      return `it answered with an error${err.status ? ` (${err.status})` : ''}`;
    case 'network':
      return 'it could not be reached';
    case 'model-missing':
      return 'its model is not installed on this server';
    case 'runtime':
      return 'it could not run';
  }
}
