import type { Stage } from '@core/stages';
import type { CallInput, CallOutput, EngineInfo } from '@core/voice-protocol';

export type { CallInput, CallOutput };

/**
 * The voice client contract: Vapi's web-SDK event vocabulary, so the role-play page does
 * not care whether our own WebSocket engine, the replay engine or Vapi carries the call.
 */
export interface TranscriptMessage {
  type: 'transcript';
  role: 'user' | 'assistant';
  transcriptType: 'partial' | 'final';
  transcript: string;
}

export interface StatusUpdateMessage {
  type: 'status-update';
  status: 'ended' | string;
  endedReason?: string;
}

/** Which engines serve this call, shown in the page (e.g. an offline speech-engine notice). */
export interface EnginesMessage {
  type: 'engines';
  engines: EngineInfo[];
}

export type VoiceMessage =
  TranscriptMessage | StatusUpdateMessage | EnginesMessage | { type: string; [k: string]: unknown };

export type StartProgressStage =
  | 'initialization'
  | 'web-call-creation'
  | 'daily-call-object-creation'
  | 'mobile-permissions'
  | 'daily-call-join'
  | 'video-recording-setup'
  | 'audio-observer-setup'
  | 'audio-processing-setup';

export interface StartProgress {
  stage: StartProgressStage;
  status: 'started' | 'completed' | 'failed';
  timestamp: string;
  metadata?: Record<string, unknown>;
}

export interface VoiceErrorEvent {
  type: string;
  stage?: string;
  error: unknown;
  message?: string;
  timestamp?: string;
}

export interface VoiceEvents {
  'call-start': void;
  'call-end': void;
  'speech-start': void;
  'speech-end': void;
  /** The homeowner's output level, 0..1 (summed level / 0.15, capped at 1). */
  'volume-level': number;
  /** The rep's microphone level, 0..1 (not part of Vapi's contract; our engine adds it). */
  'mic-level': number;
  message: VoiceMessage;
  error: VoiceErrorEvent | Error | unknown;
  'call-start-progress': StartProgress;
  'call-start-success': { totalDuration: number };
  'call-start-failed': { stage: string; error: string; totalDuration: number };
}

export type VoiceEventName = keyof VoiceEvents;
export type VoiceListener<K extends VoiceEventName> = (payload: VoiceEvents[K]) => void;

export interface StartCallOptions {
  stage: Stage;
  /** The role-play session id (our engine stores the transcript against it). */
  sessionId: string;
  /**
   * How the rep's turns arrive: `audio` (default: the microphone) or `text` (no microphone is
   * opened; turns come through `sendText`). Engines without typed turns ignore it.
   */
  input?: CallInput;
  /** How the homeowner answers: `audio` (default) or `text` (transcript only, nothing played). */
  output?: CallOutput;
}

export interface VoiceClient {
  /**
   * 'local' (our WebSocket engine), 'device' (the same socket with the browser's own speech
   * recognition and voices), 'replay' (scripted, for tests and demos) or 'vapi'.
   */
  readonly kind: 'local' | 'replay' | 'vapi' | 'device';
  start(options: StartCallOptions): Promise<void>;
  stop(): void;
  on<K extends VoiceEventName>(event: K, listener: VoiceListener<K>): () => void;
  /** Mutes or unmutes the microphone. */
  setMuted?(muted: boolean): void;
  /**
   * Sends one finished rep turn as text (typed, or recognised by the browser), in either input
   * mode; a homeowner who is speaking stops, as when the rep talks over them. Throws an Error
   * with a message for the rep when the text is empty or too long or no call is live. Only
   * engines that support typed turns have it.
   */
  sendText?(text: string): void;
}
