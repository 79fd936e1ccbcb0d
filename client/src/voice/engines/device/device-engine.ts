import { VOLUME_OBSERVER_INTERVAL } from '@core/constants';
import { PERSONA_VOICES, webSpeechSettings } from '@core/persona-voice';
import { UPSTREAM_SAMPLE_RATE, type ServerEvent } from '@core/voice-protocol';
import { pickVoice, type SpeechPlan } from '../../device-speech';
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
import { DeviceReply } from './device-reply';
import { Recognizer } from './recognizer';
import { RepTurn } from './rep-turn';
import { BargeInDetector, isEcho, withoutEcho } from './speech-logic';
import type { SpeechRecognitionCtor } from './web-speech';

/** How often the microphone level is read for barge-in (one analyser window). */
const MIC_POLL_MS = 20;
/** After the homeowner stops, recognised words are still checked for echo this long. */
const ECHO_TAIL_MS = 800;
/** A homeowner hang-up lets the last words finish before the call ends, up to this long. */
const GOODBYE_WAIT_MS = 8000;

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
  private socket: CallSocket | null = null;
  private hooks: EngineHooks | null = null;
  private readonly audio = new CallAudio();
  /** The homeowner's reply in the device's voice (when the device speaks). */
  private reply: DeviceReply | null = null;
  private recognizer: Recognizer | null = null;
  private timers: ReturnType<typeof setInterval>[] = [];
  private closedByUs = false;
  private muted = false;
  private sampleRate = 22_050;
  private micLevelAt = 0;
  private readonly bargeIn = new BargeInDetector();

  /** The rep's turn being recognised. */
  private readonly turn = new RepTurn(() => this.sendTurn());

  // The homeowner's reply.
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
      this.turn.clear();
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
        this.reply = new DeviceReply(synth, voice, webSpeechSettings(PERSONA_VOICES[options.stage]), {
          emit: (message) => this.hooks?.emit('message', message),
          onIdle: () => (this.homeownerQuietAt = performance.now()),
        });
      }
      if (this.listensOnDevice && !this.options.recognition) {
        throw new Error("This device's speech recognition is not available");
      }
    });
    await hooks.step('mobile-permissions', async () => {
      if (this.usesMicrophone) await this.audio.requestMicrophone();
    });
    await hooks.step('web-call-creation', () => this.openSocket());
    await hooks.step('daily-call-object-creation', async () => {
      if (this.usesMicrophone) await this.audio.openCapture(this.listen === 'server');
      if (this.speak === 'server') this.audio.openPlayback();
    });
    await hooks.step('daily-call-join', () => this.join(options));
    await hooks.step('video-recording-setup', () => undefined, { skipped: 'audio-only call' });
    await hooks.step('audio-observer-setup', () => {
      this.timers.push(
        setInterval(() => {
          const level = this.reply ? this.reply.level() : (this.audio.player?.level() ?? 0);
          hooks.remoteLevel(level);
        }, VOLUME_OBSERVER_INTERVAL),
      );
    });
    await hooks.step('audio-processing-setup', async () => {
      const wired = this.audio.connectMicrophone({
        analyser: true,
        onFrame: this.listen === 'server' ? ({ pcm }) => this.onMicFrame(pcm) : undefined,
      });
      await this.audio.resume();
      if (!wired) return;
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
    this.socket = new CallSocket(this.url, {
      onAudio: (pcm) => {
        if (this.audio.player && !this.replyDropped && !this.awaitingEcho)
          this.audio.player.enqueue(pcm, this.sampleRate);
      },
      onEvent: (event) => this.onServerEvent(event),
      onClosed: () => this.onSocketClosed(),
    });
    return this.socket.connect();
  }

  private join(options: StartCallOptions): Promise<void> {
    return this.socket!.start({
      type: 'start',
      sessionId: options.sessionId,
      stage: options.stage,
      input: this.listen === 'server' ? 'audio' : 'text',
      output: this.speak === 'server' ? 'audio' : 'text',
      ...(this.listen === 'server' ? { sampleRate: UPSTREAM_SAMPLE_RATE, encoding: 'pcm16' } : {}),
    });
  }

  private send(message: object): void {
    this.socket?.send(message);
  }

  private onServerEvent(event: ServerEvent): void {
    const hooks = this.hooks;
    switch (event.type) {
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
        if (!this.socket?.failStart(new Error(message))) {
          hooks?.emit('error', serverErrorEvent(event, message));
        }
        break;
      }
      case 'ended':
        if (!this.closedByUs) void this.endAfterGoodbye();
        break;
      default:
        break;
    }
  }

  /** The homeowner hung up: let its last words play, then end. */
  private async endAfterGoodbye(): Promise<void> {
    const until = Date.now() + GOODBYE_WAIT_MS;
    while (this.reply?.speaking && Date.now() < until && !this.closedByUs)
      await new Promise((r) => setTimeout(r, 100));
    if (!this.closedByUs) this.hooks?.ended();
  }

  private onSocketClosed(): void {
    if (!this.closedByUs && this.hooks) {
      this.hooks.emit('error', { type: 'daily-error', error: 'connection-lost', message: CONNECTION_ERROR });
      this.hooks.ended();
    }
  }

  private fail(message: string): void {
    this.hooks?.emit('error', { type: 'daily-error', error: 'speech-recognition', message });
    this.hooks?.ended();
  }

  // ---- the rep ------------------------------------------------------------------------

  private get homeownerSpeaking(): boolean {
    return (this.reply?.speaking ?? false) || this.playingServerAudio;
  }

  private onMicLevel(): void {
    const rms = this.audio.micLevel();
    if (rms === null) return;
    const level = this.muted ? 0 : rms;
    const now = performance.now();
    const playing = this.reply?.speaking ?? this.audio.player?.playing ?? false;
    if (!this.reply && playing !== this.playingServerAudio) {
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
    if (!this.socket?.isOpen) return;
    const gate = this.muted || (this.reply?.speaking ?? false);
    this.socket.sendAudio(gate ? new Int16Array(pcm.length).buffer : pcm.buffer);
  }

  private inEchoWindow(): boolean {
    return this.homeownerSpeaking || performance.now() - this.homeownerQuietAt < ECHO_TAIL_MS;
  }

  private onRecognised(key: string, raw: string, isFinal: boolean): void {
    if (this.muted || this.turn.isDone(key)) return;
    const text = this.homeownerSpeaking
      ? withoutEcho(raw, this.homeownerWords)
      : this.inEchoWindow() && isEcho(raw, this.homeownerWords)
        ? ''
        : raw.trim();
    if (!text) {
      // Only the homeowner's voice: never the rep's turn.
      this.turn.discard(key, isFinal);
      return;
    }
    // The rep's own words while the homeowner talks: cut it off.
    if (this.homeownerSpeaking) this.cutOff();
    const caption = this.turn.add(key, text, isFinal);
    this.hooks?.emit('message', {
      type: 'transcript',
      role: 'user',
      transcriptType: 'partial',
      transcript: caption,
    });
  }

  private sendTurn(): void {
    const text = this.turn.take();
    if (text) this.sendUserText(text);
  }

  /** One finished rep turn: the homeowner stops, and what it still sends of that reply is dropped. */
  private sendUserText(text: string): void {
    this.cutOff();
    this.replyDropped = false;
    this.awaitingEcho = true;
    this.reply?.reset();
    this.send({ type: 'user-text', text });
  }

  /** A typed turn (the page's "type instead"), in any mode. */
  sendText(text: string): void {
    const trimmed = typedTurn(text, !!this.socket?.isOpen && !this.closedByUs);
    // Recognised words not yet sent go first, so nothing the rep said is lost.
    if (this.turn.pending) this.sendTurn();
    this.turn.clear();
    this.sendUserText(trimmed);
  }

  // ---- the homeowner ------------------------------------------------------------------

  private onReplyText(text: string, isFinal: boolean): void {
    const hooks = this.hooks;
    this.homeownerWords = text;
    if (!this.reply) {
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
    this.reply.update(text, isFinal);
  }

  /** Barge-in: the homeowner stops at once; the transcript keeps what it said. */
  private cutOff(): void {
    if (this.reply) {
      if (this.reply.cutOff()) this.replyDropped = true;
    } else if (this.audio.player?.playing) {
      this.replyDropped = true;
      this.audio.player.flush();
      this.playingServerAudio = false;
      this.homeownerQuietAt = performance.now();
    }
  }

  // ---- teardown -----------------------------------------------------------------------

  async stop(): Promise<void> {
    const alreadyClosing = this.closedByUs;
    this.closedByUs = true;
    // Words recognised but not yet sent still count.
    if (!alreadyClosing && this.turn.pending) this.sendTurn();
    if (!alreadyClosing) await this.socket?.stop();
    this.release();
  }

  private release(): void {
    for (const t of this.timers) clearInterval(t);
    this.timers = [];
    this.turn.clear();
    this.recognizer?.stop();
    this.recognizer = null;
    this.reply?.cancel();
    this.reply = null;
    this.audio.release();
    this.socket?.close();
    this.socket = null;
  }
}
