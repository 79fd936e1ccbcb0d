import { describe, expect, it } from 'vitest';
import { DEFAULT_VOICE, type TextToSpeech, type TtsAudio, type VoiceStyle } from '../providers/tts/types';
import type { ServerEvent } from './protocol';
import { readAhead } from './read-ahead';
import { Speaker } from './speaker';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * A synthesiser that takes 20 ms per chunk, three chunks a sentence, each chunk's first sample
 * numbering the sentence; it logs when each sentence was started and finished.
 */
class PacedTts implements TextToSpeech {
  readonly id = 'paced';
  readonly label = 'Paced test voice';
  readonly log: { text: string; event: 'start' | 'end' | 'stopped'; at: number }[] = [];
  private count = 0;

  async *synthesize(
    text: string,
    opts: { voice: VoiceStyle; signal?: AbortSignal },
  ): AsyncIterable<TtsAudio> {
    const n = ++this.count;
    this.log.push({ text, event: 'start', at: Date.now() });
    for (let i = 0; i < 3; i++) {
      await sleep(20);
      if (opts.signal?.aborted) {
        this.log.push({ text, event: 'stopped', at: Date.now() });
        return;
      }
      const pcm = new Int16Array(1600);
      pcm[0] = n;
      yield { sampleRate: 16_000, pcm };
    }
    this.log.push({ text, event: 'end', at: Date.now() });
  }
}

function speakerWith(tts: TextToSpeech) {
  const events: ServerEvent[] = [];
  const audio: number[] = [];
  const speaker = new Speaker(tts, 'audio', {
    send: (e) => events.push(e),
    sendAudio: (pcm) => audio.push(pcm[0]),
    ended: () => false,
    said: () => {},
  });
  return { speaker, events, audio };
}

async function* text(...pieces: string[]) {
  for (const p of pieces) yield p;
}

describe('Speaker', () => {
  it('makes the next sentence while the current one plays, one sentence ahead, in order', async () => {
    const tts = new PacedTts();
    const { speaker, audio } = speakerWith(tts);
    const played = await speaker.say(
      () => text('First one here. Second one here. Third one here.'),
      DEFAULT_VOICE,
    );
    expect(played).toBe(true);
    const at = (t: string, e: string) => tts.log.find((l) => l.text.startsWith(t) && l.event === e)!.at;
    // The second sentence is under way before the first is finished...
    expect(at('Second', 'start')).toBeLessThan(at('First', 'end'));
    // ...but the third waits until the first is done (no more than one ahead).
    expect(at('Third', 'start')).toBeGreaterThanOrEqual(at('First', 'end'));
    // Chunks reach the page sentence by sentence, never interleaved.
    expect(audio).toEqual([1, 1, 1, 2, 2, 2, 3, 3, 3]);
  });

  it('starts a sentence written later as soon as it is written', async () => {
    const tts = new PacedTts();
    const { speaker, audio } = speakerWith(tts);
    async function* slowWriter() {
      yield 'Hello there. ';
      await sleep(30);
      yield 'How are you doing today?';
    }
    expect(await speaker.say(() => slowWriter(), DEFAULT_VOICE)).toBe(true);
    expect(audio).toEqual([1, 1, 1, 2, 2, 2]);
    const at = (t: string, e: string) => tts.log.find((l) => l.text.startsWith(t) && l.event === e)!.at;
    expect(at('How', 'start')).toBeLessThan(at('Hello', 'end'));
  });

  it('stops making speech at a barge-in and does not start the sentences after the next', async () => {
    const tts = new PacedTts();
    const { speaker, events } = speakerWith(tts);
    const saying = speaker.say(
      () => text('One two three. Four five six. Seven eight nine. Ten.'),
      DEFAULT_VOICE,
    );
    await sleep(30);
    speaker.interrupt();
    expect(await saying).toBe(false);
    await sleep(80);
    const started = tts.log.filter((l) => l.event === 'start').map((l) => l.text);
    expect(started).toEqual(['One two three.', 'Four five six.']);
    expect(tts.log.filter((l) => l.event === 'end')).toEqual([]);
    expect(events.some((e) => e.type === 'interrupt')).toBe(true);
  });

  it('raises the writer’s error after speaking what was written before it', async () => {
    const tts = new PacedTts();
    const { speaker, audio } = speakerWith(tts);
    async function* failing(): AsyncIterable<string> {
      yield 'Fine so far. ';
      await sleep(5);
      throw new Error('model went away');
    }
    await expect(speaker.say(() => failing(), DEFAULT_VOICE)).rejects.toThrow('model went away');
    expect(audio.length).toBeLessThanOrEqual(3);
  });
});

describe('readAhead', () => {
  it('reads its source before it is asked, and keeps order and errors', async () => {
    const seen: number[] = [];
    async function* source() {
      for (let i = 1; i <= 3; i++) {
        seen.push(i);
        yield i;
      }
      throw new Error('after three');
    }
    const ahead = readAhead(source());
    await sleep(5);
    expect(seen).toEqual([1, 2, 3]);
    const got: number[] = [];
    await expect(
      (async () => {
        for await (const x of ahead) got.push(x);
      })(),
    ).rejects.toThrow('after three');
    expect(got).toEqual([1, 2, 3]);
  });
});
