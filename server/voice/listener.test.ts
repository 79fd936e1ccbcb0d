import { describe, expect, it } from 'vitest';
import { FakeLiveRecognizer } from '../providers/stt/live/fake';
import { fakeVadFactory } from '../providers/vad/fake';
import type { SpeechToText } from '../providers/stt/types';
import { DecodeQueue } from './decode-queue';
import { DECODER_PAUSE_TAIL_MS, Listener, type RepTurn } from './listener';
import { DEFAULT_TURN_TAKING } from '../turns/turn-taking';

/** A voice-like buzz at 16 kHz whose F0 glides from `fromHz` to `toHz` over its last 300 ms. */
function voice(ms: number, fromHz: number, toHz: number): Int16Array {
  const n = Math.round((ms / 1000) * 16_000);
  const glide = Math.round(0.3 * 16_000);
  const out = new Int16Array(n);
  let phase = 0;
  for (let i = 0; i < n; i++) {
    const hz = i < n - glide ? fromHz : fromHz + ((toHz - fromHz) * (i - (n - glide))) / glide;
    phase += (2 * Math.PI * hz) / 16_000;
    let s = 0;
    for (let h = 1; h <= 6; h++) s += Math.sin(h * phase) / h;
    out[i] = Math.round(s * 8000);
  }
  return out;
}

const noStt: SpeechToText = {
  transcribe: () => Promise.reject(new Error('the live recogniser serves this call')),
} as unknown as SpeechToText;

/** A listener on the test voice detector whose live recognisers come from `createStream`. */
function listenerWith(createStream: () => FakeLiveRecognizer, onTurn: (turn: RepTurn) => void): Listener {
  return new Listener(
    { vad: fakeVadFactory(), stt: noStt, decodeQueue: new DecodeQueue(1), createStream },
    {
      send: () => undefined,
      assistantSpeaking: () => false,
      speechStarted: () => undefined,
      bargeIn: () => undefined,
      turn: onTurn,
      fail: (code) => {
        throw new Error(code);
      },
    },
  );
}

/**
 * Streams speech then silence window by window, letting captions arrive between windows, and
 * returns how long the silence lasted when the turn ended.
 */
async function silenceBeforeTurn(caption: string, fromHz: number, toHz: number): Promise<number> {
  let ended = false;
  const listener = listenerWith(
    () => new FakeLiveRecognizer(caption, caption),
    () => {
      ended = true;
    },
  );
  const speech = voice(900, fromHz, toHz);
  for (let i = 0; i + 512 <= speech.length; i += 512) {
    listener.push(speech.subarray(i, i + 512));
    await new Promise((r) => setImmediate(r));
  }
  let silentMs = 0;
  while (!ended && silentMs < 3000) {
    listener.push(new Int16Array(512));
    silentMs += 32;
    await new Promise((r) => setImmediate(r));
  }
  listener.close();
  return silentMs;
}

describe('listener end of turn', () => {
  const plainWait = DEFAULT_TURN_TAKING.endOfTurnMs;

  it('ends a finished question soon after the rep falls silent', async () => {
    expect(await silenceBeforeTurn('so how old is the furnace', 150, 150)).toBeLessThan(plainWait);
  });

  it('ends a finished statement soon when the voice falls, later when it rises', async () => {
    const falling = await silenceBeforeTurn('we replace the whole unit in one day', 180, 120);
    const rising = await silenceBeforeTurn('we replace the whole unit in one day', 140, 210);
    expect(falling).toBeLessThan(plainWait);
    expect(rising).toBeGreaterThanOrEqual(DEFAULT_TURN_TAKING.continuingEndOfTurnMs);
  });

  it('waits long after a trailing conjunction', async () => {
    expect(await silenceBeforeTurn('we could come out on tuesday and', 180, 120)).toBeGreaterThanOrEqual(
      1200,
    );
  });
});

describe('listener feeding the warm recogniser', () => {
  it('holds back a pause past a short tail, and sends it on only if the rep speaks again', async () => {
    const stream = new FakeLiveRecognizer(
      'we could come out on tuesday and',
      'we could come out on tuesday and',
    );
    let ended = false;
    const listener = listenerWith(
      () => stream,
      () => {
        ended = true;
      },
    );
    const push = async (pcm: Int16Array) => {
      for (let i = 0; i + 512 <= pcm.length; i += 512) {
        listener.push(pcm.subarray(i, i + 512));
        await new Promise((r) => setImmediate(r));
      }
    };
    const tail = Math.ceil(DECODER_PAUSE_TAIL_MS / 32) * 512;
    await push(voice(960, 180, 120));
    const afterFirstSpeech = stream.written;
    // A 512 ms pause after a trailing "and" does not end the turn; only its tail is decoded yet.
    await push(new Int16Array(512 * 16));
    expect(ended).toBe(false);
    expect(stream.written - afterFirstSpeech).toBeLessThanOrEqual(tail);
    // The rep goes on: the held part of the pause follows, so the recogniser hears it all in order.
    await push(voice(640, 180, 120));
    expect(stream.written - afterFirstSpeech).toBe(512 * 16 + 640 * 16);
    const afterSecondSpeech = stream.written;
    let silentMs = 0;
    while (!ended && silentMs < 3000) {
      await push(new Int16Array(512));
      silentMs += 32;
    }
    expect(ended).toBe(true);
    expect(silentMs).toBeGreaterThanOrEqual(1200);
    expect(stream.written - afterSecondSpeech).toBeLessThanOrEqual(tail);
    // Captions are not asked for again while the recogniser has heard nothing new.
    const captionsInPause = stream.calls.slice(stream.calls.lastIndexOf('partial') + 1);
    expect(captionsInPause).toEqual(['end']);
    listener.close();
  });
});

describe('listener final words', () => {
  /** Speech, then silence until the turn ends; the turn and what the recogniser was asked. */
  async function turnWith(stream: FakeLiveRecognizer): Promise<RepTurn> {
    let turn: RepTurn | null = null;
    const listener = listenerWith(
      () => stream,
      (t) => {
        turn = t;
      },
    );
    const speech = voice(900, 180, 120);
    for (let i = 0; i + 512 <= speech.length; i += 512) {
      listener.push(speech.subarray(i, i + 512));
      await new Promise((r) => setImmediate(r));
    }
    for (let ms = 0; !turn && ms < 3000; ms += 32) {
      listener.push(new Int16Array(512));
      await new Promise((r) => setImmediate(r));
    }
    expect(turn).not.toBeNull();
    return turn!;
  }

  it('asks for the words once the pause tail is in, and uses them when the final words are late', async () => {
    const stream = new FakeLiveRecognizer('we replace the whole unit', 'we replace the whole unit', 3000);
    const turn = await turnWith(stream);
    // Asked after the tail, before the turn ended.
    expect(stream.calls.slice(-2)).toEqual(['partial', 'end']);
    const t0 = Date.now();
    const words = await turn.words();
    expect(words?.text).toBe('we replace the whole unit');
    expect(Date.now() - t0).toBeLessThan(1500);
  });

  it('prefers the final words when they come promptly', async () => {
    const stream = new FakeLiveRecognizer('we replace the whole unit today', 'we replace the whole unit');
    const words = await (await turnWith(stream)).words();
    expect(words?.text).toBe('we replace the whole unit today');
  });

  it('waits for the final words when the recogniser had nothing once the tail was in', async () => {
    class NoCaption extends FakeLiveRecognizer {
      override async partial(): Promise<string | null> {
        this.calls.push('partial');
        return null;
      }
    }
    const words = await (await turnWith(new NoCaption('we replace the whole unit', '', 200))).words();
    expect(words?.text).toBe('we replace the whole unit');
  });
});

describe('listener with a live recogniser that dies', () => {
  it('replaces it when the rep next speaks, up to a limit, and the turns keep their words', async () => {
    const made: FakeLiveRecognizer[] = [];
    const turns: RepTurn[] = [];
    const listener = listenerWith(
      () => {
        const r = new FakeLiveRecognizer(`we can start on monday ${made.length}`, 'we can start');
        made.push(r);
        return r;
      },
      (t) => turns.push(t),
    );
    const speakTurn = async () => {
      const before = turns.length;
      const speech = voice(900, 180, 120);
      for (let i = 0; i + 512 <= speech.length; i += 512) {
        listener.push(speech.subarray(i, i + 512));
        await new Promise((r) => setImmediate(r));
      }
      for (let ms = 0; turns.length === before && ms < 3000; ms += 32) {
        listener.push(new Int16Array(512));
        await new Promise((r) => setImmediate(r));
      }
      return (await turns.at(-1)!.words())?.text;
    };
    expect(await speakTurn()).toBe('we can start on monday 0');
    // The decoder process dies between turns: the next turn is heard by a new one.
    made[0].close();
    expect(await speakTurn()).toBe('we can start on monday 1');
    expect(made).toHaveLength(2);
    expect(made[1].calls[0]).toBe('begin');
    // A call whose recognisers keep dying stops replacing them after three.
    for (let i = 0; i < 4; i++) {
      made.at(-1)!.close();
      await speakTurn();
    }
    expect(made).toHaveLength(4);
    listener.close();
  });
});
