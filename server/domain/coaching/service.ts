import type { ConversationMetrics } from '../../../core/conversation-metrics';
import { conversationMetrics } from '../../understanding/metrics';
import { finalEntries, type TranscriptEntry } from '../../../core/transcript';
import type { ServedBy } from '../../../core/engines';
import type { AppContext } from '../../context';
import type { Coach } from '../../providers/coach/types';
import type { CoachContext } from './context';

export interface CoachTranscriptInput {
  stage: string;
  transcript: TranscriptEntry[];
  durationSec?: number;
  personaName?: string;
  /** How the call reached the coach (role-play or recording, typed or spoken, recognition). */
  context?: CoachContext;
}

export interface CoachTranscriptResult {
  coaching: string;
  metrics: ConversationMetrics;
  /** Engine id that wrote the text. */
  engine: string;
  /** Set when a fallback answered (e.g. the LLM failed and the rubric coach stepped in). */
  note?: string;
}

/**
 * Coaching for any transcript (role-play or recording). Metrics are always measured from the
 * final entries, so every engine's answer comes with the same numbers: here, or by the coach
 * when it says it measures them (the worker-thread pool, off the event loop).
 */
export async function coachTranscript(
  coach: Coach,
  input: CoachTranscriptInput,
  opts: { signal?: AbortSignal } = {},
): Promise<CoachTranscriptResult> {
  const transcript = finalEntries(input.transcript);
  const durationSec =
    input.durationSec !== undefined && Number.isFinite(input.durationSec) && input.durationSec > 0
      ? input.durationSec
      : undefined;
  const result = await coach.coach(
    { stage: input.stage, transcript, durationSec, personaName: input.personaName, ...input.context },
    opts,
  );
  return {
    coaching: result.text,
    // A coach that measured them (the worker-thread pool) saves the event loop the same work.
    metrics:
      coach.measuresMetrics && result.metrics
        ? (result.metrics as ConversationMetrics)
        : conversationMetrics(transcript, { durationSec }),
    engine: result.engine,
    ...(result.note ? { note: result.note } : {}),
  };
}

/**
 * The engine that wrote a coaching text, as stored and shown beside it. When a fallback answered
 * (the LLM failed and the rubric coach stepped in) it is named, as a basic engine.
 */
export function describeCoachEngine(ctx: AppContext, engineId: string): ServedBy {
  const info = ctx.providers.info('coach');
  // A plain name only: set-up hints (commands, settings) are for operators, on /api/status.
  if (info && info.engine === engineId) return { id: info.engine, label: info.label, quality: info.quality };
  const coach = ctx.providers.has('coach') ? ctx.providers.get('coach') : undefined;
  return { id: engineId, label: coach && coach.id === engineId ? coach.label : engineId, quality: 'basic' };
}
