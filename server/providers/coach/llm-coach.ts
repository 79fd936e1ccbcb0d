import { coachingProblems, parseCoaching, renderCoaching } from '../../../core/coaching-format';
import { rubricCoaching } from './rubric/rubric';
import { LlmError, type ChatClient, type ChatMessage } from '../llm/chat-client';
import { coachingMessages, retryMessage } from './llm-prompt';
import type { Coach, CoachInput, CoachResult } from './types';
import { RUBRIC_COACH_ID } from './rubric-coach';

export interface LlmCoachOptions {
  /** Longest wait for the model's first words, and between any two pieces of its answer. */
  timeoutMs?: number;
  /** Longest time for a whole answer (slow CPU models stream steadily but take a while). */
  totalTimeoutMs?: number;
  maxTokens?: number;
  log?: { warn: (o: object, m?: string) => void };
}

/** Models often wrap the answer in a code fence or add a preamble; keep only the coaching. */
export function extractCoaching(raw: string): string {
  let text = raw.replace(/^\s*```[a-z]*\s*\n?/i, '').replace(/\n?```\s*$/i, '');
  const start = text.search(/^\s*(#{1,6}\s*|\*\*)summary\b/im);
  if (start > 0) text = text.slice(start);
  return text.trim();
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
    });
    const messages: ChatMessage[] = coachingMessages({
      stage: String(input.stage),
      transcript: input.transcript,
      personaName: input.personaName,
      metrics: rubric.metrics,
      referenceScores: rubric.scores,
    });
    let reason = '';
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
        reason =
          total.aborted && err instanceof LlmError && err.kind === 'aborted'
            ? `the answer took longer than ${totalMs} ms`
            : err instanceof Error
              ? err.message
              : String(err);
        break; // an unreachable or slow model will not do better on a second try
      }
      const text = extractCoaching(raw);
      const doc = parseCoaching(text);
      const problems = coachingProblems(doc);
      if (!problems.length && doc) {
        return { text: renderCoaching(doc), metrics: rubric.metrics, engine: this.id };
      }
      reason = `its answer did not follow the coaching format (${problems[0] ?? 'unreadable'})`;
      messages.push({ role: 'assistant', content: raw }, retryMessage(problems));
    }
    this.opts.log?.warn(
      { engine: this.id, reason },
      'language-model coaching failed; the rubric coach answered',
    );
    return {
      text: rubric.text,
      metrics: rubric.metrics,
      engine: RUBRIC_COACH_ID,
      note: `The language model could not coach this call (${reason}), so the built-in rubric coach wrote this feedback.`,
    };
  }

  async close(): Promise<void> {
    await this.client.close?.();
  }
}
