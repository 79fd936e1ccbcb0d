import { randomUUID } from 'node:crypto';
import { MAX_CALL_SEC } from '../../core/constants';
import type { Stage } from '../../core/stages';
import type { TranscriptEntry } from '../../core/transcript';
import type { BrainConversation } from '../providers/brain/types';
import { personaVoice } from '../providers/brain/personas';
import { CallRecord } from './call-record';
import type { EngineList, VoiceSessionDeps, VoiceTransport } from './session-deps';
import { ControlRate, parseControl, readFrame, TurnRate } from './inbound';
import { countWords } from '../../core/transcript';
import {
  FLOOD_ALLOWANCE_MS,
  UPSTREAM_SAMPLE_RATE,
  type CallInput,
  type CallOutput,
  type EndReason,
  type ServerEvent,
} from './protocol';
import { Listener, type RepTurn } from './listener';
import { Speaker } from './speaker';

export type { EngineList, VoiceSessionDeps, VoiceTransport } from './session-deps';

/** An opened socket must send `start` within this long; idle sockets would otherwise pile up. */
export const START_TIMEOUT_MS = 10_000;
/** Up to this many mid-call crashes of an engine are survived before the call ends. */
const MAX_ENGINE_FAILURES = 3;
/** A homeowner's reply shown as text is read (or spoken by the browser) at about this pace. */
const READING_MS_PER_WORD = 400;

export const TOO_FAST_MESSAGE =
  "That line was not sent: lines are coming faster than a conversation. Wait for the homeowner's answer, then send it again.";
export const TRANSCRIPT_FULL_MESSAGE =
  'This call has reached the most a practice call can hold, so it has ended. What was said is saved.';
export const idleMessage = (seconds: number) =>
  `The call ended because nothing was said for ${seconds} ${seconds === 1 ? 'second' : 'seconds'}. Start a new call when you are ready.`;

/**
 * One live role-play call: the socket protocol, the turn queue and ending the call. Rep turns
 * arrive through one interface (RepTurn) from the listener (speech) or as typed text; the
 * speaker voices the homeowner's replies.
 */
export class VoiceSession {
  readonly callId = randomUUID();
  private started = false;
  /** Between the start message and the session check; audio sent this early is dropped. */
  private starting = false;
  private ended = false;
  private stage: Stage = 'General';
  /** How rep turns arrive and how the homeowner answers (the start message chooses). */
  private input: CallInput = 'audio';
  private output: CallOutput = 'audio';
  private admitted = false;
  private sessionId: string | null = null;
  private conversation: BrainConversation | null = null;
  private listener: Listener | null = null;
  private speaker: Speaker | null = null;
  private readonly record = new CallRecord();
  private samplesIn = 0;
  private startWall = 0;
  private capTimer: ReturnType<typeof setTimeout> | null = null;
  private startTimer: ReturnType<typeof setTimeout> | null = null;
  private readonly controlRate = new ControlRate();
  private readonly turnRate: TurnRate;
  private engineFailures = 0;
  private turnQueue: Promise<void> = Promise.resolve();
  /** Typed rep lines waiting for the homeowner's reply to finish, in order. */
  private typedWaiting: string[] = [];
  /** Turns queued or being answered (the opening line included). */
  private turnsInFlight = 0;
  private idleTimer: ReturnType<typeof setTimeout> | null = null;
  /** Words of the homeowner's last reply: a text call's rep reads them before answering. */
  private lastReplyWords = 0;

  constructor(
    private readonly transport: VoiceTransport,
    private readonly deps: VoiceSessionDeps,
  ) {
    this.turnRate = new TurnRate(deps.turnPace?.intervalMs ?? 0, deps.turnPace?.burst ?? 1);
    this.startTimer = setTimeout(() => {
      if (!this.started && !this.starting)
        this.fail('start-timeout', 'The call was not started in time; press start to try again');
    }, deps.startTimeoutMs ?? START_TIMEOUT_MS);
  }

  /**
   * What the call costs the server, once admitted: `audio` uses its speech engines (recogniser,
   * synthesis), `text` only the homeowner's words (typed turns or the browser's own speech).
   */
  get load(): 'audio' | 'text' | null {
    if (!this.admitted || this.ended) return null;
    return this.input === 'audio' || this.output === 'audio' ? 'audio' : 'text';
  }

  get isEnded(): boolean {
    return this.ended;
  }

  /** A text frame from the socket. */
  async handleText(raw: string): Promise<void> {
    if (this.ended) return;
    if (!this.controlRate.allow(Date.now())) return this.fail('flood', 'Too many control messages');
    const parsed = parseControl(raw);
    if ('refusal' in parsed) {
      const { code, message, keepCall } = parsed.refusal;
      return keepCall ? this.send({ type: 'error', code, message }) : this.fail(code, message);
    }
    const msg = parsed.msg;
    if (msg.type === 'ping') return this.send({ type: 'pong' });
    if (msg.type === 'stop') return this.end('customer-ended-call');
    if (msg.type === 'user-text') return this.handleUserText(msg.text);
    if (this.started || this.starting) return this.fail('already-started', 'The call has already started');
    const input = msg.input ?? 'audio';
    if (input === 'audio' && msg.sampleRate !== UPSTREAM_SAMPLE_RATE) {
      return this.fail(
        'unsupported-sample-rate',
        `Send ${UPSTREAM_SAMPLE_RATE} Hz mono 16-bit PCM; got ${msg.sampleRate} Hz`,
      );
    }
    const output = msg.output ?? 'audio';
    const refusal = this.deps.admit?.({ input, output }) ?? null;
    if (refusal) return this.fail('busy', refusal);
    this.input = input;
    this.output = output;
    this.admitted = true;
    await this.begin(msg.stage, msg.sessionId || null);
  }

  /**
   * A finished rep turn that arrived as text. Recognised by the browser in a spoken call, it cuts
   * off the homeowner like spoken barge-in. Typed in a typed call, it waits for the homeowner's
   * reply to finish (a chat is read whole, never cut mid-sentence) and takes its place in the
   * transcript after it.
   */
  private handleUserText(text: string): void {
    if (!this.started) {
      return this.send({ type: 'error', code: 'bad-message', message: 'Send a start message before text' });
    }
    const received = Date.now();
    // Faster than a conversation: refused (and not kept), the call goes on.
    if (!this.turnRate.allow(received))
      return this.send({ type: 'error', code: 'too-fast', message: TOO_FAST_MESSAGE });
    const typed = this.input === 'text';
    if (typed) this.typedWaiting.push(text);
    else {
      this.speaker?.interrupt();
      // Final as they arrive: kept now, so a call that ends while an earlier reply is still
      // queued (the rep stops right after speaking) does not lose the rep's last turn.
      this.finalUserLine(text);
    }
    this.acceptTurn({
      speechEndWall: received,
      waitedMs: 0,
      words: async () => {
        if (typed) this.finalUserLine(this.typedWaiting.shift() ?? text);
        return { text, sttMs: 0, recorded: true };
      },
    });
  }

  /** A binary frame: 16 kHz mono Int16 little-endian PCM. */
  handleBinary(data: Buffer): void {
    if (this.ended) return;
    if (this.starting) return;
    if (!this.started) return this.fail('not-started', 'Send a start message before audio');
    if (this.input !== 'audio')
      return this.fail('bad-frame', 'This call takes typed turns; audio frames are not accepted');
    if (data.length === 0) return;
    const frame = readFrame(data);
    if ('refusal' in frame) return this.fail(frame.refusal.code, frame.refusal.message);
    const { samples } = frame;
    this.samplesIn += samples.length;
    const audioMs = (this.samplesIn / UPSTREAM_SAMPLE_RATE) * 1000;
    if (audioMs > Date.now() - this.startWall + FLOOD_ALLOWANCE_MS) {
      return this.fail('flood', 'Audio is arriving faster than real time');
    }
    this.listener?.push(samples);
  }

  /** The socket closed (or broke): keep what was said, release everything. */
  async handleClose(): Promise<void> {
    await this.end('connection-lost', { notify: false });
  }

  private send(event: ServerEvent): void {
    if (this.ended && event.type !== 'ended' && event.type !== 'error') return;
    try {
      this.transport.sendJson(event);
    } catch {
      // The socket is gone; the close handler tears the call down.
    }
  }

  private async begin(stage: Stage, sessionId: string | null): Promise<void> {
    this.starting = true;
    const known =
      !sessionId || !this.deps.beginCall || (await this.deps.beginCall(sessionId).catch(() => false));
    this.starting = false;
    if (!known) return this.fail('unknown-session', `No role-play session ${sessionId}`);
    if (this.ended) return;
    this.started = true;
    if (this.startTimer) clearTimeout(this.startTimer);
    this.stage = stage;
    this.sessionId = sessionId;
    this.startWall = Date.now();
    this.speaker = new Speaker(this.deps.tts, this.output, {
      send: (e) => this.send(e),
      sendAudio: (pcm) => this.transport.sendAudio(pcm),
      ended: () => this.ended,
      said: (text) => {
        this.lastReplyWords = countWords(text);
        this.keep('assistant', text);
      },
      onTurnLatency: this.deps.onTurnLatency,
    });
    try {
      if (this.input === 'audio') this.listener = this.listen();
      this.conversation = this.deps.brain.startConversation({ stage, seed: this.deps.seed });
    } catch (err) {
      this.deps.log?.error({ err }, 'voice engines failed to start');
      return this.fail('engine-failed', 'The voice engines could not start');
    }
    const maxMs = this.deps.maxCallMs ?? MAX_CALL_SEC * 1000;
    // The page stops at 300 s; the server enforces it too, a moment later.
    this.capTimer = setTimeout(() => void this.end('max-duration'), maxMs + 1000);
    this.armIdle();
    this.send({ type: 'ready', callId: this.callId, maxCallSec: Math.round(maxMs / 1000) });
    this.send({ type: 'engines', engines: this.usedEngines() });
    const opening = this.conversation.opening();
    this.enqueueTurn(() => this.answer(() => single(opening)));
  }

  private usedEngines(): EngineList {
    return this.deps.engines.filter((e) => this.usesEngine(e.capability));
  }

  /** Whether this call's modes use an engine of that capability (typed calls hear nothing). */
  private usesEngine(capability: string): boolean {
    if (this.input === 'text' && TEXT_INPUT_UNUSED.has(capability)) return false;
    return !(this.output === 'text' && capability === 'text-to-speech');
  }

  private listen(): Listener {
    const { vad, stt, decodeQueue, createStream, turnTaking, log } = this.deps;
    return new Listener(
      { vad, stt, decodeQueue, createStream, turnTaking, log },
      {
        send: (e) => this.send(e),
        assistantSpeaking: () => this.speaker?.audible ?? false,
        speechStarted: () => {
          this.armIdle();
          this.speaker?.dropSilentReply();
        },
        bargeIn: () => this.speaker?.interrupt(),
        turn: (turn) => this.acceptTurn(turn),
        fail: (code, message) => this.fail(code, message),
      },
    );
  }

  // ---- turns -----------------------------------------------------------------------------

  /** Turns are handled one at a time, in order, so replies never overlap. */
  private enqueueTurn(job: () => Promise<void>): void {
    this.turnsInFlight++;
    this.armIdle();
    this.turnQueue = this.turnQueue
      .then(job)
      .catch((err) => {
        this.deps.log?.error({ err }, 'voice turn failed');
        if (++this.engineFailures >= MAX_ENGINE_FAILURES)
          this.fail('engine-failed', 'The voice engines keep failing');
      })
      .finally(() => {
        this.turnsInFlight--;
        // The rep's time to answer starts when the reply is over (read, for a text reply).
        const readingMs =
          this.output === 'text' ? Math.min(60_000, this.lastReplyWords * READING_MS_PER_WORD) : 0;
        this.armIdle(readingMs);
      });
  }

  // ---- idle --------------------------------------------------------------------------------

  /** (Re)starts the idle clock: the call ends if the rep stays silent that long from now. */
  private armIdle(extraMs = 0): void {
    const idleMs = this.deps.idleMs ?? 0;
    if (idleMs <= 0 || this.ended || !this.started) return;
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => this.idleCheck(), idleMs + extraMs);
  }

  private idleCheck(): void {
    if (this.ended) return;
    // Still answering, playing a reply or hearing the rep: not idle; look again later.
    if (this.turnsInFlight > 0 || this.speaker?.audible || this.listener?.hearingSpeech)
      return this.armIdle();
    this.fail('idle', idleMessage(Math.round((this.deps.idleMs ?? 0) / 1000)));
  }

  /** The turn source: every finished rep turn, spoken or typed, enters the call here. */
  private acceptTurn(turn: RepTurn): void {
    this.enqueueTurn(async () => {
      if (this.ended) return;
      const words = await turn.words();
      if (this.ended || !words) return;
      if (!words.recorded) this.finalUserLine(words.text);
      const conversation = this.conversation!;
      await this.answer((signal) => conversation.reply(this.record.history, { signal }), {
        speechEndWall: turn.speechEndWall,
        waitedMs: turn.waitedMs,
        sttMs: words.sttMs,
      });
    });
  }

  /** The homeowner's reply, spoken; a homeowner who has had enough then closes the door. */
  private async answer(
    write: (signal: AbortSignal) => AsyncIterable<string>,
    timing?: Parameters<Speaker['say']>[2],
  ): Promise<void> {
    if (this.ended || !this.conversation || !this.speaker) return;
    const finished = await this.speaker.say(write, personaVoice(this.stage), timing);
    if (!finished) return;
    // A homeowner who has had enough (repeated pressure) closes the door once it has said so;
    // a rep's goodbye, once answered, ends the call as the rep's hang-up.
    const endCall = this.conversation.endCall ?? (this.conversation.finished ? 'homeowner' : null);
    if (endCall) await this.end(endCall === 'goodbye' ? 'customer-ended-call' : 'homeowner-ended-call');
  }

  /** A rep turn's final words: shown to the page and kept. */
  private finalUserLine(text: string): void {
    this.send({ type: 'transcript', role: 'user', transcriptType: 'final', transcript: text });
    this.keep('user', text);
  }

  /** Keeps a final line; a record that can hold no more ends the call, keeping what it has. */
  private keep(role: 'user' | 'assistant', text: string): void {
    this.record.add(role, text);
    if (!this.record.full || this.ended) return;
    this.send({ type: 'error', code: 'transcript-full', message: TRANSCRIPT_FULL_MESSAGE });
    void this.end('max-duration');
  }

  // ---- ending ------------------------------------------------------------------------------

  private fail(code: string, message: string): void {
    if (this.ended) return;
    this.send({ type: 'error', code, message });
    void this.end('error');
  }

  private async end(reason: EndReason, opts: { notify?: boolean } = {}): Promise<void> {
    if (this.ended) return;
    // The reply is cut first, while its final words can still be sent and kept.
    this.speaker?.interrupt();
    this.ended = true;
    if (this.capTimer) clearTimeout(this.capTimer);
    if (this.startTimer) clearTimeout(this.startTimer);
    if (this.idleTimer) clearTimeout(this.idleTimer);
    this.listener?.close();
    this.listener = null;
    // Typed lines still waiting their turn were said all the same.
    for (const line of this.typedWaiting.splice(0)) this.record.add('user', line);
    // Saved before the page hears the call ended, so the page's own save comes after ours.
    if (this.started && this.sessionId) {
      const target = { sessionId: this.sessionId, startWall: this.startWall, engines: this.usedEngines() };
      await this.record.save(this.deps.saveTranscript, target, this.deps.log);
    }
    if (opts.notify !== false) {
      this.send({ type: 'ended', reason });
      try {
        this.transport.close(reason === 'error' ? 1008 : 1000, reason);
      } catch {
        // Already closed.
      }
    }
  }

  /** Final entries so far (tests and the bench read it). */
  get finalTranscript(): TranscriptEntry[] {
    return this.record.finals();
  }
}

/** Capabilities a call with typed rep turns never uses. */
const TEXT_INPUT_UNUSED = new Set(['speech-to-text', 'voice-activity', 'live-speech-to-text']);

async function* single(text: string): AsyncIterable<string> {
  yield text;
}
