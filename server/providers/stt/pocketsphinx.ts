import { spawnSync } from 'node:child_process';
import { spawnTied } from '../../child-process';
import { makeTempDir } from '../../temp';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { encodeWav } from '../../audio/wav';
import { splitAtQuietPoints } from '../../audio/chunking';
import { fillMissingBand, normaliseLevel } from '../../audio/level';
import { builtHelper } from '../../native-helpers';
import { WarmDecoder } from './warm-decoder';
import {
  STT_SAMPLE_RATE,
  type SpeechToText,
  type SttSegment,
  type SttWord,
  type TranscribeOptions,
} from './types';

export const POCKETSPHINX_INSTALL_HINT = 'Install pocketsphinx and pocketsphinx-en-us (npm run setup)';
export const POCKETSPHINX_LABEL = 'Offline speech engine (PocketSphinx) — accuracy is limited';

const DEFAULT_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';

/**
 * Decoder flags used for recordings. Spectral noise subtraction is off: on the fixture clips it
 * removed speech along with the noise (pooled WER 32.3% -> 27.3%, both halves of the held-out
 * split improving; docs/benchmarks.md). At most 5,000 active HMMs a frame (the default is 30,000)
 * cuts decoding CPU by about a fifth at the same pooled WER on the fixtures (24.2%); 3,000 cost
 * 1.4 points, 2,000 cost 2.6.
 */
export const BATCH_ARGS = ['-remove_noise', 'no', '-maxhmmpf', '5000'];

/** The in-home sales conversation model (corpus.txt -> sales.arpa) and trade-word pronunciations. */
const SALES_LM_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'sales-lm');
export const SALES_LM = path.join(SALES_LM_DIR, 'sales.arpa');
export const TRADE_WORDS_DICT = path.join(SALES_LM_DIR, 'trade-words.dict');

export interface DomainModel {
  /** ARPA or binary language model interpolated with the general one. */
  lm: string;
  /** Its weight, between 0 and 1. */
  weight: number;
  /** Extra pronunciations for words the general dictionary lacks. */
  dict?: string;
}

export interface PocketSphinxOptions {
  binary?: string;
  /** Folder holding en-us/ (acoustic model), en-us.lm.bin and cmudict-en-us.dict. */
  modelDir?: string;
  /** Chunks decoded at once; each is its own process, so this is bounded by the cores. */
  concurrency?: number;
  /** Longest chunk handed to one process. */
  chunkMs?: number;
  /**
   * Extra decoder flags (speed/accuracy trade-offs). The Debian defaults are kept: faster
   * searches measured in docs/benchmarks.md move the error rate of single clips by +-30 points.
   */
  extraArgs?: string[];
  /** Raise quiet chunks to speech level before decoding (default on; see server/audio/level.ts). */
  normaliseLevel?: boolean;
  /** Fill the empty upper band of telephone audio with faint noise (default on; level.ts). */
  fillTelephoneBand?: boolean;
  /** Language model file (ARPA or binary); default en-us.lm.bin in modelDir. */
  lm?: string;
  /** Pronunciation dictionary; default cmudict-en-us.dict in modelDir. */
  dict?: string;
  /**
   * A second language model mixed into the general one through build/sphinx-batch (e.g. the
   * sales conversation model: SALES_LM + TRADE_WORDS_DICT). Default none: mixed in at 0.2 it
   * took 3 points of WER off synthetic sales sentences but added 6 on the general fixture
   * clips (docs/benchmarks.md); POCKETSPHINX_SALES_LM_WEIGHT turns it on.
   */
  domain?: DomainModel | null;
  /** The build/sphinx-batch helper (default: found in build/). */
  batchBinary?: string | null;
  /**
   * Start each chunk's cepstral mean normalisation from the chunk's own mean (a feature-only
   * first pass in build/sphinx-batch) instead of the model's fixed starting mean. Default on
   * when the helper is built; without it, pocketsphinx_continuous decodes as before.
   */
  cmnFromRecording?: boolean;
}

/** The model folder, when it holds the acoustic model, language model and dictionary. */
export function pocketSphinxModelDir(dir = DEFAULT_MODEL_DIR): string | null {
  const ok =
    fs.existsSync(path.join(dir, 'en-us', 'mdef')) &&
    fs.existsSync(path.join(dir, 'en-us.lm.bin')) &&
    fs.existsSync(path.join(dir, 'cmudict-en-us.dict'));
  return ok ? dir : null;
}

/** Where the binary and model are, or null when they are not installed. */
export function findPocketSphinx(opts: { binary?: string; modelDir?: string } = {}): {
  binary: string;
  modelDir: string;
} | null {
  const modelDir = pocketSphinxModelDir(opts.modelDir);
  const binary = opts.binary ?? 'pocketsphinx_continuous';
  if (!modelDir) return null;
  const probe = spawnSync(binary, ['-h'], { stdio: 'ignore', timeout: 10_000 });
  if (probe.error) return null;
  return { binary, modelDir };
}

const FILLER = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+|\+.*\+)$/i;
const TIMING_LINE = /^(\S+)\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)$/;

/**
 * Parses `pocketsphinx_continuous -time yes` output: a hypothesis line per utterance followed
 * by `<s> start end conf`, one `word start end conf` line per word, then `</s>`. Times are seconds.
 */
export function parsePocketSphinxOutput(stdout: string, offsetMs = 0): SttSegment[] {
  const segments: SttSegment[] = [];
  let words: SttWord[] = [];
  const flush = () => {
    if (words.length) {
      segments.push({
        startMs: words[0].startMs,
        endMs: words[words.length - 1].endMs,
        text: words.map((w) => w.word).join(' '),
        words,
      });
    }
    words = [];
  };
  for (const raw of stdout.split('\n')) {
    const m = TIMING_LINE.exec(raw.trim());
    if (!m) continue;
    const token = m[1];
    if (token === '<s>') {
      flush();
      continue;
    }
    if (token === '</s>') {
      flush();
      continue;
    }
    if (FILLER.test(token)) continue;
    const word = token.replace(/\(\d+\)$/, '');
    words.push({
      word,
      startMs: Math.round(Number(m[2]) * 1000) + offsetMs,
      endMs: Math.round(Number(m[3]) * 1000) + offsetMs,
    });
  }
  flush();
  return segments;
}

/**
 * The longest chunk for a recording of `durationMs`, so that the chunks fill every decoder
 * equally: 35 s at 30 s chunks on two cores was 30 s + 5 s, so one core decoded alone for
 * 25 s; now two chunks of about 17 s (on the two Azure clips over 30 s: 33 -> 31 word errors).
 * Chunks are never made longer than `maxMs`, and a recording that fits one chunk stays whole.
 * The 15% slack leaves room to cut at a quiet spot without adding a short chunk at the end.
 */
export function balancedChunkMs(durationMs: number, maxMs: number, workers: number): number {
  const chunks = Math.ceil(durationMs / maxMs);
  if (chunks <= 1 || workers <= 1) return maxMs;
  let rounds = Math.ceil(chunks / workers);
  // Cuts land up to a third before the limit, so a window of exactly 4 x 30 s would give 5.
  while ((durationMs / (rounds * workers)) * 1.15 > maxMs) rounds++;
  return Math.ceil((durationMs / (rounds * workers)) * 1.15);
}

type DecoderChoice = {
  binary: string;
  batchBinary: string | null;
  cmnFirst: boolean;
  domain: DomainModel | null;
};

/** build/sphinx-batch's arguments, without the file, when it is the decoder to use (else null). */
function batchArgs(d: DecoderChoice, common: string[]): string[] | null {
  if (!d.batchBinary || !(d.domain || d.cmnFirst)) return null;
  return [
    ...common,
    ...(d.cmnFirst ? ['-cmnfirst', 'yes'] : []),
    ...(d.domain ? ['-mixlm', d.domain.lm, '-mixweight', String(d.domain.weight)] : []),
    ...(d.domain?.dict ? ['-adddict', d.domain.dict] : []),
  ];
}

/**
 * The program and arguments that decode one chunk file: build/sphinx-batch when it is built and
 * a second model is mixed in or the chunk's own cepstral mean is wanted (it prints the same lines
 * as `pocketsphinx_continuous -time yes`), else the Debian tool.
 */
export function decoderCommand(d: DecoderChoice, file: string, common: string[]): [string, string[]] {
  const batch = batchArgs(d, common);
  if (batch && d.batchBinary) return [d.batchBinary, ['-infile', file, ...batch]];
  return [d.binary, ['-infile', file, '-time', 'yes', ...common]];
}

/**
 * The program and arguments of a warm decoder that takes chunk files on standard input
 * (build/sphinx-batch without -infile), or null when chunks go to the Debian tool one process
 * each.
 */
export function warmDecoderCommand(d: DecoderChoice, common: string[]): [string, string[]] | null {
  const batch = batchArgs(d, common);
  return batch && d.batchBinary ? [d.batchBinary, batch] : null;
}

/**
 * The embedded default: the Debian pocketsphinx CLI, one process per chunk of audio, with
 * chunks decoded in parallel. Weak, but real and fully offline.
 */
export class PocketSphinxStt implements SpeechToText {
  readonly id = 'pocketsphinx';
  readonly label = POCKETSPHINX_LABEL;
  private readonly binary: string;
  private readonly modelDir: string;
  private readonly concurrency: number;
  private readonly chunkMs: number;
  private readonly extraArgs: string[];
  private readonly normalise: boolean;
  private readonly fillBand: boolean;
  private readonly lm: string;
  private readonly dict: string;
  private readonly domain: DomainModel | null;
  private readonly batchBinary: string | null;
  private readonly cmnFirst: boolean;

  constructor(opts: PocketSphinxOptions = {}) {
    const found = findPocketSphinx(opts);
    if (!found) throw new Error(POCKETSPHINX_INSTALL_HINT);
    this.binary = found.binary;
    this.modelDir = found.modelDir;
    this.concurrency = Math.max(1, opts.concurrency ?? Math.min(2, os.cpus().length));
    this.chunkMs = opts.chunkMs ?? 30_000;
    this.extraArgs = [...BATCH_ARGS, ...(opts.extraArgs ?? [])];
    this.normalise = opts.normaliseLevel ?? true;
    this.fillBand = opts.fillTelephoneBand ?? true;
    this.lm = opts.lm ?? path.join(this.modelDir, 'en-us.lm.bin');
    this.dict = opts.dict ?? path.join(this.modelDir, 'cmudict-en-us.dict');
    this.batchBinary = opts.batchBinary === undefined ? builtHelper('sphinx-batch') : opts.batchBinary;
    const domain = opts.domain ?? null;
    this.domain = this.batchBinary && domain && fs.existsSync(domain.lm) ? domain : null;
    this.cmnFirst = Boolean(this.batchBinary) && (opts.cmnFromRecording ?? true);
  }

  /** Whether recordings are decoded with the sales conversation (or other second) model mixed in. */
  get mixesDomainModel(): boolean {
    return this.domain !== null;
  }

  async transcribe(pcm: Int16Array, opts: TranscribeOptions = {}): Promise<SttSegment[]> {
    const chunks = splitAtQuietPoints(pcm, {
      sampleRate: STT_SAMPLE_RATE,
      maxMs: balancedChunkMs((pcm.length * 1000) / STT_SAMPLE_RATE, this.chunkMs, this.concurrency),
    });
    const results: SttSegment[][] = new Array(chunks.length);
    const tmp = await makeTempDir('doorstep-ps-');
    let doneSamples = 0;
    let next = 0;
    try {
      // One warm decoder per worker for all its chunks, when the helper is built.
      const warmCommand = warmDecoderCommand(this.choice, this.commonArgs());
      const worker = async () => {
        const warm = warmCommand && next < chunks.length ? new WarmDecoder(...warmCommand) : null;
        try {
          while (next < chunks.length) {
            opts.signal?.throwIfAborted();
            const index = next++;
            const chunk = chunks[index];
            const file = path.join(tmp, `chunk-${index}.wav`);
            let samples = pcm.subarray(chunk.start, chunk.end);
            if (this.normalise) samples = normaliseLevel(samples);
            if (this.fillBand) samples = fillMissingBand(samples, opts.sourceSampleRate);
            await fsp.writeFile(file, encodeWav(samples, STT_SAMPLE_RATE));
            const stdout = warm ? await warm.decode(file, opts.signal) : await this.run(file, opts.signal);
            await fsp.rm(file, { force: true });
            results[index] = parsePocketSphinxOutput(
              stdout,
              Math.round((chunk.start * 1000) / STT_SAMPLE_RATE),
            );
            doneSamples += chunk.end - chunk.start;
            opts.onProgress?.(pcm.length ? doneSamples / pcm.length : 1);
          }
        } finally {
          warm?.close();
        }
      };
      await Promise.all(Array.from({ length: Math.min(this.concurrency, chunks.length) }, worker));
    } finally {
      await fsp.rm(tmp, { recursive: true, force: true });
    }
    return results.flat();
  }

  private get choice(): DecoderChoice {
    return {
      binary: this.binary,
      batchBinary: this.batchBinary,
      cmnFirst: this.cmnFirst,
      domain: this.domain,
    };
  }

  private commonArgs(): string[] {
    return [
      '-logfn',
      '/dev/null',
      '-hmm',
      path.join(this.modelDir, 'en-us'),
      '-lm',
      this.lm,
      '-dict',
      this.dict,
      ...this.extraArgs,
    ];
  }

  private run(file: string, signal?: AbortSignal): Promise<string> {
    // build/sphinx-batch prints the same utterance and word-time lines as pocketsphinx_continuous.
    const [binary, args] = decoderCommand(this.choice, file, this.commonArgs());
    return new Promise((resolve, reject) => {
      const child = spawnTied(binary, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      const out: Buffer[] = [];
      let err = '';
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => {
        if (err.length < 4000) err += b.toString();
      });
      const onAbort = () => child.kill('SIGKILL');
      signal?.addEventListener('abort', onAbort, { once: true });
      child.on('error', (e) => {
        signal?.removeEventListener('abort', onAbort);
        reject(new Error(`${POCKETSPHINX_INSTALL_HINT} (${e.message})`));
      });
      child.on('close', (code) => {
        signal?.removeEventListener('abort', onAbort);
        if (signal?.aborted) return reject(signal.reason ?? new Error('aborted'));
        if (code !== 0)
          return reject(new Error(`pocketsphinx failed (exit ${code}): ${err.trim().slice(-300)}`));
        resolve(Buffer.concat(out).toString('utf8'));
      });
    });
  }
}
