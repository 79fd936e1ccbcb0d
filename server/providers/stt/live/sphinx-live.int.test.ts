import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sharedDir } from '../../../test-support/harness';
import { wordErrorRate } from '../../../audio/wer';
import { selectLiveRecognizer } from './select';
import { concatPcm, readWav, resampleInt16 } from '../../../audio/wav';
import { builtHelper } from '../../../native-helpers';
import { skipWithout } from '../../../test-support/engines';
import { pocketSphinxModelDir } from '../pocketsphinx';
import { cleanHypothesis, LIGHT_SEARCH_ARGS, LIVE_SEARCH_ARGS, SphinxLiveRecognizer } from './sphinx-live';
import { DecoderGate } from './decoder-gate';

function speech(rel: string): Int16Array {
  const { sampleRate, pcm } = readWav(fs.readFileSync(path.join(sharedDir, 'fixtures/audio', rel)));
  return resampleInt16(pcm, sampleRate, 16_000);
}

function reference(rel: string): string {
  return fs.readFileSync(path.join(sharedDir, 'fixtures/audio', rel.replace(/\.wav$/, '.txt')), 'utf8');
}

const binary = builtHelper('sphinx-live');
const modelDir = pocketSphinxModelDir();
const open: SphinxLiveRecognizer[] = [];

function recognizer(gate?: DecoderGate): SphinxLiveRecognizer {
  if (!binary || !modelDir)
    throw new Error('run npm run setup: build/sphinx-live or the PocketSphinx model is missing');
  const r = new SphinxLiveRecognizer(binary, modelDir, LIVE_SEARCH_ARGS, gate ?? null);
  open.push(r);
  return r;
}

/** Writes audio in 32 ms windows, as a live call does, asking for a caption every 320 ms. */
async function speak(r: SphinxLiveRecognizer, pcm: Int16Array): Promise<string[]> {
  const captions: string[] = [];
  r.begin();
  for (let i = 0, n = 0; i < pcm.length; i += 512, n++) {
    r.write(pcm.subarray(i, i + 512));
    if (n % 10 === 9) {
      const caption = await r.partial(2000);
      if (caption) captions.push(caption);
    }
  }
  return captions;
}

afterEach(() => {
  for (const r of open.splice(0)) r.close();
});

describe.skipIf(skipWithout('sphinx-live'))('sphinx-live: the warm per-call PocketSphinx decoder', () => {
  it('is built by npm run setup', () => {
    expect(binary, 'build/sphinx-live (npm run setup)').not.toBeNull();
    expect(modelDir, 'pocketsphinx-en-us').not.toBeNull();
  });

  it('gives growing captions during an utterance and the final words when it ends', async () => {
    const r = recognizer();
    const rel = 'azure_customspeech_en/training_audio2.wav';
    const captions = await speak(r, speech(rel));
    const final = await r.end(5000);
    expect(final).not.toBeNull();
    // Captions grow as the speaker goes on, and the final is close to what was said.
    expect(captions.length).toBeGreaterThan(5);
    expect(captions.at(-1)!.split(' ').length).toBeGreaterThan(captions[0].split(' ').length);
    expect(wordErrorRate(reference(rel), final!)).toBeLessThan(0.35);
  });

  it('keeps utterances apart: each end returns only its own words', async () => {
    const r = recognizer();
    await speak(r, speech('azure_misc/whatstheweatherlike.wav'));
    const first = await r.end(5000);
    await speak(r, speech('pocketsphinx_misc/goforward.wav'));
    const second = await r.end(5000);
    expect(first).toMatch(/weather/);
    expect(first).not.toMatch(/forward/);
    expect(second).toMatch(/forward/);
    expect(second).not.toMatch(/weather/);
    // Outside an utterance there is nothing to caption, and audio is ignored.
    r.write(speech('azure_misc/whatstheweatherlike.wav'));
    expect(await r.partial(1000)).toBe('');
  });

  it('answers null, not an exception, once the decoder has died', async () => {
    const r = recognizer();
    r.begin();
    process.kill(r.pid!, 'SIGKILL');
    const deadline = Date.now() + 5000;
    while (r.alive && Date.now() < deadline) await new Promise((res) => setTimeout(res, 20));
    expect(r.alive).toBe(false);
    expect(await r.end(1000)).toBeNull();
  });

  it('is what a live call uses when PocketSphinx is the speech engine', async () => {
    const models = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-live-'));
    try {
      const live = selectLiveRecognizer({ modelsDir: models, sttEngine: 'pocketsphinx', mode: 'auto' });
      expect(live.info.engine).toBe('pocketsphinx-live');
      const r = live.create({ activeCalls: 0 }) as SphinxLiveRecognizer;
      expect(r.id).toBe('pocketsphinx-live');
      expect(r.searchArgs).toEqual(LIVE_SEARCH_ARGS);
      // A busy server starts new calls on the lighter search.
      const busyServer = selectLiveRecognizer({
        modelsDir: models,
        sttEngine: 'pocketsphinx',
        mode: 'auto',
        lightSearchFrom: 4,
        idleDecoders: 0,
      });
      const busy = busyServer.create({ activeCalls: 4 }) as SphinxLiveRecognizer;
      expect(busy.searchArgs).toEqual(LIGHT_SEARCH_ARGS);
      // Both searches start and hear speech (a flag given twice stops the decoder at once).
      for (const [decoder, args] of [
        [r, LIVE_SEARCH_ARGS],
        [busy, LIGHT_SEARCH_ARGS],
      ] as const) {
        const flags = args.filter((a) => a.startsWith('-'));
        expect(new Set(flags).size).toBe(flags.length);
        await speak(decoder, speech('pocketsphinx_misc/goforward.wav'));
        expect(await decoder.end(5000)).toMatch(/forward/);
      }
      r.close();
      live.close?.();
      busy.close();
      expect(busy.alive).toBe(false);
    } finally {
      fs.rmSync(models, { recursive: true, force: true });
    }
  });
});

describe.skipIf(skipWithout('sphinx-live'))('decoders sharing the cores by urgency', () => {
  it('hear the same words through the gate as straight through the pipe', async () => {
    const gate = new DecoderGate(1);
    const gated = recognizer(gate);
    const direct = recognizer();
    const rel = 'azure_customspeech_en/training_audio2.wav';
    const [viaGate, straight] = await Promise.all(
      [gated, direct].map(async (r) => {
        await speak(r, speech(rel));
        return r.end(5000);
      }),
    );
    expect(viaGate).toBeTruthy();
    expect(viaGate).toBe(straight);
    expect(gate.working).toBe(0);
  });

  it('decode first the audio a turn decision waits on, then the backlog of a rep still talking', async () => {
    const gate = new DecoderGate(1);
    const talking = recognizer(gate);
    const paused = recognizer(gate);
    // Both have loaded their models (an answer outside an utterance comes once they have).
    await Promise.all([talking.end(5000), paused.end(5000)]);
    const audio = concatPcm(
      [
        'librivox_pocketsphinx/sense_and_sensibility_01_austen_64kb-0880.wav',
        'librivox_pocketsphinx/sense_and_sensibility_01_austen_64kb-0930.wav',
      ].map(speech),
    );
    const order: string[] = [];
    // The rep still talking sent a long stretch first; its caption is for the page only.
    talking.begin();
    talking.write(audio);
    const caption = talking.partial(20_000).then((t) => (order.push('caption'), t));
    // The other rep said as much, then fell silent: turn-taking waits on these words.
    paused.begin();
    paused.write(audio);
    const words = paused.partial(20_000, { urgent: true }).then((t) => (order.push('turn'), t));
    const [c, w] = await Promise.all([caption, words]);
    expect(order).toEqual(['turn', 'caption']);
    // Same audio, same decoder settings: the order changed, not the words.
    expect(w).toBeTruthy();
    expect(w).toBe(c);
  });
});

describe('a decoder built before the acknowledgements', () => {
  it('is written to directly even with a gate, so its answers still come', async () => {
    // Protocol 1: "R" when ready, then one line per 'P' and 'E' only (no "a" for audio).
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-old-decoder-'));
    const fake = path.join(dir, 'sphinx-live');
    fs.writeFileSync(
      fake,
      `#!${process.execPath}
let buf = Buffer.alloc(0), samples = 0;
process.stdout.write('R\\n');
process.stdin.on('data', (d) => {
  buf = Buffer.concat([buf, d]);
  while (buf.length >= 5 && buf.length >= 5 + buf.readUInt32LE(1)) {
    const type = String.fromCharCode(buf[0]), len = buf.readUInt32LE(1);
    if (type === 'A') samples += len / 2;
    if (type === 'P') process.stdout.write('P heard ' + samples + '\\n');
    if (type === 'E') process.stdout.write('F heard ' + samples + '\\n');
    buf = buf.subarray(5 + len);
  }
});
`,
      { mode: 0o755 },
    );
    const gate = new DecoderGate(1);
    const r = new SphinxLiveRecognizer(fake, dir, LIVE_SEARCH_ARGS, gate);
    open.push(r);
    try {
      r.begin();
      r.write(new Int16Array(4000));
      expect(await r.partial(5000)).toBe('heard 4000');
      r.write(new Int16Array(1000));
      expect(await r.end(5000)).toBe('heard 5000');
      expect(gate.working).toBe(0);
    } finally {
      r.close();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('decoders kept between calls', () => {
  it("reuses a finished call's decoder, dropping an utterance it left open, and ends them on close", async () => {
    const models = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-live-pool-'));
    const live = selectLiveRecognizer({
      modelsDir: models,
      sttEngine: 'pocketsphinx',
      mode: 'auto',
      idleDecoders: 1,
    });
    try {
      const first = live.create({ activeCalls: 0 }) as SphinxLiveRecognizer;
      const pid = first.pid;
      // The call hangs up mid-sentence.
      first.begin();
      first.write(speech('azure_misc/whatstheweatherlike.wav'));
      first.close();
      expect(live.idleDecoders?.()).toBe(1);
      const second = live.create({ activeCalls: 0 }) as SphinxLiveRecognizer;
      expect(second.pid).toBe(pid);
      expect(live.idleDecoders?.()).toBe(0);
      // The next call hears only its own words.
      await speak(second, speech('pocketsphinx_misc/goforward.wav'));
      const words = await second.end(5000);
      expect(words).toMatch(/forward/);
      expect(words).not.toMatch(/weather/);
      // Only one is kept: a second finished call's decoder is ended.
      const third = live.create({ activeCalls: 0 }) as SphinxLiveRecognizer;
      expect(third.pid).not.toBe(pid);
      second.close();
      third.close();
      expect(third.alive).toBe(false);
      expect(live.idleDecoders?.()).toBe(1);
      live.close?.();
      expect(live.idleDecoders?.()).toBe(0);
      expect(second.alive).toBe(false);
    } finally {
      live.close?.();
      fs.rmSync(models, { recursive: true, force: true });
    }
  });
});

describe('spare decoders started before calls need them', () => {
  it('are made in the background with the search each next call will get, and taken by new calls', async () => {
    const models = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-live-warm-'));
    const live = selectLiveRecognizer({
      modelsDir: models,
      sttEngine: 'pocketsphinx',
      mode: 'auto',
      idleDecoders: 0,
      lightSearchFrom: 2,
    });
    try {
      // Two calls may follow an idle server (the full search), a third would get the light one.
      live.warm!(3, 0);
      const deadline = Date.now() + 10_000;
      while ((live.idleDecoders?.() ?? 0) < 3 && Date.now() < deadline)
        await new Promise((r) => setTimeout(r, 50));
      expect(live.idleDecoders?.()).toBe(3);
      // Asked again for the same, it starts none.
      live.warm!(3, 0);
      await new Promise((r) => setTimeout(r, 400));
      expect(live.idleDecoders?.()).toBe(3);
      const first = live.create({ activeCalls: 0 }) as SphinxLiveRecognizer;
      expect(first.searchArgs).toEqual(LIVE_SEARCH_ARGS);
      const busy = live.create({ activeCalls: 2 }) as SphinxLiveRecognizer;
      expect(busy.searchArgs).toEqual(LIGHT_SEARCH_ARGS);
      // Both were spares: nothing new was started for them.
      expect(live.idleDecoders?.()).toBe(1);
      await speak(busy, speech('pocketsphinx_misc/goforward.wav'));
      expect(await busy.end(5000)).toMatch(/forward/);
      // A finished call's decoder is kept, as many as were asked for at once.
      busy.close();
      first.close();
      expect(live.idleDecoders?.()).toBe(3);
      live.close?.();
      expect(live.idleDecoders?.()).toBe(0);
    } finally {
      live.close?.();
      fs.rmSync(models, { recursive: true, force: true });
    }
  });
});

describe('cleanHypothesis', () => {
  it('drops noise and filler tokens and alternate-pronunciation marks', () => {
    expect(cleanHypothesis("<s> what's(2) the [NOISE] weather <sil> ++UH++ like </s>")).toBe(
      "what's the weather like",
    );
    expect(cleanHypothesis('')).toBe('');
  });
});
