import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FakeSpeakerEmbedder } from '../providers/speaker/fake';
import type { SpeechToText, SttSegment } from '../providers/stt/types';
import { transcribeFile } from './pipeline';
import { MAX_SPAN_MS, MIN_SPAN_MS } from './speaker-spans';
import { encodeWav, wavHeader } from '../audio/wav';

const RATE = 16_000;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pipeline-speakers-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Turns of two synthetic voices (harmonics at their pitch), 1 s apart, over faint room noise. */
function turns(list: { hz: number; ms: number }[]): Int16Array {
  const pieces = [{ hz: 0, ms: 500 }, ...list.flatMap((t) => [t, { hz: 0, ms: 1000 }])];
  const out = new Int16Array(pieces.reduce((s, p) => s + (p.ms * RATE) / 1000, 0));
  let at = 0;
  let seed = 3;
  for (const p of pieces) {
    for (let i = 0; i < (p.ms * RATE) / 1000; i++, at++) {
      seed = (seed * 1103515245 + 12345) % 2147483648;
      let v = 0;
      if (p.hz) for (let h = 1; h <= 6; h++) v += Math.sin((2 * Math.PI * p.hz * h * at) / RATE) / h;
      out[at] = Math.round(v * 3000 + (seed / 2147483648 - 0.5) * 20);
    }
  }
  return out;
}

function wav(name: string, pcm: Int16Array): string {
  const file = path.join(tmp, name);
  fs.writeFileSync(file, encodeWav(pcm, RATE));
  return file;
}

/** A recogniser that hears one word in each loud stretch of what it is given. */
class StretchEngine implements SpeechToText {
  readonly id = 'stretches';
  readonly label = 'stretches';
  async transcribe(pcm: Int16Array): Promise<SttSegment[]> {
    const frame = 320;
    const words: { startMs: number; endMs: number }[] = [];
    for (let f = 0; f + frame <= pcm.length; f += frame) {
      let sum = 0;
      for (let i = f; i < f + frame; i++) sum += pcm[i] * pcm[i];
      if (Math.sqrt(sum / frame) < 500) continue;
      const ms = (f / RATE) * 1000;
      const last = words[words.length - 1];
      if (last && ms - last.endMs < 300) last.endMs = ms + 20;
      else words.push({ startMs: ms, endMs: ms + 20 });
    }
    return words.map((w, i) => ({ ...w, text: `w${i}`, words: [{ word: `w${i}`, ...w }] }));
  }
}

const A = { hz: 110, ms: 3500 };
const B = { hz: 220, ms: 2500 };
const conversation = [A, B, A, B, A, B, A];

describe('mono recordings split into two voices by speaker embeddings', { timeout: 60_000 }, () => {
  it('makes voice prints of the speech while it streams and splits the turns by them', async () => {
    const fake = new FakeSpeakerEmbedder();
    const result = await transcribeFile(wav('two.wav', turns(conversation)), new StretchEngine(), {
      speakers: fake,
    });
    expect(result.attribution).toBe('turns');
    expect(result.speakers).toEqual({ id: 'fake-speaker', label: fake.label, quality: 'enhanced' });
    // The talker of the longer turns talks more: the rep (loudness is the same).
    expect(result.transcript.map((e) => e.role)).toEqual(
      conversation.map((t) => (t === A ? 'user' : 'assistant')),
    );
    // One span per turn: A's cut at 3 s (its last half second is too short alone), B's whole.
    expect(fake.calls).toEqual(conversation.map((t) => (Math.min(t.ms, MAX_SPAN_MS) * RATE) / 1000));
    for (const n of fake.calls) expect(n).toBeGreaterThanOrEqual((MIN_SPAN_MS * RATE) / 1000);
  });

  it('keeps one voice as one role', async () => {
    const result = await transcribeFile(wav('one.wav', turns([A, A, A, A, A])), new StretchEngine(), {
      speakers: new FakeSpeakerEmbedder(),
    });
    expect(result.attribution).toBe('single');
    expect(result.speakers?.id).toBe('fake-speaker');
    expect(new Set(result.transcript.map((e) => e.role))).toEqual(new Set(['user']));
  });

  it('without a speaker model the voice features split it, as before', async () => {
    const result = await transcribeFile(wav('two-features.wav', turns(conversation)), new StretchEngine());
    expect(result.attribution).toBe('turns');
    expect(result.speakers).toEqual({ id: 'voice-features', label: 'Voice features', quality: 'basic' });
  });

  it('a model that fails during the recording leaves it to the voice features, with the reason', async () => {
    const result = await transcribeFile(wav('two-failing.wav', turns(conversation)), new StretchEngine(), {
      speakers: new FakeSpeakerEmbedder({ failAfter: 2 }),
    });
    expect(result.attribution).toBe('turns');
    expect(result.speakers).toMatchObject({
      id: 'voice-features',
      quality: 'basic',
      fallback: 'the speaker model failed on this recording: the speaker worker stopped',
    });
    expect(result.transcript.map((e) => e.role)).toEqual(
      conversation.map((t) => (t === A ? 'user' : 'assistant')),
    );
  });

  it('two channels carry a speaker each: no voice prints are made', async () => {
    const left = turns([A, { hz: 0, ms: 2500 }, A]);
    const right = turns([{ hz: 0, ms: 3500 }, B, { hz: 0, ms: 3500 }]);
    const data = Buffer.alloc(left.length * 4);
    for (let i = 0; i < left.length; i++) {
      data.writeInt16LE(left[i], i * 4);
      data.writeInt16LE(right[i] ?? 0, i * 4 + 2);
    }
    const file = path.join(tmp, 'stereo.wav');
    fs.writeFileSync(file, Buffer.concat([wavHeader(data.length, RATE, 2), data]));
    const fake = new FakeSpeakerEmbedder();
    const result = await transcribeFile(file, new StretchEngine(), { speakers: fake });
    expect(result.attribution).toBe('stereo');
    expect(result.speakers).toBeNull();
    expect(fake.calls).toEqual([]);
  });
});
