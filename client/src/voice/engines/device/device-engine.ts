import { MOBILE_PERMISSION_WAIT, VOLUME_OBSERVER_INTERVAL } from '@core/constants';
import { PERSONA_VOICES, webSpeechSettings } from '@core/persona-voice';
import { MAX_USER_TEXT_CHARS, UPSTREAM_SAMPLE_RATE, type ServerEvent } from '@core/voice-protocol';
import { pickVoice, type SpeechPlan } from '../../device-speech';
import type { StartCallOptions, VoiceMessage } from '../../types';
import { microphoneErrorMessage, StartStageError, type EngineDriver, type EngineHooks } from '../../wrapper';
import { voiceSocketUrl } from '../local/local-engine';
import { MIC_PROCESSOR_NAME, MIC_PROCESSOR_URL } from '../local/mic-worklet';
import { PcmPlayer } from '../local/player';
import { Recognizer } from './recognizer';
import { Speaker } from './speaker';
import { BargeInDetector, completeSentences, endOfTurnDelay, withoutEcho } from './speech-logic';
import type { SpeechRecognitionCtor } from './web-speech';

const FRAME_SAMPLES = 320;
const CONNECT_TIMEOUT_MS = 15_000;
const STOP_WAIT_MS = 3000;
/** How often the microphone level is read for barge-in (one analyser window). */
const MIC_POLL_MS = 20;
/** After the homeowner stops, recognised words are still checked for echo this long. */
const ECHO_TAIL_MS = 800;
/** A homeowner hang-up lets the last words finish before the call ends, up to this long. */
const GOODBYE_WAIT_MS = 8000;
const CONNECTION_ERROR = 'An error occurred with the voice connection';

export interface DeviceDriverOptions {
  plan: SpeechPlan;
  recognition: SpeechRecognitionCtor | null;
  synth: SpeechSynthesis | null;
  url?: string;
}

/**
 * The call socket with the browser's own speech for one or both halves (docs/voice.md):
 * - listen on the device: `SpeechRecognition` turns the rep's words into `user-text` turns
 *   (interim results are the live caption; the server echoes the final);
 * - speak on the device: the homeowner's reply arrives as text (`output: 'text'`) and is
 *   spoken sentence by sentence with `speechSynthesis` in the persona's voice;
 * - the other half, if any, is the server's, as in the local engine (microphone frames up,
 *   PCM down).
 * The microphone is always opened: its level feeds the meter and barge-in, and recognition
 * ignores the homeowner's own voice picked up while it speaks.
 */
export class DeviceVoiceDriver implements EngineDriver {
  readonly kind = 'device' as const;
  private readonly plan: SpeechPlan;
  /** This call's halves: the plan, narrowed by the page's start options (typed turns, text only). */
  private listen: SpeechPlan['listen'] | 'typed';
  private speak: SpeechPlan['speak'] | 'none';
  private readonly url: string;
  private socket: WebSocket | null = null;
  private hooks: EngineHooks | null = null;
  private stream: MediaStream | null = null;
  private captureCtx: AudioContext | null = null;
  private analyser: AnalyserNode | null = null;
  private levelBuf: Float32Array<ArrayBuffer> | null = null;
  private worklet: AudioWorkletNode | null = null;
  private playbackCtx: AudioContext | null = null;
  private player: PcmPlayer | null = null;
  private speaker: Speaker | null = null;
  private recognizer: Recognizer | null = null;
  private timers: ReturnType<typeof setInterval>[] = [];
  private readyWaiter: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private endedWaiters: (() => void)[] = [];
  private closedByUs = false;
  private muted = false;
  private sampleRate = 22_050;
  private micLevelAt = 0;
  private readonly bargeIn = new BargeInDetector();

  // The rep's turn being recognised.
  private finals: string[] = [];
  private readonly finalKeys = new Set<string>();
  private readonly interims = new Map<string, string>();
  private turnTimer: ReturnType<typeof setTimeout> | null = null;

  // The homeowner's reply.
  /** Text of the reply as the server sent it so far, and how much of it is queued to speak. */
  private replyText = '';
  private replyQueued = 0;
  private replyFinal = false;
  /** Sentences of the reply already spoken (what the page shows). */
  private spoken: string[] = [];
  /** Ignore the rest of a reply the rep cut off, until the rep's next turn. */
  private replyDropped = false;
  /** A rep turn was sent and the server has not echoed it yet: what arrives is the old reply. */
  private awaitingEcho = false;
  /** What the homeowner has said lately: recognised words matching it are echo. */
  private homeownerWords = '';
  private homeownerQuietAt = 0;
  private playingServerAudio = false;

  constructor(private readonly options: DeviceDriverOptions) {
    this.plan = options.plan;
    this.listen = options.plan.listen;
    this.speak = options.plan.speak;
    this.url = options.url ?? voiceSocketUrl();
  }

  /** The device recognises the rep (on the device, or online where the rep allowed it). */
  private get listensOnDevice(): boolean {
    return this.listen === 'device' || this.listen === 'cloud';
  }

  private get usesMicrophone(): boolean {
    return this.listen !== 'typed';
  }

  private get speaksOnDevice(): boolean {
    return this.speak === 'device';
  }

  setMuted(muted: boolean): void {
    this.muted = muted;
    if (!this.recognizer) return;
    if (muted) {
      this.recognizer.stop();
      this.clearTurn();
    } else this.recognizer.start();
  }

  async start(options: StartCallOptions, hooks: EngineHooks): Promise<void> {
    this.hooks = hooks;
    this.closedByUs = false;
    this.listen = options.input === 'text' ? 'typed' : this.plan.listen;
    this.speak = options.output === 'text' ? 'none' : this.plan.speak;
    await hooks.step('initialization', () => {
      if (typeof WebSocket === 'undefined' || typeof AudioContext === 'undefined') {
        throw new Error('This browser cannot run voice calls (no WebSocket or Web Audio)');
      }
      if (this.usesMicrophone && !navigator.mediaDevices?.getUserMedia) {
        throw new Error(
          'Microphone access needs a secure (https) page. Open the site over https and try again.',
        );
      }
      if (this.speaksOnDevice) {
        const synth = this.options.synth;
        const voice = synth ? pickVoice(synth.getVoices(), PERSONA_VOICES[options.stage]) : null;
        if (!synth || !voice) throw new Error("This device's voices are not available");
        this.speaker = new Speaker(synth, voice, webSpeechSettings(PERSONA_VOICES[options.stage]), {
          onSentence: (s) => this.onSentenceSpoken(s),
          onIdle: () => this.onSpeakerIdle(),
        });
      }
      if (this.listensOnDevice && !this.options.recognition) {
        throw new Error("This device's speech recognition is not available");
      }
    });
    await hooks.step('mobile-permissions', async () => {
      if (!this.usesMicrophone) return;
      if (/Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent))
        await new Promise((r) => setTimeout(r, MOBILE_PERMISSION_WAIT));
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
      if (this.usesMicrophone) {
        this.captureCtx = new AudioContext({ sampleRate: UPSTREAM_SAMPLE_RATE });
        if (this.listen === 'server') await this.captureCtx.audioWorklet.addModule(MIC_PROCESSOR_URL);
      }
      if (this.speak === 'server') {
        this.playbackCtx = new AudioContext();
        this.player = new PcmPlayer(this.playbackCtx);
      }
    });
    await hooks.step('daily-call-join', () => this.join(options));
    await hooks.step('video-recording-setup', () => undefined, { skipped: 'audio-only call' });
    await hooks.step('audio-observer-setup', () => {
      this.timers.push(
        setInterval(() => {
          const level = this.speaker ? this.speaker.level() : (this.player?.level() ?? 0);
          hooks.remoteLevel(level);
        }, VOLUME_OBSERVER_INTERVAL),
      );
    });
    await hooks.step('audio-processing-setup', async () => {
      await this.playbackCtx?.resume();
      const ctx = this.captureCtx;
      if (!ctx || !this.stream) return;
      const source = ctx.createMediaStreamSource(this.stream!);
      this.analyser = ctx.createAnalyser();
      this.analyser.fftSize = 512;
      this.levelBuf = new Float32Array(this.analyser.fftSize);
      source.connect(this.analyser);
      if (this.listen === 'server') {
        this.worklet = new AudioWorkletNode(ctx, MIC_PROCESSOR_NAME, {
          numberOfInputs: 1,
          numberOfOutputs: 0,
          channelCount: 1,
          processorOptions: { frameSamples: FRAME_SAMPLES },
        });
        this.worklet.port.onmessage = (e: MessageEvent<{ pcm: Int16Array }>) => this.onMicFrame(e.data.pcm);
        source.connect(this.worklet);
      }
      await ctx.resume();
      this.timers.push(setInterval(() => this.onMicLevel(), MIC_POLL_MS));
      if (this.listensOnDevice) {
        this.recognizer = new Recognizer(this.options.recognition!, this.listen === 'device', {
          onResult: (key, text, isFinal) => this.onRecognised(key, text, isFinal),
          onFatal: (message) => this.fail(message),
        });
        if (!this.muted) this.recognizer.start();
      }
    });
    hooks.emit('call-start');
  }

  // ---- socket -------------------------------------------------------------------------

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

  private join(options: StartCallOptions): Promise<void> {
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
        input: this.listen === 'server' ? 'audio' : 'text',
        output: this.speak === 'server' ? 'audio' : 'text',
        ...(this.listen === 'server' ? { sampleRate: UPSTREAM_SAMPLE_RATE, encoding: 'pcm16' } : {}),
      });
    });
  }

  private send(message: object): void {
    if (this.socket?.readyState === WebSocket.OPEN) this.socket.send(JSON.stringify(message));
  }

  private onSocketMessage(e: MessageEvent): void {
    if (e.data instanceof ArrayBuffer) {
      if (this.player && !this.replyDropped && !this.awaitingEcho && e.data.byteLength >= 2)
        this.player.enqueue(new Int16Array(e.data, 0, e.data.byteLength >> 1), this.sampleRate);
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
        this.readyWaiter?.resolve();
        this.readyWaiter = null;
        break;
      case 'audio-format':
        if (event.sampleRate >= 8000 && event.sampleRate <= 48_000) this.sampleRate = event.sampleRate;
        break;
      case 'interrupt':
        // The server heard the rep over the homeowner (server recognition), or confirms a cut
        // the page already made for a turn it sent.
        if (!this.awaitingEcho) this.cutOff();
        break;
      case 'transcript':
        if (event.role === 'assistant') this.onReplyText(event.transcript, event.transcriptType === 'final');
        else {
          if (event.transcriptType === 'final') this.awaitingEcho = false;
          hooks?.emit('message', event as VoiceMessage);
        }
        break;
      case 'engines':
        hooks?.emit('message', event as VoiceMessage);
        break;
      case 'error': {
        const message = event.message || CONNECTION_ERROR;
        if (this.readyWaiter) {
          this.readyWaiter.reject(new Error(message));
          this.readyWaiter = null;
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
        if (!this.closedByUs) void this.endAfterGoodbye();
        break;
      default:
        break;
    }
  }

  /** The homeowner hung up: let its last words play, then end. */
  private async endAfterGoodbye(): Promise<void> {
    const until = Date.now() + GOODBYE_WAIT_MS;
    while (this.speaker?.speaking && Date.now() < until && !this.closedByUs)
      await new Promise((r) => setTimeout(r, 100));
    if (!this.closedByUs) this.hooks?.ended();
  }

  private onSocketClosed(): void {
    this.wakeEnded();
    if (this.readyWaiter) {
      this.readyWaiter.reject(new Error(CONNECTION_ERROR));
      this.readyWaiter = null;
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

  private fail(message: string): void {
    this.hooks?.emit('error', { type: 'daily-error', error: 'speech-recognition', message });
    this.hooks?.ended();
  }

  // ---- the rep ------------------------------------------------------------------------

  private get homeownerSpeaking(): boolean {
    return (this.speaker?.speaking ?? false) || this.playingServerAudio;
  }

  private onMicLevel(): void {
    const analyser = this.analyser;
    const buf = this.levelBuf;
    if (!analyser || !buf) return;
    analyser.getFloatTimeDomainData(buf);
    let sum = 0;
    for (let i = 0; i < buf.length; i++) sum += buf[i] * buf[i];
    const level = this.muted ? 0 : Math.sqrt(sum / buf.length);
    const now = performance.now();
    const playing = this.speaker?.speaking ?? this.player?.playing ?? false;
    if (!this.speaker && playing !== this.playingServerAudio) {
      this.playingServerAudio = playing;
      if (!playing) this.homeownerQuietAt = now;
    }
    this.bargeIn.setHomeownerSpeaking(this.homeownerSpeaking, now);
    if (this.bargeIn.sample(level, now)) this.cutOff();
    if (now - this.micLevelAt >= VOLUME_OBSERVER_INTERVAL) {
      this.micLevelAt = now;
      this.hooks?.emit('mic-level', Math.min(1, level / 0.15));
    }
  }

  /** Server recognition: microphone frames up, silence while the device voice speaks (its echo). */
  private onMicFrame(pcm: Int16Array): void {
    const ws = this.socket;
    if (!ws || ws.readyState !== WebSocket.OPEN) return;
    const gate = this.muted || (this.speaker?.speaking ?? false);
    ws.send(gate ? new Int16Array(pcm.length).buffer : pcm.buffer);
  }

  private inEchoWindow(): boolean {
    return this.homeownerSpeaking || performance.now() - this.homeownerQuietAt < ECHO_TAIL_MS;
  }

  private onRecognised(key: string, raw: string, isFinal: boolean): void {
    if (this.muted || this.finalKeys.has(key)) return;
    const text = this.inEchoWindow() ? withoutEcho(raw, this.homeownerWords) : raw.trim();
    if (!text) {
      // Only the homeowner's voice: never the rep's turn.
      this.interims.delete(key);
      if (isFinal) this.finalKeys.add(key);
      return;
    }
    // The rep's own words while the homeowner talks: cut it off.
    if (this.homeownerSpeaking) this.cutOff();
    if (this.turnTimer) clearTimeout(this.turnTimer);
    this.turnTimer = null;
    if (isFinal) {
      this.finalKeys.add(key);
      this.interims.delete(key);
      this.finals.push(text);
    } else {
      this.interims.set(key, text);
    }
    const caption = [...this.finals, ...this.interims.values()].join(' ');
    this.hooks?.emit('message', {
      type: 'transcript',
      role: 'user',
      transcriptType: 'partial',
      transcript: caption,
    });
    if (this.interims.size === 0 && this.finals.length) {
      this.turnTimer = setTimeout(() => this.sendTurn(), endOfTurnDelay(caption));
    }
  }

  private sendTurn(): void {
    const text = this.finals.join(' ').trim().slice(0, MAX_USER_TEXT_CHARS);
    this.clearTurn();
    if (text) this.sendUserText(text);
  }

  /** One finished rep turn: the homeowner stops, and what it still sends of that reply is dropped. */
  private sendUserText(text: string): void {
    this.cutOff();
    this.replyDropped = false;
    this.awaitingEcho = true;
    this.resetReply();
    this.send({ type: 'user-text', text });
  }

  /** A typed turn (the page's "type instead"), in any mode. */
  sendText(text: string): void {
    const trimmed = typeof text === 'string' ? text.trim() : '';
    if (!trimmed) throw new Error('Type something to say first.');
    if (trimmed.length > MAX_USER_TEXT_CHARS)
      throw new Error(`Keep a typed turn under ${MAX_USER_TEXT_CHARS.toLocaleString('en-US')} characters.`);
    if (this.socket?.readyState !== WebSocket.OPEN || this.closedByUs)
      throw new Error('The call is not connected.');
    // Recognised words not yet sent go first, so nothing the rep said is lost.
    if (this.finals.length) this.sendTurn();
    this.clearTurn();
    this.sendUserText(trimmed);
  }

  private clearTurn(): void {
    if (this.turnTimer) clearTimeout(this.turnTimer);
    this.turnTimer = null;
    this.finals = [];
    this.interims.clear();
  }

  // ---- the homeowner ------------------------------------------------------------------

  private onReplyText(text: string, isFinal: boolean): void {
    const hooks = this.hooks;
    this.homeownerWords = text;
    if (!this.speaker) {
      // Text only, or the server voices the homeowner: its transcripts follow its audio as in the local engine.
      hooks?.emit('message', {
        type: 'transcript',
        role: 'assistant',
        transcriptType: isFinal ? 'final' : 'partial',
        transcript: text,
      });
      return;
    }
    if (this.replyDropped || this.awaitingEcho) return;
    // A reply that does not continue the one being spoken is a new one.
    if (!text.startsWith(this.replyText.slice(0, this.replyQueued))) this.resetReply();
    this.replyText = text;
    const { sentences, consumed } = completeSentences(text.slice(this.replyQueued));
    this.replyQueued += consumed;
    for (const s of sentences) this.speaker.say(s);
    if (isFinal) {
      const rest = text.slice(this.replyQueued).trim();
      this.replyQueued = text.length;
      if (rest) this.speaker.say(rest);
      this.replyFinal = true;
      if (!this.speaker.speaking) this.finishReply();
    }
  }

  private onSentenceSpoken(sentence: string): void {
    this.spoken.push(sentence);
    this.hooks?.emit('message', {
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'partial',
      transcript: this.spoken.join(' '),
    });
  }

  private onSpeakerIdle(): void {
    this.homeownerQuietAt = performance.now();
    if (this.replyFinal) this.finishReply();
  }

  /** The page's final line for the reply: the words actually spoken. */
  private finishReply(): void {
    const said = this.spoken.join(' ').trim();
    if (said)
      this.hooks?.emit('message', {
        type: 'transcript',
        role: 'assistant',
        transcriptType: 'final',
        transcript: said,
      });
    this.resetReply();
  }

  private resetReply(): void {
    this.replyText = '';
    this.replyQueued = 0;
    this.replyFinal = false;
    this.spoken = [];
  }

  /** Barge-in: the homeowner stops at once; the transcript keeps what it said. */
  private cutOff(): void {
    if (this.speaker) {
      if (!this.speaker.speaking && !this.replyText) return;
      this.replyDropped = true;
      // Cancelling reports idle; the reply is closed here, once, with the words spoken.
      const spoken = this.spoken;
      this.replyFinal = false;
      this.speaker.cancel();
      this.spoken = spoken;
      this.finishReply();
    } else if (this.player?.playing) {
      this.replyDropped = true;
      this.player.flush();
      this.playingServerAudio = false;
      this.homeownerQuietAt = performance.now();
    }
  }

  // ---- teardown -----------------------------------------------------------------------

  async stop(): Promise<void> {
    const ws = this.socket;
    const alreadyClosing = this.closedByUs;
    this.closedByUs = true;
    // Words recognised but not yet sent still count.
    if (!alreadyClosing && this.finals.length) this.sendTurn();
    if (!alreadyClosing && ws && ws.readyState === WebSocket.OPEN) {
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
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.clearTurn();
    this.recognizer?.stop();
    this.recognizer = null;
    this.speaker?.cancel();
    this.speaker = null;
    this.player?.flush();
    this.player = null;
    if (this.worklet) {
      this.worklet.port.onmessage = null;
      this.worklet.disconnect();
    }
    this.worklet = null;
    this.analyser = null;
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
