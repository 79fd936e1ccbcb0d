import type { TranscriptEntry } from '../../core/transcript';
import type { PersonaBrain } from '../providers/brain/types';
import type { SpeechToText } from '../providers/stt/types';
import type { LiveRecognizer } from '../providers/stt/live/types';
import type { TextToSpeech } from '../providers/tts/types';
import type { VadFactory } from '../providers/vad/types';
import type { DecodeQueue } from './decode-queue';
import type { CallInput, CallOutput, ServerEvent } from './protocol';
import type { TurnTakingOptions } from '../turns/turn-taking';

/** What a live call needs from the server: its socket, its engines and its stores (voice/routes.ts wires them). */
export interface VoiceTransport {
  sendJson(event: ServerEvent): void;
  sendAudio(pcm: Int16Array): void;
  close(code: number, reason: string): void;
}

export type EngineList = Extract<ServerEvent, { type: 'engines' }>['engines'];

export interface VoiceSessionDeps {
  stt: SpeechToText;
  tts: TextToSpeech;
  brain: PersonaBrain;
  vad: VadFactory;
  decodeQueue: DecodeQueue;
  engines: EngineList;
  /** Stores the transcript so far against the role-play session (on stop, cap or drop). */
  saveTranscript?(
    sessionId: string,
    transcript: TranscriptEntry[],
    durationSec: number,
    engines: EngineList,
  ): Promise<void>;
  /** A warm recogniser for the call (captions and finals), when the engine has one. */
  createStream?(): LiveRecognizer | null;
  /** Called once per answered turn: end of the rep's speech to the homeowner's first audio. */
  onTurnLatency?(ms: number): void;
  /**
   * Marks the role-play session's call as under way (a coaching request waits for its save);
   * false when the id names no role-play session.
   */
  beginCall?(sessionId: string): Promise<boolean>;
  log?: { warn(o: object, m?: string): void; error(o: object, m?: string): void };
  turnTaking?: Partial<TurnTakingOptions>;
  maxCallMs?: number;
  /** A socket that has not sent `start` by then is closed (default START_TIMEOUT_MS). */
  startTimeoutMs?: number;
  /**
   * A started call ends (`idle`) when the rep has neither spoken nor sent a turn for this long
   * after the homeowner last finished (CALL_IDLE_SEC); 0 or unset = never.
   */
  idleMs?: number;
  /** Typed turns: one per `intervalMs` on average, `burst` in a row (TURN_INTERVAL_MS, TURN_BURST). */
  turnPace?: { intervalMs: number; burst: number };
  /** Seed for the homeowner's choices (tests); random otherwise. */
  seed?: number;
  /**
   * Server-wide room for one more call of these modes: null admits it, else the message of the
   * `busy` refusal. Asked once, at `start`, before anything is set up.
   */
  admit?(modes: { input: CallInput; output: CallOutput }): string | null;
}
