import type { OperatorEngine } from '../../core/operator-status';

/** The capabilities the registry reports on. */
export type Capability =
  | 'database'
  | 'speech-to-text'
  | 'voice-activity'
  | 'speaker-attribution'
  | 'live-speech-to-text'
  | 'homeowner'
  | 'coach'
  | 'text-to-speech'
  | 'voice'
  | 'storage'
  | 'jobs'
  | 'email'
  | 'lead-capture'
  | 'audio-decode';

/**
 * What /api/status reports about the engine serving a capability (core/operator-status.ts);
 * reps and /api/health see only the part in core's engineInfoSchema.
 */
export type EngineInfo = OperatorEngine & { capability: Capability };
