import { MOBILE_PERMISSION_WAIT, VOLUME_OBSERVER_INTERVAL } from '@core/constants';
import { MAX_USER_TEXT_CHARS, type CallInput, type CallOutput, type ServerEvent } from '@core/voice-protocol';
import type { StartCallOptions, VoiceMessage } from '../../types';
import { microphoneErrorMessage, StartStageError, type EngineDriver, type EngineHooks } from '../../wrapper';
import { MIC_PROCESSOR_NAME, MIC_PROCESSOR_URL } from './mic-worklet';
import { PcmPlayer } from './player';

/** The server takes 16 kHz mono Int16 PCM (docs/voice.md). */
export const CAPTURE_SAMPLE_RATE = 16_000;
/** 20 ms per frame upstream. */
const FRAME_SAMPLES = 320;
const CONNECT_TIMEOUT_MS = 15_000;
/** How long stop() waits for the server to confirm it has saved the transcript. */
const STOP_WAIT_MS = 3000;
const CONNECTION_ERROR = 'An error occurred with the voice connection';

function isMobile(): boolean {
  return typeof navigator !== 'undefined' && /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent);
}

export function voiceSocketUrl(base: Location | URL = location): string {
  const proto = base.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${base.host}/api/voice`;
}

/**
 * Our own engine: microphone -> AudioWorklet (16 kHz Int16) -> WebSocket -> server pipeline,
 * and the homeowner's audio back through a jitter buffer. Echo cancellation, noise
 * suppression and auto gain are on, as in the hosted voice product.
 */
export class LocalVoiceDriver implements EngineDriver {
  readonly kind = 'local' as const;
  private socket: WebSocket | null = null;
  private stream: MediaStream | null = null;
  private captureCtx: AudioContext | null = null;
  private playbackCtx: AudioContext | null = null;
  private worklet: AudioWorkletNode | null = null;
  private player: PcmPlayer | null = null;
  private levelTimer: ReturnType<typeof setInterval> | null = null;
  private hooks: EngineHooks | null = null;
  private sampleRate = 22_050;
  private muted = false;
  private endedWaiters: (() => void)[] = [];
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
    await hooks.step('mobile-permissions', async () => {
      // Mobile browsers need a moment between the tap and the permission prompt (spec §9).
      if (isMobile()) await new Promise((r) => setTimeout(r, MOBILE_PERMISSION_WAIT));
      try {
        this.stream = await navigator.mediaDevices.getUserMedia({
          audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
        });
      } catch (err) {
        throw new StartStageError('mobile-permissions', microphoneErrorMessage(err), err);
      }
    });
    await hooks.step('web-call-creation', () => this.openSocket());
    await hooks.step('daily-call-object-creation', async () => {
      this.captureCtx = new AudioContext({ sampleRate: CAPTURE_SAMPLE_RATE });
      this.playbackCtx = new AudioContext();
      await this.captureCtx.audioWorklet.addModule(MIC_PROCESSOR_URL);
      this.player = new PcmPlayer(this.playbackCtx);
    });
    await hooks.step('daily-call-join', () => this.join(options));
    await hooks.step('video-recording-setup', () => undefined, { skipped: 'audio-only call' });
    await hooks.step('audio-observer-setup', () => {
      this.levelTimer = setInterval(() => {
        if (this.player) hooks.remoteLevel(this.player.level());
      }, VOLUME_OBSERVER_INTERVAL);
    });
    await hooks.step('audio-processing-setup', async () => {
      const ctx = this.captureCtx!;
      const source = ctx.createMediaStreamSource(this.stream!);
      this.worklet = new AudioWorkletNode(ctx, MIC_PROCESSOR_NAME, {
        numberOfInputs: 1,
        numberOfOutputs: 0,
        channelCount: 1,
        processorOptions: { frameSamples: FRAME_SAMPLES },
      });
      this.worklet.port.onmessage = (e: MessageEvent<{ pcm: Int16Array; level: number }>) =>
        this.onMicFrame(e.data);
      source.connect(this.worklet);
      // Browsers start contexts suspended until a user gesture; the start button was one.
      await Promise.all([ctx.resume(), this.playbackCtx!.resume()]);
    });
    hooks.emit('call-start');
  }

  /** A call without the microphone: turns come through sendText; the homeowner may still speak. */
  private async startTyped(options: StartCallOptions, hooks: EngineHooks): Promise<void> {
    const speaker = this.output === 'audio';
    await hooks.step('mobile-permissions', () => undefined, { skipped: 'typed turns' });
    await hooks.step('web-call-creation', () => this.openSocket());
    await hooks.step('daily-call-object-creation', async () => {
      if (!speaker) return;
      this.playbackCtx = new AudioContext();
      this.player = new PcmPlayer(this.playbackCtx);
    });
    await hooks.step('daily-call-join', () => this.join(options));
    await hooks.step('video-recording-setup', () => undefined, { skipped: 'audio-only call' });
    await hooks.step('audio-observer-setup', () => {
      if (!speaker) return;
      this.levelTimer = setInterval(() => {
        if (this.player) hooks.remoteLevel(this.player.level());
      }, VOLUME_OBSERVER_INTERVAL);
    });
    await hooks.step('audio-processing-setup', async () => {
      await this.playbackCtx?.resume();
    });
    hooks.emit('call-start');
  }

  /** One finished rep turn as text (docs/voice.md, typed turns). */
  sendText(text: string): void {
    const trimmed = typeof text === 'string' ? text.trim() : '';
    if (!trimmed) throw new Error('Type something to say first.');
    if (trimmed.length > MAX_USER_TEXT_CHARS)
      throw new Error(`Keep a typed turn under ${MAX_USER_TEXT_CHARS.toLocaleString('en-US')} characters.`);
    if (this.socket?.readyState !== WebSocket.OPEN || this.closedByUs)
      throw new Error('The call is not connected.');
    this.send({ type: 'user-text', text: trimmed });
  }

  private openSocket(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      ws.binaryType = 'arraybuffer';
      this.socket = ws;
      const timer = setTimeout(
        () => reject(new Error('The voice server did not answer')),
        CONNECT_TIMEOUT_MS,
      );
      ws.onopen = () => {
        clearTimeout(timer);
        resolve();
      };
      ws.onerror = () => {
        clearTimeout(timer);
        reject(new Error('Could not connect to the voice server'));
      };
      ws.onclose = () => this.onSocketClosed();
      ws.onmessage = (e) => this.onSocketMessage(e);
    });
  }

  private readyWaiter: { resolve: () => void; reject: (e: Error) => void } | null = null;
  /** Set until the call is ready: an error or close that comes first (e.g. `busy`) fails the start. */
  private joining = false;
  private joinFailure: Error | null = null;

  private join(options: StartCallOptions): Promise<void> {
    if (this.joinFailure) return Promise.reject(this.joinFailure);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('The voice server did not start the call')),
        CONNECT_TIMEOUT_MS,
      );
      this.readyWaiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.send({
        type: 'start',
        sessionId: options.sessionId,
        stage: options.stage,
        ...(this.input === 'audio'
          ? { sampleRate: CAPTURE_SAMPLE_RATE, encoding: 'pcm16' }
          : { input: 'text' }),
        ...(this.output === 'text' ? { output: 'text' } : {}),
      });
    });
  }

  private send(message: object): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private onMicFrame({ pcm, level }: { pcm: Int16Array; level: number }): void {
    const ws = this.socket;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    // Muted still sends silence, so the server's stream clock stays in step with real time.
    ws.send(this.muted ? new Int16Array(pcm.length).buffer : pcm.buffer);
    const now = performance.now();
    if (now - this.micLevelAt >= VOLUME_OBSERVER_INTERVAL) {
      this.micLevelAt = now;
      this.hooks?.emit('mic-level', this.muted ? 0 : Math.min(1, level / 0.15));
    }
  }

  private onSocketMessage(e: MessageEvent): void {
    if (e.data instanceof ArrayBuffer) {
      if (e.data.byteLength >= 2)
        this.player?.enqueue(new Int16Array(e.data, 0, e.data.byteLength >> 1), this.sampleRate);
      return;
    }
    let event: ServerEvent;
    try {
      event = JSON.parse(String(e.data)) as ServerEvent;
    } catch {
      return;
    }
    const hooks = this.hooks;
    switch (event.type) {
      case 'ready':
        this.joining = false;
        this.readyWaiter?.resolve();
        this.readyWaiter = null;
        break;
      case 'audio-format':
        if (typeof event.sampleRate === 'number' && event.sampleRate >= 8000 && event.sampleRate <= 48_000) {
          this.sampleRate = event.sampleRate;
        }
        break;
      case 'interrupt':
        this.player?.flush();
        break;
      case 'transcript':
      case 'engines':
        hooks?.emit('message', event as VoiceMessage);
        break;
      case 'error': {
        const message = typeof event.message === 'string' && event.message ? event.message : CONNECTION_ERROR;
        if (this.readyWaiter) {
          this.readyWaiter.reject(new Error(message));
          this.readyWaiter = null;
        } else if (this.joining) {
          // Before the start message went out (the server was full): the start fails with it.
          this.joinFailure ??= new Error(message);
        } else {
          hooks?.emit('error', {
            type: 'daily-error',
            error: event,
            message,
            timestamp: new Date().toISOString(),
          });
        }
        break;
      }
      case 'ended':
        this.wakeEnded();
        if (!this.closedByUs) hooks?.ended();
        break;
      default:
        break;
    }
  }

  private onSocketClosed(): void {
    this.wakeEnded();
    if (this.readyWaiter) {
      this.readyWaiter.reject(new Error(CONNECTION_ERROR));
      this.readyWaiter = null;
      return;
    }
    if (this.joining) {
      this.joinFailure ??= new Error(CONNECTION_ERROR);
      return;
    }
    if (!this.closedByUs && this.hooks) {
      this.hooks.emit('error', { type: 'daily-error', error: 'connection-lost', message: CONNECTION_ERROR });
      this.hooks.ended();
    }
  }

  private wakeEnded(): void {
    const waiters = this.endedWaiters;
    this.endedWaiters = [];
    for (const w of waiters) w();
  }

  async stop(): Promise<void> {
    const ws = this.socket;
    const alreadyClosing = this.closedByUs;
    this.closedByUs = true;
    if (!alreadyClosing && ws && ws.readyState === WebSocket.OPEN) {
      // The server saves the transcript and then says 'ended'; the page saves after that.
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, STOP_WAIT_MS);
        this.endedWaiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
        this.send({ type: 'stop' });
      });
    }
    this.release();
  }

  private release(): void {
    this.joining = false;
    if (this.levelTimer) clearInterval(this.levelTimer);
    this.levelTimer = null;
    this.player?.flush();
    this.player = null;
    if (this.worklet) {
      this.worklet.port.onmessage = null;
      this.worklet.disconnect();
    }
    this.worklet = null;
    this.stream?.getTracks().forEach((t) => t.stop());
    this.stream = null;
    void this.captureCtx?.close().catch(() => undefined);
    void this.playbackCtx?.close().catch(() => undefined);
    this.captureCtx = null;
    this.playbackCtx = null;
    const ws = this.socket;
    this.socket = null;
    if (ws) {
      ws.onclose = null;
      ws.onmessage = null;
      ws.onerror = null;
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)
        ws.close(1000, 'customer-ended-call');
    }
  }
}
