import {
  GATED_SECTIONS,
  renderCoaching,
  SECTION_KEYS,
  SECTION_TITLES,
  type CoachingDocument,
  type SectionKey,
} from '../../../core/coaching-format';
import { conversationMetrics } from '../../understanding/metrics';
import type { Coach, CoachInput, CoachResult } from './types';

export const FAKE_COACH_ID = 'fake';

/**
 * A deterministic coach for tests of the services around coaching (sessions, uploads, email):
 * it answers instantly in the spec's format with the scores it was given and the measured
 * metrics, quoting the rep's last line, so a test can assert on exact scores.
 */
export class FakeCoach implements Coach {
  readonly id = FAKE_COACH_ID;
  readonly label = 'Fixed-score coach (tests)';
  readonly calls: CoachInput[] = [];

  constructor(private readonly scores: Partial<Record<SectionKey, number>> = {}) {}

  async coach(input: CoachInput, opts: { signal?: AbortSignal } = {}): Promise<CoachResult> {
    opts.signal?.throwIfAborted();
    this.calls.push(input);
    const score = (k: SectionKey) => Math.max(0, Math.min(10, Math.round(this.scores[k] ?? 5)));
    const lastRep = [...input.transcript]
      .reverse()
      .find((e) => e.role === 'user')
      ?.transcript.trim();
    // Best follows the coaching rule: the top section everyone can read, if it scored 6 or more.
    const top = SECTION_KEYS.filter((k) => !GATED_SECTIONS.includes(k) && score(k) >= 6).sort(
      (a, b) => score(b) - score(a),
    )[0];
    const doc: CoachingDocument = {
      summary: `Fixed coaching for a ${input.stage} call of ${input.transcript.length} entries.`,
      best: top
        ? {
            title: SECTION_TITLES[top],
            score: score(top),
            content: lastRep ? `> "${lastRep}"` : 'No rep line in this call.',
          }
        : null,
      sections: SECTION_KEYS.map((key) => ({
        key,
        title: SECTION_TITLES[key],
        score: score(key),
        content: `Fixed score for ${SECTION_TITLES[key]}.`,
      })),
    };
    return {
      text: renderCoaching(doc),
      document: doc,
      metrics: conversationMetrics(input.transcript, { durationSec: input.durationSec }),
      engine: this.id,
    };
  }
}
