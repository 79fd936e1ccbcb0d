import { randomUUID } from 'node:crypto';
import { MAX_CALL_SEC } from '../../core/constants';
import type { Stage } from '../../core/stages';
import type { TranscriptEntry } from '../../core/transcript';
import type { BrainConversation, BrainTurn, PersonaBrain } from '../providers/brain/types';
import type { SpeechToText } from '../providers/stt/types';
import type { TextToSpeech } from '../providers/tts/types';
import type { DecodeQueue } from './decode-queue';
import { concatPcm, int16ToFloat32 } from '../audio/wav';
import {
  clientMessageSchema,
  FLOOD_ALLOWANCE_MS,
  MAX_USER_TEXT_CHARS,
  MAX_CONTROL_PER_SEC,
  MAX_FRAME_BYTES,
  UPSTREAM_SAMPLE_RATE,
  type CallInput,
  type CallOutput,
  type EndReason,
  type ServerEvent,
} from './protocol';
import type { LiveRecognizer } from '../providers/stt/live/types';
import { SentenceSplitter, spokenPrefix } from './sentences';
import { TurnDetector, type TurnEvent, type TurnTakingOptions } from './turn-taking';
import { VAD_WINDOW, VAD_WINDOW_MS, type FrameVad, type VadFactory } from '../providers/vad/types';

export interface VoiceTransport {
  sendJson(event: ServerEvent): void;
  sendAudio(pcm: Int16Array): void;
  close(code: number, reason: string): void;
}

type EngineList = Extract<ServerEvent, { type: 'engines' }>['engines'];

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
  /** Checks that a session id names a role-play session. */
  sessionExists?(sessionId: string): Promise<boolean>;
  log?: { warn(o: object, m?: string): void; error(o: object, m?: string): void };
  turnTaking?: Partial<TurnTakingOptions>;
  maxCallMs?: number;
  /** A socket that has not sent `start` by then is closed (default START_TIMEOUT_MS). */
  startTimeoutMs?: number;
  /** Seed for the homeowner's choices (tests); random otherwise. */
  seed?: number;
  /**
   * Server-wide room for one more call of these modes: null admits it, else the message of the
   * `busy` refusal. Asked once, at `start`, before anything is set up.
   */
  admit?(modes: { input: CallInput; output: CallOutput }): string | null;
}

/** Keep this much audio before speech starts, so the first syllable reaches the recogniser. */
const PRE_ROLL_WINDOWS = 10;
/** New speech between live-caption decodes (whole-utterance decodes on a shared queue). */
const PARTIAL_EVERY_MS = 900;
/** New speech between caption requests to a warm recogniser (cheap: its running hypothesis). */
const LIVE_PARTIAL_EVERY_MS = 300;
/** A warm recogniser that takes longer than this for a caption is skipped for that caption. */
const LIVE_PARTIAL_TIMEOUT_MS = 1000;
/** The browser's jitter buffer delays playback by about this much after the first chunk. */
const CLIENT_JITTER_MS = 120;
/**
 * How long to wait for the warm recogniser's final words. It normally answers within tens of
 * milliseconds; when it lags (an overloaded machine), waiting still beats a fresh decoder, which
 * must first load its model on that same busy machine.
 */
const STREAM_WAIT_MS = 5000;
/** An opened socket must send `start` within this long; idle sockets would otherwise pile up. */
export const START_TIMEOUT_MS = 10_000;
/** Up to this many mid-call crashes of an engine are survived before the call ends. */
const MAX_ENGINE_FAILURES = 3;

interface ActiveReply {
  controller: AbortController;
  /** Sentences with their place on the playback timeline (ms from playback start). */
  sentences: { text: string; startMs: number; endMs: number }[];
  playStartWall: number | null;
  timelineEndMs: number;
  finalTimer: ReturnType<typeof setTimeout> | null;
  generating: boolean;
  done: boolean;
}

interface Utterance {
  id: number;
  chunks: Int16Array[];
  samples: number;
  lastPartialAtSamples: number;
  partialInFlight: boolean;
  lastPartial: string;
  speculative: { samples: number; promise: Promise<string>; controller: AbortController } | null;
}

/** One live role-play call: audio in, VAD and turn-taking, recogniser, homeowner brain, voice out. */
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
  private vad: FrameVad | null = null;
  private turns: TurnDetector;
  private readonly history: BrainTurn[] = [];
  private readonly transcript: TranscriptEntry[] = [];
  private residual = new Int16Array(0);
  private samplesIn = 0;
  private samplesProcessed = 0;
  private stream: LiveRecognizer | null = null;
  private startWall = 0;
  private lastSpeechWall = 0;
  private preRoll: Int16Array[] = [];
  private utterance: Utterance | null = null;
  private utteranceSeq = 0;
  private reply: ActiveReply | null = null;
  private capTimer: ReturnType<typeof setTimeout> | null = null;
  private startTimer: ReturnType<typeof setTimeout> | null = null;
  private controlWindowStart = 0;
  private controlCount = 0;
  private engineFailures = 0;
  private sentFormat = 0;
  private turnQueue: Promise<void> = Promise.resolve();

  constructor(
    private readonly transport: VoiceTransport,
    private readonly deps: VoiceSessionDeps,
  ) {
    this.turns = new TurnDetector(deps.turnTaking);
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
    const now = Date.now();
    if (now - this.controlWindowStart > 1000) {
      this.controlWindowStart = now;
      this.controlCount = 0;
    }
    if (++this.controlCount > MAX_CONTROL_PER_SEC) return this.fail('flood', 'Too many control messages');
    let json: unknown;
    try {
      json = JSON.parse(raw);
    } catch {
      return this.fail('bad-message', 'Control messages must be JSON');
    }
    const parsed = clientMessageSchema.safeParse(json);
    if (!parsed.success && isUserText(json)) {
      // A bad typed turn is the rep's slip, not a broken client: say so and keep the call.
      return this.send({
        type: 'error',
        code: 'bad-message',
        message: `A typed turn needs 1 to ${MAX_USER_TEXT_CHARS} characters of text`,
      });
    }
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      const where = issue?.path.length ? `${issue.path.join('.')}: ` : '';
      return this.fail('bad-message', `Invalid message: ${where}${issue?.message ?? 'unknown shape'}`);
    }
    const msg = parsed.data;
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
   * A finished rep turn that arrived as text (typed, or recognised by the browser): in either
   * input mode it cuts off the homeowner like spoken barge-in, then is answered like speech.
   */
  private handleUserText(text: string): void {
    if (!this.started) {
      return this.send({ type: 'error', code: 'bad-message', message: 'Send a start message before text' });
    }
    const received = Date.now();
    this.interruptReply();
    this.enqueueTurn(async () => {
      if (this.ended) return;
      this.send({ type: 'transcript', role: 'user', transcriptType: 'final', transcript: text });
      this.recordFinal('user', text);
      await this.speakReply(null, {
        eotWall: received,
        waitedMs: 0,
        speechEndWall: received,
        sttMs: 0,
      });
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
    if (data.length % 2 !== 0) return this.fail('bad-frame', 'Audio frames must hold whole 16-bit samples');
    if (data.length > MAX_FRAME_BYTES)
      return this.fail('frame-too-large', `Audio frames are limited to ${MAX_FRAME_BYTES} bytes`);
    const samples = new Int16Array(data.length / 2);
    for (let i = 0; i < samples.length; i++) samples[i] = data.readInt16LE(i * 2);
    this.samplesIn += samples.length;
    const audioMs = (this.samplesIn / UPSTREAM_SAMPLE_RATE) * 1000;
    if (audioMs > Date.now() - this.startWall + FLOOD_ALLOWANCE_MS) {
      return this.fail('flood', 'Audio is arriving faster than real time');
    }
    this.consume(samples);
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
      !sessionId || !this.deps.sessionExists || (await this.deps.sessionExists(sessionId).catch(() => false));
    this.starting = false;
    if (!known) return this.fail('unknown-session', `No role-play session ${sessionId}`);
    if (this.ended) return;
    this.started = true;
    if (this.startTimer) clearTimeout(this.startTimer);
    this.stage = stage;
    this.sessionId = sessionId;
    this.startWall = Date.now();
    try {
      if (this.input === 'audio') {
        this.vad = this.deps.vad.create();
        this.stream = this.deps.createStream?.() ?? null;
      }
      this.conversation = this.deps.brain.startConversation({ stage, seed: this.deps.seed });
    } catch (err) {
      this.deps.log?.error({ err }, 'voice engines failed to start');
      return this.fail('engine-failed', 'The voice engines could not start');
    }
    const maxMs = this.deps.maxCallMs ?? MAX_CALL_SEC * 1000;
    // The page stops at 300 s; the server enforces it too, a moment later.
    this.capTimer = setTimeout(() => void this.end('max-duration'), maxMs + 1000);
    this.send({ type: 'ready', callId: this.callId, maxCallSec: Math.round(maxMs / 1000) });
    this.send({ type: 'engines', engines: this.usedEngines() });
    const opening = this.conversation.opening();
    this.enqueueTurn(() => this.speakReply(opening));
  }

  private usedEngines(): EngineList {
    return this.deps.engines.filter((e) => this.usesEngine(e.capability));
  }

  /** Whether this call's modes use an engine of that capability (typed calls hear nothing). */
  private usesEngine(capability: string): boolean {
    if (this.input === 'text' && TEXT_INPUT_UNUSED.has(capability)) return false;
    return !(this.output === 'text' && capability === 'text-to-speech');
  }

  // ---- audio in -------------------------------------------------------------------------

  private consume(samples: Int16Array): void {
    let buf = samples;
    if (this.residual.length) {
      buf = new Int16Array(this.residual.length + samples.length);
      buf.set(this.residual);
      buf.set(samples, this.residual.length);
    }
    let offset = 0;
    while (offset + VAD_WINDOW <= buf.length) {
      const window = buf.slice(offset, offset + VAD_WINDOW);
      offset += VAD_WINDOW;
      this.processWindow(window);
      if (this.ended) return;
    }
    this.residual = buf.slice(offset);
  }

  private processWindow(window: Int16Array): void {
    const vad = this.vad;
    if (!vad) return;
    let speech: boolean;
    try {
      speech = vad.isSpeech(int16ToFloat32(window));
    } catch (err) {
      this.deps.log?.error({ err }, 'voice activity detection failed');
      return this.fail('engine-failed', 'Voice activity detection failed');
    }
    const now = Date.now();
    if (speech) this.lastSpeechWall = now;
    this.samplesProcessed += window.length;
    const streamMs = (this.samplesProcessed / UPSTREAM_SAMPLE_RATE) * 1000;
    const assistantSpeaking = this.reply !== null && !this.reply.done && this.reply.playStartWall !== null;
    const events = this.turns.push(speech, VAD_WINDOW_MS, streamMs, assistantSpeaking);

    if (this.utterance) {
      this.utterance.chunks.push(window);
      this.utterance.samples += window.length;
      if (this.stream?.alive) this.stream.write(window);
    } else {
      this.preRoll.push(window);
      if (this.preRoll.length > PRE_ROLL_WINDOWS) this.preRoll.shift();
    }
    for (const e of events) this.onTurnEvent(e, now);
    if (this.utterance && this.turns.speaking) this.maybePartial();
  }

  private onTurnEvent(event: TurnEvent, now: number): void {
    switch (event.type) {
      case 'speech-start': {
        const chunks = this.preRoll;
        this.preRoll = [];
        this.utterance = {
          id: ++this.utteranceSeq,
          chunks,
          samples: chunks.reduce((n, c) => n + c.length, 0),
          lastPartialAtSamples: 0,
          partialInFlight: false,
          lastPartial: '',
          speculative: null,
        };
        if (this.stream?.alive) {
          this.stream.begin();
          this.stream.write(this.utterancePcm(this.utterance));
        }
        this.send({ type: 'speech-start', role: 'user' });
        // A reply still being written (no audio yet) is dropped: the rep has more to say.
        if (this.reply && this.reply.playStartWall === null) this.interruptReply();
        break;
      }
      case 'barge-in':
        this.interruptReply();
        break;
      case 'pause':
        this.startSpeculativeDecode();
        break;
      case 'resume':
        if (this.utterance?.speculative) {
          this.utterance.speculative.controller.abort();
          this.utterance.speculative = null;
        }
        break;
      case 'end-of-turn': {
        const u = this.utterance;
        this.utterance = null;
        this.send({ type: 'speech-end', role: 'user' });
        if (!u) break;
        const eotWall = now;
        const waitedMs = eotWall - this.lastSpeechWall;
        const speechEndWall = this.lastSpeechWall;
        // Closed now, not when the turn's job runs: the next utterance may begin before that.
        const live = this.stream?.alive ? this.stream.end(STREAM_WAIT_MS * 3) : null;
        live?.catch(() => undefined);
        this.enqueueTurn(() => this.finishUserTurn(u, live, { eotWall, waitedMs, speechEndWall }));
        break;
      }
    }
  }

  private utterancePcm(u: Utterance): Int16Array {
    return concatPcm(u.chunks, u.samples);
  }

  private decode(pcm: Int16Array, signal?: AbortSignal): Promise<string> {
    return this.deps.stt.transcribe(pcm, { signal }).then((segments) =>
      segments
        .map((s) => s.text.trim())
        .filter(Boolean)
        .join(' ')
        .replace(/\s+/g, ' ')
        .trim(),
    );
  }

  private startSpeculativeDecode(): void {
    const u = this.utterance;
    // A warm live recogniser has the words already; a second decode would only cost CPU.
    if (!u || u.speculative || this.stream?.alive) return;
    const controller = new AbortController();
    const pcm = this.utterancePcm(u);
    const promise = this.deps.decodeQueue.runFinal(() => this.decode(pcm, controller.signal));
    promise.catch(() => undefined);
    u.speculative = { samples: u.samples, promise, controller };
  }

  private maybePartial(): void {
    const u = this.utterance;
    if (!u || u.partialInFlight) return;
    const live = this.stream?.alive ? this.stream : null;
    const every = live ? LIVE_PARTIAL_EVERY_MS : PARTIAL_EVERY_MS;
    if (((u.samples - u.lastPartialAtSamples) / UPSTREAM_SAMPLE_RATE) * 1000 < every) return;
    u.partialInFlight = true;
    u.lastPartialAtSamples = u.samples;
    let caption: Promise<string | null>;
    if (live) {
      caption = live.partial(LIVE_PARTIAL_TIMEOUT_MS);
    } else {
      const pcm = this.utterancePcm(u);
      caption = this.deps.decodeQueue.tryPartial(
        () => this.decode(pcm),
        (pcm.length / UPSTREAM_SAMPLE_RATE) * 1000,
      );
    }
    void caption
      .then((text) => {
        if (text === null || this.ended || this.utterance !== u || !text || text === u.lastPartial) return;
        u.lastPartial = text;
        this.turns.setTranscriptHint(text);
        this.send({ type: 'transcript', role: 'user', transcriptType: 'partial', transcript: text });
      })
      .catch((err) => this.deps.log?.warn({ err }, 'partial decode failed'))
      .finally(() => {
        u.partialInFlight = false;
      });
  }

  // ---- turns -----------------------------------------------------------------------------

  /** Turns are handled one at a time, in order, so replies never overlap. */
  private enqueueTurn(job: () => Promise<void>): void {
    this.turnQueue = this.turnQueue.then(job).catch((err) => {
      this.deps.log?.error({ err }, 'voice turn failed');
      if (++this.engineFailures >= MAX_ENGINE_FAILURES)
        this.fail('engine-failed', 'The voice engines keep failing');
    });
  }

  private async finishUserTurn(
    u: Utterance,
    live: Promise<string | null> | null,
    timing: { eotWall: number; waitedMs: number; speechEndWall: number },
  ): Promise<void> {
    if (this.ended) return;
    let text: string;
    const sttStart = Date.now();
    try {
      const heard = live ? await within(live, STREAM_WAIT_MS) : null;
      if (typeof heard === 'string') {
        text = heard;
      } else if (live && u.lastPartial) {
        // The warm recogniser is behind (an overloaded machine) or died: its latest caption is
        // the best guess, and a fresh decode would load its model on that same busy machine.
        text = u.lastPartial;
      } else if (live && heard === undefined && this.stream?.alive) {
        // Behind with no caption yet: it still has the audio, so wait for it a while longer.
        text = (await live) ?? '';
      } else {
        const spec = u.speculative;
        // The speculative decode is valid when no speech arrived after it started.
        text =
          spec && !spec.controller.signal.aborted
            ? await spec.promise
            : await this.deps.decodeQueue.runFinal(() => this.decode(this.utterancePcm(u)));
      }
    } catch (err) {
      this.deps.log?.warn({ err }, 'speech recognition failed');
      text = '';
    }
    if (this.ended) return;
    const sttMs = Date.now() - sttStart;
    if (!text) {
      // Noise or a cough: nothing to answer. Clear a caption that may be showing.
      if (u.lastPartial)
        this.send({ type: 'transcript', role: 'user', transcriptType: 'final', transcript: u.lastPartial });
      if (!u.lastPartial) return;
      text = u.lastPartial;
    } else {
      this.send({ type: 'transcript', role: 'user', transcriptType: 'final', transcript: text });
    }
    this.recordFinal('user', text);
    await this.speakReply(null, { ...timing, sttMs });
  }

  private recordFinal(role: 'user' | 'assistant', text: string): void {
    this.transcript.push({ role, transcript: text, timestamp: Date.now(), transcriptType: 'final' });
    this.history.push({ role, text });
  }

  /**
   * Streams the homeowner's answer: brain text -> sentences -> speech audio, sent as it is
   * made. `fixed` is a line known in advance (the opening).
   */
  private async speakReply(
    fixed: string | null,
    timing?: { eotWall: number; waitedMs: number; speechEndWall: number; sttMs: number },
  ): Promise<void> {
    if (this.ended || !this.conversation) return;
    const reply: ActiveReply = {
      controller: new AbortController(),
      sentences: [],
      playStartWall: null,
      timelineEndMs: 0,
      finalTimer: null,
      generating: true,
      done: false,
    };
    this.reply = reply;
    const signal = reply.controller.signal;
    const brainStart = Date.now();
    let brainFirstTextMs = -1;
    let ttsFirstAudioMs = -1;
    const splitter = new SentenceSplitter();
    const show = (sentence: string) => {
      if (signal.aborted || this.ended) return;
      if (reply.sentences.length === 0 && timing) {
        const now = Date.now();
        // Text output: the reply is "heard" when it is shown, so its first text is its first audio.
        this.send({
          type: 'turn-metrics',
          endOfTurnWaitMs: timing.waitedMs,
          sttMs: timing.sttMs,
          brainFirstTextMs,
          ttsFirstAudioMs: 0,
          speechEndToAudioMs: now - timing.speechEndWall,
          audioMs: 0,
        });
      }
      reply.sentences.push({ text: sentence, startMs: 0, endMs: 0 });
      this.send({
        type: 'transcript',
        role: 'assistant',
        transcriptType: 'partial',
        transcript: reply.sentences.map((s) => s.text).join(' '),
      });
    };
    const speak = async (sentence: string) => {
      if (signal.aborted) return;
      if (this.output === 'text') return show(sentence);
      const ttsStart = Date.now();
      let sentenceStart = -1;
      let sentenceAudioMs = 0;
      for await (const chunk of this.deps.tts.synthesize(sentence, { voice: this.stage, signal })) {
        if (signal.aborted || this.ended) return;
        const now = Date.now();
        if (reply.playStartWall === null) {
          reply.playStartWall = now + CLIENT_JITTER_MS;
          ttsFirstAudioMs = now - ttsStart;
          this.send({ type: 'speech-start', role: 'assistant' });
          if (timing) {
            this.send({
              type: 'turn-metrics',
              endOfTurnWaitMs: timing.waitedMs,
              sttMs: timing.sttMs,
              brainFirstTextMs,
              ttsFirstAudioMs,
              speechEndToAudioMs: now - timing.speechEndWall,
              audioMs: 0,
            });
            this.deps.onTurnLatency?.(now - timing.speechEndWall);
          }
        }
        if (chunk.sampleRate !== this.sentFormat) {
          this.sentFormat = chunk.sampleRate;
          this.send({ type: 'audio-format', sampleRate: chunk.sampleRate });
        }
        const chunkMs = (chunk.pcm.length / chunk.sampleRate) * 1000;
        // The client plays chunks back to back; a late chunk starts when it arrives.
        const arrivalMs = now - (reply.playStartWall ?? now);
        const startMs = Math.max(reply.timelineEndMs, arrivalMs);
        if (sentenceStart < 0) sentenceStart = startMs;
        reply.timelineEndMs = startMs + chunkMs;
        sentenceAudioMs += chunkMs;
        try {
          this.transport.sendAudio(chunk.pcm);
        } catch {
          return;
        }
      }
      if (sentenceStart >= 0) {
        reply.sentences.push({
          text: sentence,
          startMs: sentenceStart,
          endMs: sentenceStart + sentenceAudioMs,
        });
        this.send({
          type: 'transcript',
          role: 'assistant',
          transcriptType: 'partial',
          transcript: reply.sentences.map((s) => s.text).join(' '),
        });
      }
    };
    try {
      const pieces: AsyncIterable<string> =
        fixed !== null ? single(fixed) : this.conversation.reply(this.history, { signal });
      for await (const piece of pieces) {
        if (signal.aborted || this.ended) break;
        if (brainFirstTextMs < 0) brainFirstTextMs = Date.now() - brainStart;
        for (const s of splitter.push(piece)) await speak(s);
      }
      if (!signal.aborted && !this.ended) for (const s of splitter.flush()) await speak(s);
    } catch (err) {
      if (!signal.aborted) throw err;
    } finally {
      reply.generating = false;
    }
    if (signal.aborted || this.ended || this.reply !== reply) return;
    // The reply becomes final when the page has played it all.
    const remaining =
      reply.playStartWall === null ? 0 : reply.playStartWall + reply.timelineEndMs - Date.now();
    await new Promise<void>((resolve) => {
      reply.finalTimer = setTimeout(resolve, Math.max(0, remaining));
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    if (signal.aborted || this.ended || this.reply !== reply) return;
    this.finishReply(reply, 1);
    // A homeowner who has had enough (repeated pressure) closes the door once it has said so;
    // a rep's goodbye, once answered, ends the call as the rep's hang-up.
    const endCall = this.conversation.endCall ?? (this.conversation.finished ? 'homeowner' : null);
    if (endCall) await this.end(endCall === 'goodbye' ? 'customer-ended-call' : 'homeowner-ended-call');
  }

  /** Closes a reply: the final transcript holds only what the page actually played. */
  private finishReply(reply: ActiveReply, playedFraction: number | null): void {
    if (reply.done) return;
    reply.done = true;
    if (reply.finalTimer) clearTimeout(reply.finalTimer);
    let said: string;
    if (playedFraction === 1) {
      said = reply.sentences.map((s) => s.text).join(' ');
    } else {
      const playedMs = reply.playStartWall === null ? 0 : Math.max(0, Date.now() - reply.playStartWall);
      said = reply.sentences
        .map((s) => {
          if (playedMs >= s.endMs) return s.text;
          if (playedMs <= s.startMs) return '';
          return spokenPrefix(s.text, (playedMs - s.startMs) / (s.endMs - s.startMs));
        })
        .filter(Boolean)
        .join(' ');
    }
    if (reply.playStartWall !== null) this.send({ type: 'speech-end', role: 'assistant' });
    if (said) {
      this.send({ type: 'transcript', role: 'assistant', transcriptType: 'final', transcript: said });
      this.recordFinal('assistant', said);
    } else if (reply.sentences.length) {
      // Nothing was heard: withdraw the caption.
      this.send({ type: 'transcript', role: 'assistant', transcriptType: 'partial', transcript: '' });
    }
    if (this.reply === reply) this.reply = null;
  }

  /** Barge-in: stop the homeowner's audio and reply at once. */
  private interruptReply(): void {
    const reply = this.reply;
    if (!reply || reply.done) return;
    reply.controller.abort();
    if (reply.playStartWall !== null) this.send({ type: 'interrupt' });
    this.finishReply(reply, null);
  }

  // ---- ending ------------------------------------------------------------------------------

  private fail(code: string, message: string): void {
    if (this.ended) return;
    this.send({ type: 'error', code, message });
    void this.end('error');
  }

  private async end(reason: EndReason, opts: { notify?: boolean } = {}): Promise<void> {
    if (this.ended) return;
    if (this.reply && !this.reply.done) this.interruptReply();
    this.ended = true;
    if (this.capTimer) clearTimeout(this.capTimer);
    if (this.startTimer) clearTimeout(this.startTimer);
    this.utterance?.speculative?.controller.abort();
    this.utterance = null;
    try {
      this.vad?.close();
    } catch {
      // Already released.
    }
    this.vad = null;
    this.stream?.close();
    this.stream = null;
    // Saved before the page hears the call ended, so the page's own save comes after ours.
    if (this.started && this.sessionId && this.transcript.length > 0 && this.deps.saveTranscript) {
      const durationSec = Math.min(Math.round((Date.now() - this.startWall) / 1000), MAX_CALL_SEC);
      await this.deps
        .saveTranscript(this.sessionId, this.transcript.slice(), durationSec, this.usedEngines())
        .catch((err) => this.deps.log?.error({ err }, 'saving the call transcript failed'));
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
    return this.transcript.slice();
  }
}

/** The promise's value, or undefined if it has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** Capabilities a call with typed rep turns never uses. */
const TEXT_INPUT_UNUSED = new Set(['speech-to-text', 'voice-activity', 'live-speech-to-text']);

function isUserText(json: unknown): boolean {
  return typeof json === 'object' && json !== null && (json as { type?: unknown }).type === 'user-text';
}

async function* single(text: string): AsyncIterable<string> {
  yield text;
}
