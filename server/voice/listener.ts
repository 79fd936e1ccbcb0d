import { concatPcm, int16ToFloat32, rms } from '../audio/wav';
import type { LiveRecognizer } from '../providers/stt/live/types';
import type { SpeechToText } from '../providers/stt/types';
import { VAD_WINDOW, VAD_WINDOW_MS, type FrameVad, type VadFactory } from '../providers/vad/types';
import type { DecodeQueue } from './decode-queue';
import { PitchTracker } from '../turns/pitch';
import { UPSTREAM_SAMPLE_RATE, type ServerEvent } from './protocol';
import { TurnDetector, type TurnEvent, type TurnTakingOptions } from '../turns/turn-taking';

/**
 * A finished rep turn, whichever way it arrived (spoken through the listener, or as text): the
 * one interface by which turns enter a call.
 */
export interface RepTurn {
  /** The rep's words, once known (a recogniser may still be finishing); null: nothing to answer. */
  /** `recorded`: the session already showed and kept these words (typed turns arrive final). */
  words(): Promise<{ text: string; sttMs: number; recorded?: boolean } | null>;
  /** Wall time the rep stopped speaking (or sent the text). */
  speechEndWall: number;
  /** How long end-of-turn detection waited after the last speech. */
  waitedMs: number;
}

export interface ListenerDeps {
  vad: VadFactory;
  stt: SpeechToText;
  decodeQueue: DecodeQueue;
  createStream?(): LiveRecognizer | null;
  turnTaking?: Partial<TurnTakingOptions>;
  log?: { warn(o: object, m?: string): void; error(o: object, m?: string): void };
}

/** What the listener tells the call. */
export interface ListenerHooks {
  send(event: ServerEvent): void;
  /** Whether the homeowner's reply is audible now (speech then needs to be barge-in). */
  assistantSpeaking(): boolean;
  /** The rep started talking (a reply not yet audible should be dropped). */
  speechStarted(): void;
  /** Sustained speech over the homeowner: cut the reply. */
  bargeIn(): void;
  turn(turn: RepTurn): void;
  fail(code: string, message: string): void;
}

/** Keep this much audio before speech starts, so the first syllable reaches the recogniser. */
const PRE_ROLL_WINDOWS = 10;
/** New speech between live-caption decodes (whole-utterance decodes on a shared queue). */
const PARTIAL_EVERY_MS = 900;
/** New speech between caption requests to a warm recogniser (cheap: its running hypothesis). */
const LIVE_PARTIAL_EVERY_MS = 300;
/** A warm recogniser that takes longer than this for a caption is skipped for that caption. */
const LIVE_PARTIAL_TIMEOUT_MS = 1000;
/**
 * How long to wait for the warm recogniser's final words. It normally answers within tens of
 * milliseconds; when it lags (an overloaded machine), waiting still beats a fresh decoder, which
 * must first load its model on that same busy machine.
 */
const STREAM_WAIT_MS = 5000;
/**
 * Silence after the last speech that still goes to the warm recogniser, so it can close the
 * last word. The rest of a pause is held back and only sent if the rep speaks again: the
 * 250-1,200 ms end-of-turn wait would otherwise be decoded for nothing (CPU that competes with
 * other calls' replies), and a recogniser that lags has that much less to catch up on when the
 * turn ends.
 */
export const DECODER_PAUSE_TAIL_MS = 160;
/**
 * How long the final words may take before the words heard once the pause's tail was in stand
 * for them. A warm recogniser closes an utterance in 5-50 ms; behind on a saturated machine,
 * 150-600 ms, which the reply would wait on.
 */
const FINAL_GRACE_MS = 60;
/** Dead live recognisers replaced per call (see replaceDeadStream). */
const MAX_STREAM_REPLACEMENTS = 3;

interface Utterance {
  chunks: Int16Array[];
  samples: number;
  lastPartialAtSamples: number;
  partialInFlight: boolean;
  lastPartial: string;
  /** A caption for the audio up to a pause was asked for while another was on its way. */
  refreshWanted: boolean;
  /**
   * The warm recogniser's words once the pause's tail is in: all the speech, its last word
   * closed. When the turn ends in that pause they are its words, without waiting for the
   * recogniser to close the utterance. Cleared when the rep speaks again.
   */
  closedWords: Promise<string | null> | null;
  speculative: { promise: Promise<string>; controller: AbortController } | null;
  /** The live recogniser that heard this utterance (a replacement may serve the next one). */
  stream: LiveRecognizer | null;
}

/**
 * Audio in, finished rep turns out: 32 ms windows through voice detection and turn-taking,
 * live captions, the warm recogniser (or clip decodes, started speculatively in pauses).
 */
export class Listener {
  private readonly vad: FrameVad;
  private stream: LiveRecognizer | null;
  /** Live recognisers this call has replaced after they died. */
  private replacements = 0;
  private readonly turns: TurnDetector;
  private readonly pitch = new PitchTracker();
  private wasSpeech = false;
  private residual = new Int16Array(0);
  private samplesProcessed = 0;
  private preRoll: Int16Array[] = [];
  private utterance: Utterance | null = null;
  /** Silent windows since the last speech in this utterance. */
  private silentWindows = 0;
  /** Pause audio past the tail, not yet sent to the warm recogniser (see DECODER_PAUSE_TAIL_MS). */
  private heldSilence: Int16Array[] = [];
  private closed = false;

  constructor(
    private readonly deps: ListenerDeps,
    private readonly hooks: ListenerHooks,
  ) {
    this.turns = new TurnDetector(deps.turnTaking);
    this.vad = deps.vad.create();
    try {
      this.stream = deps.createStream?.() ?? null;
    } catch (err) {
      this.vad.close();
      throw err;
    }
  }

  /** 16 kHz mono audio from the rep, any length. */
  push(samples: Int16Array): void {
    let buf = samples;
    if (this.residual.length) buf = concatPcm([this.residual, samples]);
    let offset = 0;
    while (offset + VAD_WINDOW <= buf.length) {
      const window = buf.slice(offset, offset + VAD_WINDOW);
      offset += VAD_WINDOW;
      this.processWindow(window);
      if (this.closed) return;
    }
    this.residual = buf.slice(offset);
  }

  /** The rep is speaking: an utterance has started and its turn has not ended yet. */
  get hearingSpeech(): boolean {
    return this.utterance !== null;
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.utterance?.speculative?.controller.abort();
    this.utterance = null;
    try {
      this.vad.close();
    } catch {
      // Already released.
    }
    this.stream?.close();
  }

  private processWindow(window: Int16Array): void {
    let speech: boolean;
    const samples = int16ToFloat32(window);
    try {
      speech = this.vad.isSpeech(samples);
    } catch (err) {
      this.deps.log?.error({ err }, 'voice activity detection failed');
      return this.hooks.fail('engine-failed', 'Voice activity detection failed');
    }
    const now = Date.now();
    this.samplesProcessed += window.length;
    const streamMs = (this.samplesProcessed / UPSTREAM_SAMPLE_RATE) * 1000;
    const events = this.turns.push(
      speech,
      VAD_WINDOW_MS,
      streamMs,
      this.hooks.assistantSpeaking(),
      speech ? rms(samples) : undefined,
    );

    if (this.utterance) {
      this.utterance.chunks.push(window);
      this.utterance.samples += window.length;
      if (this.stream?.alive) this.feedStream(window, speech);
    } else {
      this.preRoll.push(window);
      if (this.preRoll.length > PRE_ROLL_WINDOWS) this.preRoll.shift();
    }
    if (speech) this.pitch.push(window);
    for (const e of events) this.onTurnEvent(e, now, streamMs);
    if (this.utterance && this.turns.speaking) {
      // The rep just fell silent: how the voice ended and what the words so far were decide how
      // long to wait (turn-taking.ts), so both are read now, up to the last window of speech.
      if (this.wasSpeech && !speech) {
        this.turns.setPitchContour(this.pitch.contour().contour, streamMs);
        this.maybePartial(true);
      } else if (speech || !this.holdingSilence) this.maybePartial();
    }
    this.wasSpeech = speech;
  }

  /** Whether the pause has outlasted the tail, so the recogniser has heard nothing new since. */
  private get holdingSilence(): boolean {
    return this.silentWindows * VAD_WINDOW_MS > DECODER_PAUSE_TAIL_MS;
  }

  /** To the warm recogniser: speech, and a pause's first DECODER_PAUSE_TAIL_MS; the rest on resume. */
  private feedStream(window: Int16Array, speech: boolean): void {
    const stream = this.stream!;
    if (speech) {
      this.silentWindows = 0;
      if (this.utterance) this.utterance.closedWords = null;
      if (this.heldSilence.length) {
        stream.write(concatPcm(this.heldSilence));
        this.heldSilence = [];
      }
      stream.write(window);
      return;
    }
    this.silentWindows++;
    if (this.holdingSilence) this.heldSilence.push(window);
    else stream.write(window);
    const u = this.utterance;
    if (u && !u.closedWords && this.silentWindows * VAD_WINDOW_MS >= DECODER_PAUSE_TAIL_MS) {
      u.closedWords = stream.partial(STREAM_WAIT_MS, { urgent: true });
      u.closedWords.catch(() => undefined);
    }
  }

  private onTurnEvent(event: TurnEvent, now: number, streamMs: number): void {
    switch (event.type) {
      case 'speech-start': {
        this.replaceDeadStream();
        const chunks = this.preRoll;
        this.preRoll = [];
        this.silentWindows = 0;
        this.heldSilence = [];
        this.utterance = {
          chunks,
          samples: chunks.reduce((n, c) => n + c.length, 0),
          lastPartialAtSamples: 0,
          partialInFlight: false,
          lastPartial: '',
          refreshWanted: false,
          closedWords: null,
          speculative: null,
          stream: this.stream,
        };
        if (this.stream?.alive) {
          this.stream.begin();
          this.stream.write(concatPcm(this.utterance.chunks, this.utterance.samples));
        }
        this.hooks.send({ type: 'speech-start', role: 'user' });
        this.hooks.speechStarted();
        break;
      }
      case 'barge-in':
        this.hooks.bargeIn();
        break;
      case 'pause':
        this.startSpeculativeDecode(streamMs);
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
        // The held end of the pause is silence the words do not need.
        this.heldSilence = [];
        this.pitch.reset();
        this.hooks.send({ type: 'speech-end', role: 'user' });
        if (!u) break;
        // Closed now, not when the turn is answered: the next utterance may begin before that.
        const ended = this.stream?.alive ? this.stream.end(STREAM_WAIT_MS * 3) : null;
        ended?.catch(() => undefined);
        const live = ended && u.closedWords ? finalOrClosed(ended, u.closedWords, FINAL_GRACE_MS) : ended;
        // The turn's silence as turn-taking measured it (from the end of the loud speech).
        this.hooks.turn({
          speechEndWall: now - event.waitedMs,
          waitedMs: event.waitedMs,
          words: () => this.recognise(u, live),
        });
        break;
      }
    }
  }

  /**
   * A live recogniser that died (its process crashed or was killed) is replaced when the rep
   * next speaks, so one crash does not leave the rest of the call on clip decodes, which a busy
   * machine cannot keep up with (under load they answered 20 of 100 turns). A call that keeps
   * killing them stays on clip decodes after MAX_STREAM_REPLACEMENTS.
   */
  private replaceDeadStream(): void {
    const dead = this.stream;
    if (!dead || dead.alive || !this.deps.createStream || this.replacements >= MAX_STREAM_REPLACEMENTS)
      return;
    this.replacements++;
    dead.close();
    try {
      this.stream = this.deps.createStream();
      this.deps.log?.warn({ replacements: this.replacements }, 'live recogniser died; replaced it');
    } catch (err) {
      this.stream = null;
      this.deps.log?.warn({ err }, 'live recogniser died and could not be replaced; decoding utterances');
    }
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

  private startSpeculativeDecode(streamMs: number): void {
    const u = this.utterance;
    // A warm live recogniser has the words already; a second decode would only cost CPU.
    if (!u || u.speculative || this.stream?.alive) return;
    const controller = new AbortController();
    const pcm = concatPcm(u.chunks, u.samples);
    const promise = this.deps.decodeQueue.runFinal(() => this.decode(pcm, controller.signal));
    promise
      .then((text) => {
        // Words for all the audio up to the pause: turn-taking may end a finished turn sooner.
        if (!controller.signal.aborted && this.utterance === u && text)
          this.turns.setTranscriptHint(text, streamMs);
      })
      .catch(() => undefined);
    u.speculative = { promise, controller };
  }

  /**
   * Asks for a live caption every so much new speech; `atPause` asks at once (the rep just fell
   * silent) for words that cover all the audio so far, which turn-taking may act on.
   */
  private maybePartial(atPause = false): void {
    const u = this.utterance;
    if (!u) return;
    const live = this.stream?.alive ? this.stream : null;
    const now = atPause && live !== null;
    if (u.partialInFlight) {
      if (now) u.refreshWanted = true;
      return;
    }
    const every = live ? LIVE_PARTIAL_EVERY_MS : PARTIAL_EVERY_MS;
    if (!now && ((u.samples - u.lastPartialAtSamples) / UPSTREAM_SAMPLE_RATE) * 1000 < every) return;
    u.partialInFlight = true;
    u.refreshWanted = false;
    const heardToMs = (this.samplesProcessed / UPSTREAM_SAMPLE_RATE) * 1000;
    u.lastPartialAtSamples = u.samples;
    let caption: Promise<string | null>;
    if (live) {
      // At a pause turn-taking waits on it; during speech it is only a caption on the page.
      caption = live.partial(LIVE_PARTIAL_TIMEOUT_MS, { urgent: now });
    } else {
      const pcm = concatPcm(u.chunks, u.samples);
      caption = this.deps.decodeQueue.tryPartial(
        () => this.decode(pcm),
        (pcm.length / UPSTREAM_SAMPLE_RATE) * 1000,
      );
    }
    void caption
      .then((text) => {
        if (text === null || this.closed || this.utterance !== u || !text) return;
        this.turns.setTranscriptHint(text, heardToMs);
        if (text === u.lastPartial) return;
        u.lastPartial = text;
        this.hooks.send({ type: 'transcript', role: 'user', transcriptType: 'partial', transcript: text });
      })
      .catch((err) => this.deps.log?.warn({ err }, 'partial decode failed'))
      .finally(() => {
        u.partialInFlight = false;
        if (u.refreshWanted && !this.closed && this.utterance === u && this.turns.speaking)
          this.maybePartial(true);
      });
  }

  /** The finished utterance's words: the warm recogniser's, else a (speculative) clip decode. */
  private async recognise(
    u: Utterance,
    live: Promise<string | null> | null,
  ): Promise<{ text: string; sttMs: number } | null> {
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
      } else if (live && heard === undefined && u.stream?.alive) {
        // Behind with no caption yet: it still has the audio, so wait for it a while longer.
        text = (await live) ?? '';
      } else {
        const spec = u.speculative;
        // The speculative decode is valid when no speech arrived after it started.
        text =
          spec && !spec.controller.signal.aborted
            ? await spec.promise
            : await this.deps.decodeQueue.runFinal(() => this.decode(concatPcm(u.chunks, u.samples)));
      }
    } catch (err) {
      this.deps.log?.warn({ err }, 'speech recognition failed');
      text = '';
    }
    // Noise or a cough gives no words: the caption already shown, if any, stands as the turn.
    const words = text || u.lastPartial;
    return words ? { text: words, sttMs: Date.now() - sttStart } : null;
  }
}

/**
 * The recogniser's final words, or, when they are more than `graceMs` late (a busy machine),
 * the words it gave for the same audio once the pause's tail was in. The final words are
 * preferred: closing the utterance sometimes settles one more word ("...mac" -> "...mac at").
 */
function finalOrClosed(
  final: Promise<string | null>,
  closed: Promise<string | null>,
  graceMs: number,
): Promise<string | null> {
  return new Promise((resolve) => {
    let done = false;
    let graceOver = false;
    let finalFailed = false;
    let closedText: string | null | undefined;
    const finish = (text: string | null) => {
      if (done) return;
      done = true;
      clearTimeout(timer);
      resolve(text);
    };
    const timer = setTimeout(() => {
      graceOver = true;
      if (typeof closedText === 'string') finish(closedText);
    }, graceMs);
    const finalGone = () => {
      finalFailed = true;
      if (closedText !== undefined) finish(closedText);
    };
    final.then((text) => (typeof text === 'string' ? finish(text) : finalGone()), finalGone);
    const closedIs = (text: string | null) => {
      closedText = text;
      if (finalFailed || (graceOver && typeof text === 'string')) finish(text);
    };
    closed.then(closedIs, () => closedIs(null));
  });
}

/** The promise's value, or undefined if it has not settled within `ms`. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | undefined> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}
