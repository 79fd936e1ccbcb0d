import { describe, expect, it } from 'vitest';
import { FakeLiveRecognizer } from '../providers/stt/live/fake';
import { fakeVadFactory } from '../providers/vad/fake';
import type { SpeechToText } from '../providers/stt/types';
import { DecodeQueue } from './decode-queue';
import { Listener } from './listener';

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

/**
 * Streams speech then silence window by window, letting captions arrive between windows, and
 * returns how long the silence lasted when the turn ended.
 */
async function silenceBeforeTurn(caption: string, fromHz: number, toHz: number): Promise<number> {
  let ended = false;
  const listener = new Listener(
    {
      vad: fakeVadFactory(),
      stt: noStt,
      decodeQueue: new DecodeQueue(1),
      createStream: () => new FakeLiveRecognizer(caption, caption),
    },
    {
      send: () => undefined,
      assistantSpeaking: () => false,
      speechStarted: () => undefined,
      bargeIn: () => undefined,
      turn: () => {
        ended = true;
      },
      fail: (code) => {
        throw new Error(code);
      },
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
  it('ends a finished question soon after the rep falls silent', async () => {
    expect(await silenceBeforeTurn('so how old is the furnace', 150, 150)).toBeLessThan(350);
  });

  it('ends a finished statement soon when the voice falls, later when it rises', async () => {
    const falling = await silenceBeforeTurn('we replace the whole unit in one day', 180, 120);
    const rising = await silenceBeforeTurn('we replace the whole unit in one day', 140, 210);
    expect(falling).toBeLessThan(350);
    expect(rising).toBeGreaterThanOrEqual(600);
  });

  it('waits long after a trailing conjunction', async () => {
    expect(await silenceBeforeTurn('we could come out on tuesday and', 180, 120)).toBeGreaterThanOrEqual(
      1200,
    );
  });
});
