import type { CallOutput } from '../../core/voice-protocol';
import type { TextToSpeech, TtsAudio, VoiceStyle } from '../providers/tts/types';
import { readAhead } from './read-ahead';
import type { ServerEvent } from './protocol';
import { SentenceSplitter, spokenPrefix } from './sentences';

/** The browser's jitter buffer delays playback by about this much after the first chunk. */
const CLIENT_JITTER_MS = 120;

/** Where the time of the rep's turn went before the reply began (for turn-metrics). */
export interface TurnTiming {
  speechEndWall: number;
  waitedMs: number;
  sttMs: number;
}

export interface SpeakerHooks {
  send(event: ServerEvent): void;
  sendAudio(pcm: Int16Array): void;
  /** True once the call is over: stop at once. */
  ended(): boolean;
  /** The words of a finished (or cut) reply that the rep actually heard or saw. */
  said(text: string): void;
  /** End of the rep's speech to the homeowner's first audio, once per answered turn. */
  onTurnLatency?(ms: number): void;
}

interface ActiveReply {
  controller: AbortController;
  /** Sentences with their place on the playback timeline (ms from playback start). */
  sentences: { text: string; startMs: number; endMs: number }[];
  playStartWall: number | null;
  timelineEndMs: number;
  finalTimer: ReturnType<typeof setTimeout> | null;
  done: boolean;
}

/**
 * Speaks the homeowner's replies: text as it is written -> sentences -> speech audio sent as it
 * is made (or, with text output, growing captions); the final transcript when the page has
 * played it all; cut off at barge-in, keeping only the words that were played.
 */
export class Speaker {
  private reply: ActiveReply | null = null;
  private sentFormat = 0;

  constructor(
    private readonly tts: TextToSpeech,
    private readonly output: CallOutput,
    private readonly hooks: SpeakerHooks,
  ) {}

  /** A reply is playing on the page now. */
  get audible(): boolean {
    return this.reply !== null && !this.reply.done && this.reply.playStartWall !== null;
  }

  /**
   * Speaks one reply; `write(signal)` yields its text as it is written. Resolves true when the
   * reply was played to the end, false when it was cut off or the call ended.
   */
  async say(
    write: (signal: AbortSignal) => AsyncIterable<string>,
    voice: VoiceStyle,
    timing?: TurnTiming,
  ): Promise<boolean> {
    if (this.hooks.ended()) return false;
    const reply: ActiveReply = {
      controller: new AbortController(),
      sentences: [],
      playStartWall: null,
      timelineEndMs: 0,
      finalTimer: null,
      done: false,
    };
    this.reply = reply;
    const signal = reply.controller.signal;
    const gone = () => signal.aborted || this.hooks.ended();
    const brainStart = Date.now();
    let brainFirstTextMs = -1;
    const metrics = (ttsFirstAudioMs: number, now: number) => {
      if (!timing) return;
      this.hooks.send({
        type: 'turn-metrics',
        endOfTurnWaitMs: timing.waitedMs,
        sttMs: timing.sttMs,
        brainFirstTextMs,
        ttsFirstAudioMs,
        speechEndToAudioMs: now - timing.speechEndWall,
        audioMs: 0,
      });
    };
    const caption = () =>
      this.hooks.send({
        type: 'transcript',
        role: 'assistant',
        transcriptType: 'partial',
        transcript: reply.sentences.map((s) => s.text).join(' '),
      });
    const speak = async (item: { text: string; audio: AsyncIterable<TtsAudio> | null }) => {
      const sentence = item.text;
      if (gone()) return;
      if (this.output === 'text') {
        // Text output: the reply is "heard" when it is shown, so its first text is its first audio.
        if (reply.sentences.length === 0) metrics(0, Date.now());
        reply.sentences.push({ text: sentence, startMs: 0, endMs: 0 });
        return caption();
      }
      const ttsStart = Date.now();
      let sentenceStart = -1;
      let sentenceAudioMs = 0;
      for await (const chunk of item.audio ?? []) {
        if (gone()) return;
        const now = Date.now();
        if (reply.playStartWall === null) {
          reply.playStartWall = now + CLIENT_JITTER_MS;
          this.hooks.send({ type: 'speech-start', role: 'assistant' });
          metrics(now - ttsStart, now);
          if (timing) this.hooks.onTurnLatency?.(now - timing.speechEndWall);
        }
        if (chunk.sampleRate !== this.sentFormat) {
          this.sentFormat = chunk.sampleRate;
          this.hooks.send({ type: 'audio-format', sampleRate: chunk.sampleRate });
        }
        const chunkMs = (chunk.pcm.length / chunk.sampleRate) * 1000;
        // The client plays chunks back to back; a late chunk starts when it arrives.
        const startMs = Math.max(reply.timelineEndMs, now - (reply.playStartWall ?? now));
        if (sentenceStart < 0) sentenceStart = startMs;
        reply.timelineEndMs = startMs + chunkMs;
        sentenceAudioMs += chunkMs;
        try {
          this.hooks.sendAudio(chunk.pcm);
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
        caption();
      }
    };
    // The reply's sentences, each as soon as its text is written.
    const splitter = new SentenceSplitter();
    async function* written(): AsyncGenerator<string> {
      for await (const piece of write(signal)) {
        if (gone()) return;
        if (brainFirstTextMs < 0) brainFirstTextMs = Date.now() - brainStart;
        yield* splitter.push(piece);
      }
      if (!gone()) yield* splitter.flush();
    }
    const sentences = written();
    // The next sentence is awaited, and its speech requested, while the current one plays: the
    // synthesiser works a sentence ahead of playback, so the page does not wait at a sentence
    // boundary (under load a fresh request queues behind other calls' sentences), and a
    // barge-in throws away at most one sentence.
    const nextSentence = () => {
      const next = sentences.next().then((r) =>
        r.done || gone()
          ? null
          : {
              text: r.value,
              audio:
                this.output === 'text' ? null : readAhead(this.tts.synthesize(r.value, { voice, signal })),
            },
      );
      next.catch(() => {}); // its error is raised where it is awaited
      return next;
    };
    // A barge-in does not wait for the rest of the text (the writer stops on the signal).
    const cutOff = new Promise<null>((resolve) => signal.addEventListener('abort', () => resolve(null)));
    try {
      let current = await Promise.race([nextSentence(), cutOff]);
      while (current && !gone()) {
        const upcoming = nextSentence();
        await speak(current);
        current = gone() ? null : await Promise.race([upcoming, cutOff]);
      }
    } catch (err) {
      if (!signal.aborted) throw err;
    }
    if (gone() || this.reply !== reply) return false;
    // The reply becomes final when the page has played it all.
    const remaining =
      reply.playStartWall === null ? 0 : reply.playStartWall + reply.timelineEndMs - Date.now();
    await new Promise<void>((resolve) => {
      reply.finalTimer = setTimeout(resolve, Math.max(0, remaining));
      signal.addEventListener('abort', () => resolve(), { once: true });
    });
    if (gone() || this.reply !== reply) return false;
    this.finish(reply, true);
    return true;
  }

  /** Barge-in: stop the homeowner's audio and reply at once. */
  interrupt(): void {
    const reply = this.reply;
    if (!reply || reply.done) return;
    reply.controller.abort();
    if (reply.playStartWall !== null) this.hooks.send({ type: 'interrupt' });
    this.finish(reply, false);
  }

  /** The rep started talking before any of the reply was heard: it is dropped (they have more to say). */
  dropSilentReply(): void {
    if (this.reply && this.reply.playStartWall === null) this.interrupt();
  }

  /** Closes a reply: the final transcript holds only what the page actually played. */
  private finish(reply: ActiveReply, playedAll: boolean): void {
    if (reply.done) return;
    reply.done = true;
    if (reply.finalTimer) clearTimeout(reply.finalTimer);
    const playedMs = reply.playStartWall === null ? 0 : Math.max(0, Date.now() - reply.playStartWall);
    const said = reply.sentences
      .map((s) => {
        if (playedAll || playedMs >= s.endMs) return s.text;
        if (playedMs <= s.startMs) return '';
        return spokenPrefix(s.text, (playedMs - s.startMs) / (s.endMs - s.startMs));
      })
      .filter(Boolean)
      .join(' ');
    if (reply.playStartWall !== null) this.hooks.send({ type: 'speech-end', role: 'assistant' });
    if (said) {
      this.hooks.send({ type: 'transcript', role: 'assistant', transcriptType: 'final', transcript: said });
      this.hooks.said(said);
    } else if (reply.sentences.length) {
      // Nothing was heard: withdraw the caption.
      this.hooks.send({ type: 'transcript', role: 'assistant', transcriptType: 'partial', transcript: '' });
    }
    if (this.reply === reply) this.reply = null;
  }
}
