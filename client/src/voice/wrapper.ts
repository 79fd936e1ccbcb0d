import { SPEAKING_THRESHOLD, SPEECH_END_DELAY, volumeLevelFromSum } from '@core/constants';
import { VoiceEmitter } from './emitter';
import type {
  StartCallOptions,
  StartProgressStage,
  VoiceClient,
  VoiceEventName,
  VoiceEvents,
  VoiceListener,
  VoiceMessage,
} from './types';

/** What an engine gives the wrapper while it starts and runs a call. */
export interface EngineHooks {
  emit<K extends VoiceEventName>(
    event: K,
    ...args: VoiceEvents[K] extends void ? [] : [VoiceEvents[K]]
  ): void;
  /** Runs one start stage, reporting started and then completed or failed. */
  step<T>(
    stage: StartProgressStage,
    run: () => Promise<T> | T,
    metadata?: Record<string, unknown>,
  ): Promise<T>;
  /** The engine's remote (homeowner) summed audio level, sampled every 100 ms. */
  remoteLevel(summedLevel: number): void;
  /** The remote side or the network ended the call. */
  ended(): void;
}

/** An engine's own work; the wrapper adds the spec §4 rules around it. */
export interface EngineDriver {
  readonly kind: VoiceClient['kind'];
  /** Starts the call. Throws (after reporting the failing stage) when it cannot. */
  start(options: StartCallOptions, hooks: EngineHooks): Promise<void>;
  /** Hangs up and releases everything; resolves when the server has the transcript. Idempotent. */
  stop(): Promise<void>;
  setMuted?(muted: boolean): void;
  /** One finished rep turn as text; throws with a rep-facing message when it cannot be sent. */
  sendText?(text: string): void;
}

/** Thrown by a start stage: carries the stage and a message meant for the rep. */
export class StartStageError extends Error {
  constructor(
    readonly stage: StartProgressStage,
    message: string,
    readonly detail?: unknown,
  ) {
    super(message);
  }
}

const ERROR_TYPE_BY_STAGE: Partial<Record<StartProgressStage, string>> = {
  'daily-call-object-creation': 'daily-call-object-creation-error',
  'daily-call-join': 'daily-call-join-error',
  'video-recording-setup': 'video-recording-setup-error',
  'audio-observer-setup': 'audio-observer-setup-error',
  'audio-processing-setup': 'audio-processing-setup-error',
};

/** The rep-facing message for a getUserMedia failure, each with the way to retry. */
export function microphoneErrorMessage(err: unknown): string {
  const name = err && typeof err === 'object' && 'name' in err ? String((err as { name: unknown }).name) : '';
  switch (name) {
    case 'NotAllowedError':
    case 'SecurityError':
      return 'Microphone access is blocked. Allow the microphone for this site (the icon in the address bar), then press start to try again.';
    case 'NotFoundError':
    case 'OverconstrainedError':
      return 'No microphone was found. Connect a microphone, then press start to try again.';
    case 'NotReadableError':
    case 'AbortError':
      return 'The microphone is in use by another app. Close that app, then press start to try again.';
    default:
      return 'The microphone could not be opened. Check your browser settings, then press start to try again.';
  }
}

/**
 * Every event of whichever wrapped call is live, for components that show call status
 * (levels, engines) without being handed the client.
 */
export const liveCallEvents = new VoiceEmitter();

/**
 * What a status component mounted mid-call missed: whether a call is live and the last engines
 * message (the call bar mounts only once the call has started, after both were sent).
 */
export const liveCallSnapshot: { active: boolean; engines: VoiceMessage | null } = {
  active: false,
  engines: null,
};

class MirroredEmitter extends VoiceEmitter {
  override emit<K extends VoiceEventName>(
    event: K,
    ...args: VoiceEvents[K] extends void ? [] : [VoiceEvents[K]]
  ): void {
    if (event === 'call-start') liveCallSnapshot.active = true;
    if (event === 'call-end') {
      liveCallSnapshot.active = false;
      liveCallSnapshot.engines = null;
    }
    if (event === 'message' && (args[0] as VoiceMessage | undefined)?.type === 'engines')
      liveCallSnapshot.engines = args[0] as VoiceMessage;
    super.emit(event, ...args);
    liveCallEvents.emit(event, ...args);
  }
}

/**
 * Applies the voice-wrapper rules of spec §4 to any engine: the started flag and the
 * already-started refusal, start progress per stage, cleanup on a failed start, call-end
 * followed once by a status-update (ended, customer-ended-call), and speech start/end from
 * the remote level (above 0.01 starts; 1 s after the last such level ends).
 */
export class WrappedVoiceClient implements VoiceClient {
  readonly kind: VoiceClient['kind'];
  private readonly emitter = new MirroredEmitter();
  private started = false;
  private callGeneration = 0;
  private endReported = true;
  private remoteSpeaking = false;
  private lastLoudAt = 0;
  private speechEndTimer: ReturnType<typeof setTimeout> | null = null;

  /** Present only when the engine takes typed turns (so a page can offer "type instead"). */
  readonly sendText?: (text: string) => void;

  constructor(private readonly driver: EngineDriver) {
    this.kind = driver.kind;
    const send = driver.sendText?.bind(driver);
    if (send) {
      this.sendText = (text: string) => {
        if (!this.started) throw new Error('Start the call first, then type your turn.');
        send(text);
      };
    }
  }

  on<K extends VoiceEventName>(event: K, listener: VoiceListener<K>): () => void {
    return this.emitter.on(event, listener);
  }

  setMuted(muted: boolean): void {
    this.driver.setMuted?.(muted);
  }

  get isStarted(): boolean {
    return this.started;
  }

  async start(options: StartCallOptions): Promise<void> {
    if (this.started) {
      this.emitter.emit('error', {
        type: 'validation-error',
        stage: 'initialization',
        error: 'already-started',
      });
      throw new Error('A call is already in progress');
    }
    this.started = true;
    this.endReported = false;
    const generation = ++this.callGeneration;
    const begun = Date.now();
    const hooks = this.hooks(generation);
    try {
      await this.driver.start(options, hooks);
    } catch (err) {
      const stage = err instanceof StartStageError ? err.stage : 'initialization';
      const message = err instanceof Error && err.message ? err.message : 'Failed to start call';
      this.emitter.emit('call-start-failed', { stage, error: message, totalDuration: Date.now() - begun });
      // A failed start cleans up; the page learns of it from the rejected start().
      this.cleanup();
      void this.driver.stop().catch(() => undefined);
      this.endReported = true;
      throw err instanceof Error ? err : new Error(message);
    }
    if (generation !== this.callGeneration) return;
    this.emitter.emit('call-start-success', { totalDuration: Date.now() - begun });
  }

  stop(): void {
    if (!this.started) return;
    const generation = this.callGeneration;
    void this.driver
      .stop()
      .catch((err) => console.error('voice engine failed to stop cleanly', err))
      .finally(() => {
        if (generation === this.callGeneration) this.finish();
      });
  }

  private hooks(generation: number): EngineHooks {
    const live = () => generation === this.callGeneration && this.started;
    return {
      emit: (event, ...args) => {
        if (!live()) return;
        // The wrapper owns the end-of-call status update so it is sent exactly once.
        if (event === 'message') {
          const m = args[0] as { type?: string; status?: string } | undefined;
          if (m?.type === 'status-update' && m.status === 'ended') return;
        }
        if (event === 'call-end') return this.finish();
        this.emitter.emit(event, ...args);
      },
      step: async (stage, run, metadata) => {
        const report = (status: 'started' | 'completed' | 'failed', extra?: Record<string, unknown>) =>
          this.emitter.emit('call-start-progress', {
            stage,
            status,
            timestamp: new Date().toISOString(),
            ...(metadata || extra ? { metadata: { ...metadata, ...extra } } : {}),
          });
        report('started');
        try {
          const result = await run();
          report('completed');
          return result;
        } catch (err) {
          const message = err instanceof Error ? err.message : String(err);
          report('failed', { error: message });
          const type = ERROR_TYPE_BY_STAGE[stage] ?? 'start-method-error';
          this.emitter.emit('error', {
            type,
            stage,
            error: err,
            message,
            timestamp: new Date().toISOString(),
          });
          throw err instanceof StartStageError ? err : new StartStageError(stage, message, err);
        }
      },
      remoteLevel: (sum) => {
        if (live()) this.onRemoteLevel(sum);
      },
      ended: () => {
        if (generation === this.callGeneration) {
          void this.driver.stop().finally(() => {
            if (generation === this.callGeneration) this.finish();
          });
        }
      },
    };
  }

  private onRemoteLevel(sum: number): void {
    this.emitter.emit('volume-level', volumeLevelFromSum(sum));
    const now = Date.now();
    if (sum > SPEAKING_THRESHOLD) {
      this.lastLoudAt = now;
      if (!this.remoteSpeaking) {
        this.remoteSpeaking = true;
        this.emitter.emit('speech-start');
      }
      if (this.speechEndTimer) clearTimeout(this.speechEndTimer);
      this.speechEndTimer = setTimeout(() => {
        this.speechEndTimer = null;
        if (this.remoteSpeaking && Date.now() - this.lastLoudAt >= SPEECH_END_DELAY - 5) {
          this.remoteSpeaking = false;
          this.emitter.emit('speech-end');
        }
      }, SPEECH_END_DELAY);
    }
  }

  /** Leaving the call: call-end, then once only the ended status update. */
  private finish(): void {
    if (this.endReported) {
      this.cleanup();
      return;
    }
    this.endReported = true;
    this.cleanup();
    this.emitter.emit('call-end');
    this.emitter.emit('message', {
      type: 'status-update',
      status: 'ended',
      endedReason: 'customer-ended-call',
    });
  }

  private cleanup(): void {
    this.started = false;
    this.callGeneration++;
    if (this.speechEndTimer) clearTimeout(this.speechEndTimer);
    this.speechEndTimer = null;
    if (this.remoteSpeaking) {
      this.remoteSpeaking = false;
      this.emitter.emit('volume-level', 0);
      this.emitter.emit('speech-end');
    }
  }
}
