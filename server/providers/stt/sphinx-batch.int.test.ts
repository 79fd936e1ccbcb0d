import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { decodeToMono } from '../../audio/decode';
import { wordErrorRate } from '../../audio/wer';
import { sharedDir } from '../../test-support/harness';
import { skipWithout } from '../../test-support/engines';
import { execFile } from 'node:child_process';
import { encodeWav } from '../../audio/wav';
import { builtHelper } from '../../native-helpers';
import {
  BATCH_ARGS,
  decoderCommand,
  findPocketSphinx,
  PocketSphinxStt,
  SALES_LM,
  TRADE_WORDS_DICT,
  warmDecoderCommand,
} from './pocketsphinx';
import { WarmDecoder } from './warm-decoder';
import { buildTrigramModel, toArpa } from './ngram-lm';

const goforward = path.join(sharedDir, 'fixtures/audio/pocketsphinx_misc/goforward.wav');
const jfk = path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav');
const JFK =
  'and so my fellow americans ask not what your country can do for you ask what you can do for your country';

describe.skipIf(skipWithout('pocketsphinx', 'sphinx-batch'))(
  'recordings with the sales model mixed in',
  () => {
    it('with the sales model mixed in still hears read speech, with timings in the clip', async () => {
      const stt = new PocketSphinxStt({ domain: { lm: SALES_LM, weight: 0.2, dict: TRADE_WORDS_DICT } });
      expect(stt.mixesDomainModel).toBe(true);
      const pcm = await decodeToMono(goforward);
      const segs = await stt.transcribe(pcm);
      expect(wordErrorRate('go forward ten meters', segs.map((s) => s.text).join(' '))).toBeLessThanOrEqual(
        0.25,
      );
      const clipMs = (pcm.length / 16000) * 1000;
      for (const w of segs.flatMap((s) => s.words ?? [])) {
        expect(w.startMs).toBeGreaterThanOrEqual(0);
        expect(w.endMs).toBeLessThanOrEqual(clipMs + 50);
        expect(w.word).not.toMatch(/[()<>[\]]/);
      }
    });

    it('gives the same words and times as the Debian tool when nothing is mixed in', async () => {
      const pcm = await decodeToMono(goforward);
      const plain = await new PocketSphinxStt({ domain: null, batchBinary: null }).transcribe(pcm);
      const viaHelper = await new PocketSphinxStt({
        cmnFromRecording: false,
        // A weight this small leaves the general model in charge; the helper's own decoding
        // (voice detection, utterances, word times) must match pocketsphinx_continuous.
        domain: { lm: SALES_LM, weight: 0.0001 },
      }).transcribe(pcm);
      expect(viaHelper.map((s) => s.text)).toEqual(plain.map((s) => s.text));
      expect(viaHelper[0].startMs).toBeCloseTo(plain[0].startMs, -2);
    });

    it('a mixed-in model pulls the decoder towards its own word sequences', async () => {
      // A model that only knows one sentence, weighted heavily, turns the clip into that sentence.
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-mixlm-'));
      try {
        const lm = path.join(dir, 'one.arpa');
        fs.writeFileSync(lm, toArpa(buildTrigramModel([['go', 'four', 'word', 'ten', 'meters']])));
        const pcm = await decodeToMono(goforward);
        const text = (await new PocketSphinxStt({ domain: { lm, weight: 0.95 } }).transcribe(pcm))
          .map((s) => s.text)
          .join(' ');
        expect(text).toContain('four word');
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });

    it('by default starts each chunk from its own cepstral mean, which hears more of JFK', async () => {
      // The model's fixed starting mean does not fit this 1961 recording: the decoder's live mean
      // takes seconds to settle and the first words are lost (docs/benchmarks.md).
      const pcm = await decodeToMono(jfk);
      const text = async (stt: PocketSphinxStt) => (await stt.transcribe(pcm)).map((s) => s.text).join(' ');
      const fixedStart = wordErrorRate(JFK, await text(new PocketSphinxStt({ cmnFromRecording: false })));
      const ownMean = wordErrorRate(JFK, await text(new PocketSphinxStt()));
      expect(ownMean).toBeLessThan(fixedStart);
      expect(ownMean).toBeLessThanOrEqual(0.5);
    });

    it('one warm decoder reads chunk after chunk with the same words and times as a process each', async () => {
      const found = findPocketSphinx()!;
      const choice = {
        binary: found.binary,
        batchBinary: builtHelper('sphinx-batch'),
        cmnFirst: true,
        domain: null,
      };
      const common = [
        '-logfn',
        '/dev/null',
        '-hmm',
        path.join(found.modelDir, 'en-us'),
        '-lm',
        path.join(found.modelDir, 'en-us.lm.bin'),
        '-dict',
        path.join(found.modelDir, 'cmudict-en-us.dict'),
        ...BATCH_ARGS,
      ];
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-warm-'));
      const wav = path.join(dir, 'jfk.wav');
      fs.writeFileSync(wav, encodeWav(await decodeToMono(jfk), 16000));
      const once = (file: string) =>
        new Promise<string>((resolve, reject) => {
          const [bin, args] = decoderCommand(choice, file, common);
          execFile(bin, args, (err, stdout) => (err ? reject(err) : resolve(stdout)));
        });
      const warm = new WarmDecoder(...warmDecoderCommand(choice, common)!);
      try {
        const fresh = await once(wav);
        expect(fresh).toContain('country');
        expect(await warm.decode(wav)).toBe(fresh);
        // A file it cannot read fails alone; the decoder goes on with the next one.
        await expect(warm.decode(path.join(dir, 'missing.wav'))).rejects.toThrow(/pocketsphinx failed/);
        // The second file's times start again from zero.
        expect(await warm.decode(wav)).toBe(fresh);
        // Stopping a decode kills the process.
        const stop = new AbortController();
        const pending = warm.decode(wav, stop.signal);
        stop.abort(new Error('stopped'));
        await expect(pending).rejects.toThrow('stopped');
        await expect(warm.decode(wav)).rejects.toThrow(/pocketsphinx failed/);
      } finally {
        warm.kill();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
