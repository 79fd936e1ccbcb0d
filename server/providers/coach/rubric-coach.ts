import { rubricCoaching } from './rubric/rubric';
import type { Coach, CoachInput, CoachResult } from './types';

export const RUBRIC_COACH_ID = 'rubric';
export const RUBRIC_COACH_LABEL = 'Built-in rubric coach';

/** The embedded offline coach: behaviours detected with NLP, scored by a rubric. */
export class RubricCoach implements Coach {
  readonly id = RUBRIC_COACH_ID;
  readonly label = RUBRIC_COACH_LABEL;
  /** rubricCoaching measures conversationMetrics over this very input. */
  readonly measuresMetrics = true;

  async coach(input: CoachInput, opts: { signal?: AbortSignal } = {}): Promise<CoachResult> {
    opts.signal?.throwIfAborted();
    const r = rubricCoaching({
      stage: String(input.stage),
      transcript: input.transcript,
      durationSec: input.durationSec,
      personaName: input.personaName,
      oneVoice: input.oneVoice,
      source: input.source,
      input: input.input,
      recognition: input.recognition,
    });
    return { text: r.text, document: r.doc, metrics: r.metrics, engine: this.id };
  }
}
