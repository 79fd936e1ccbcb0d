import { VOLUME_OBSERVER_INTERVAL } from '@core/constants';
import { type CallInput, type CallOutput, type ServerEvent } from '@core/voice-protocol';
import type { StartCallOptions, VoiceMessage } from '../../types';
import type { EngineDriver, EngineHooks } from '../../wrapper';
import { CallAudio } from '../shared/call-audio';
import {
  CallSocket,
  CONNECTION_ERROR,
  serverErrorEvent,
  typedTurn,
  voiceSocketUrl,
} from '../shared/call-socket';

export { voiceSocketUrl } from '../shared/call-socket';

/** The server takes 16 kHz mono Int16 PCM (docs/voice.md). */
export const CAPTURE_SAMPLE_RATE = 16_000;

/**
 * Our own engine: microphone -> AudioWorklet (16 kHz Int16) -> WebSocket -> server pipeline,
 * and the homeowner's audio back through a jitter buffer. Echo cancellation, noise
 * suppression and auto gain are on, as in the hosted voice product.
 */
export class LocalVoiceDriver implements EngineDriver {
  readonly kind = 'local' as const;
  private socket: CallSocket | null = null;
  private audio = new CallAudio();
  private levelTimer: ReturnType<typeof setInterval> | null = null;
  private hooks: EngineHooks | null = null;
  private sampleRate = 22_050;
  private muted = false;
  private closedByUs = false;
  private micLevelAt = 0;
  private input: CallInput = 'audio';
  private output: CallOutput = 'audio';

  constructor(private readonly url: string = voiceSocketUrl()) {}

  setMuted(muted: boolean): void {
    this.muted = muted;
  }

  async start(options: StartCallOptions, hooks: EngineHooks): Promise<void> {
    this.hooks = hooks;
    this.closedByUs = false;
    this.joining = true;
    this.joinFailure = null;
    this.input = options.input ?? 'audio';
    this.output = options.output ?? 'audio';
    const mic = this.input === 'audio';
    const speaker = this.output === 'audio';
    await hooks.step('initialization', () => {
      if (typeof WebSocket === 'undefined' || ((mic || speaker) && typeof AudioContext === 'undefined')) {
        throw new Error('This browser cannot run voice calls (no WebSocket or Web Audio)');
      }
      if (mic && !navigator.mediaDevices?.getUserMedia) {
        throw new Error(
          'Microphone access needs a secure (https) page. Open the site over https and try again.',
        );
      }
    });
    if (!mic) return this.startTyped(options, hooks);
    await hooks.step('mobile-permissions', () => this.audio.requestMicrophone());
    await hooks.step('web-call-creation', () => this.openSocket());
    await hooks.step('daily-call-object-creation', async () => {
      this.audio.openPlayback();
      await this.audio.openCapture(true);
    });
    await hooks.step('daily-call-join', () => this.join(options));
    await hooks.step('video-recording-setup', () => undefined, { skipped: 'audio-only call' });
    await hooks.step('audio-observer-setup', () => {
      this.levelTimer = setInterval(() => {
        if (this.audio.player) hooks.remoteLevel(this.audio.player.level());
      }, VOLUME_OBSERVER_INTERVAL);
    });
    await hooks.step('audio-processing-setup', async () => {
      this.audio.connectMicrophone({ onFrame: (frame) => this.onMicFrame(frame) });
      await this.audio.resume();
    });
    hooks.emit('call-start');
  }

  /** A call without the microphone: turns come through sendText; the homeowner may still speak. */
  private async startTyped(options: StartCallOptions, hooks: EngineHooks): Promise<void> {
    const speaker = this.output === 'audio';
    await hooks.step('mobile-permissions', () => undefined, { skipped: 'typed turns' });
    await hooks.step('web-call-creation', () => this.openSocket());
    await hooks.step('daily-call-object-creation', async () => {
      if (speaker) this.audio.openPlayback();
    });
    await hooks.step('daily-call-join', () => this.join(options));
    await hooks.step('video-recording-setup', () => undefined, { skipped: 'audio-only call' });
    await hooks.step('audio-observer-setup', () => {
      if (!speaker) return;
      this.levelTimer = setInterval(() => {
        if (this.audio.player) hooks.remoteLevel(this.audio.player.level());
      }, VOLUME_OBSERVER_INTERVAL);
    });
    await hooks.step('audio-processing-setup', () => this.audio.resume());
    hooks.emit('call-start');
  }

  /** One finished rep turn as text (docs/voice.md, typed turns). */
  sendText(text: string): void {
    const trimmed = typedTurn(text, !!this.socket?.isOpen && !this.closedByUs);
    this.send({ type: 'user-text', text: trimmed });
  }

  private openSocket(): Promise<void> {
    this.socket = new CallSocket(this.url, {
      onAudio: (pcm) => this.audio.player?.enqueue(pcm, this.sampleRate),
      onEvent: (event) => this.onServerEvent(event),
      onClosed: () => this.onSocketClosed(),
    });
    return this.socket.connect();
  }

  /** Set until the call is ready: an error or close that comes first (e.g. `busy`) fails the start. */
  private joining = false;
  private joinFailure: Error | null = null;

  private join(options: StartCallOptions): Promise<void> {
    if (this.joinFailure) return Promise.reject(this.joinFailure);
    return this.socket!.start({
      type: 'start',
      sessionId: options.sessionId,
      stage: options.stage,
      ...(this.input === 'audio'
        ? { sampleRate: CAPTURE_SAMPLE_RATE, encoding: 'pcm16' }
        : { input: 'text' }),
      ...(this.output === 'text' ? { output: 'text' } : {}),
    });
  }

  private send(message: object): void {
    this.socket?.send(message);
  }

  private onMicFrame({ pcm, level }: { pcm: Int16Array; level: number }): void {
    if (!this.socket?.isOpen) return;
    // Muted still sends silence, so the server's stream clock stays in step with real time.
    this.socket.sendAudio(this.muted ? new Int16Array(pcm.length).buffer : pcm.buffer);
    const now = performance.now();
    if (now - this.micLevelAt >= VOLUME_OBSERVER_INTERVAL) {
      this.micLevelAt = now;
      this.hooks?.emit('mic-level', this.muted ? 0 : Math.min(1, level / 0.15));
    }
  }

  private onServerEvent(event: ServerEvent): void {
    const hooks = this.hooks;
    switch (event.type) {
      case 'ready':
        this.joining = false;
        break;
      case 'audio-format':
        if (typeof event.sampleRate === 'number' && event.sampleRate >= 8000 && event.sampleRate <= 48_000) {
          this.sampleRate = event.sampleRate;
        }
        break;
      case 'interrupt':
        this.audio.player?.flush();
        break;
      case 'transcript':
      case 'engines':
        hooks?.emit('message', event as VoiceMessage);
        break;
      case 'error': {
        const message = typeof event.message === 'string' && event.message ? event.message : CONNECTION_ERROR;
        // A start waiting for 'ready' fails with the server's reason.
        if (this.socket?.failStart(new Error(message))) break;
        if (this.joining) {
          // Before the start message went out (the server was full): the start fails with it.
          this.joinFailure ??= new Error(message);
        } else {
          hooks?.emit('error', serverErrorEvent(event, message));
        }
        break;
      }
      case 'ended':
        if (!this.closedByUs) hooks?.ended();
        break;
      default:
        break;
    }
  }

  private onSocketClosed(): void {
    if (this.joining) {
      this.joinFailure ??= new Error(CONNECTION_ERROR);
      return;
    }
    if (!this.closedByUs && this.hooks) {
      this.hooks.emit('error', { type: 'daily-error', error: 'connection-lost', message: CONNECTION_ERROR });
      this.hooks.ended();
    }
  }

  async stop(): Promise<void> {
    const alreadyClosing = this.closedByUs;
    this.closedByUs = true;
    // The server saves the transcript and then says 'ended'; the page saves after that.
    if (!alreadyClosing) await this.socket?.stop();
    this.release();
  }

  private release(): void {
    this.joining = false;
    if (this.levelTimer) clearInterval(this.levelTimer);
    this.levelTimer = null;
    this.audio.release();
    this.socket?.close();
    this.socket = null;
  }
}
