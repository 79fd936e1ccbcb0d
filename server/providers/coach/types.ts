import type { CoachingDocument } from '../../../core/coaching-format';
import type { EngineQuality } from '../../../core/engines';
import type { Stage } from '../../../core/stages';
import type { TranscriptEntry } from '../../../core/transcript';

export interface CoachInput {
  stage: Stage | string;
  transcript: TranscriptEntry[];
  /** Call length in seconds when known. */
  durationSec?: number;
  /** Persona name the rep spoke with (for role-plays) or undefined for recordings. */
  personaName?: string;
  /**
   * Only one voice could be made out (a one-channel recording): every line has one role, so the
   * call is coached as one side of a conversation, never as a short call for lack of turns.
   */
  oneVoice?: boolean;
  /** A live role-play (the default) or an uploaded recording of a real call with a customer. */
  source?: 'roleplay' | 'recording';
  /** How the rep's turns arrived: spoken (the default) or typed, whose timings mean nothing. */
  input?: 'speech' | 'typed';
  /** How good the speech recognition was: 'basic' words are approximate. */
  recognition?: EngineQuality;
}

export interface CoachResult {
  /** Coaching text in the spec's format (core/coaching-format.ts). */
  text: string;
  /** The same coaching as a structured document (what the server stores): `text` renders it. */
  document: CoachingDocument;
  /** Measured conversation metrics (shape owned by the coaching module). */
  metrics: unknown;
  /** Engine id that produced the text, and a note when a fallback answered. */
  engine: string;
  note?: string;
}

export interface Coach {
  readonly id: string;
  readonly label: string;
  /**
   * True when every result's `metrics` are conversationMetrics over the input's transcript and
   * duration (the numbers coachTranscript would otherwise measure on the request thread).
   */
  readonly measuresMetrics?: boolean;
  coach(input: CoachInput, opts?: { signal?: AbortSignal }): Promise<CoachResult>;
}
