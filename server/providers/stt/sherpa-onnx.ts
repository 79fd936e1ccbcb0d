import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { splitAtQuietPoints } from '../../audio/chunking';
import {
  STT_SAMPLE_RATE,
  type SpeechToText,
  type SttSegment,
  type SttWord,
  type TranscribeOptions,
} from './types';

const require = createRequire(import.meta.url);

export type SherpaSttKind = 'whisper' | 'moonshine' | 'parakeet' | 'transducer';

export interface SherpaSttModel {
  kind: SherpaSttKind;
  name: string;
  dir: string;
  /** Files by role (encoder, decoder, joiner, preprocessor, ...). */
  files: Record<string, string>;
  tokens: string;
}

/** Better engines first: Parakeet, then Whisper base, Moonshine, Whisper tiny. */
const PREFERENCE = [
  'parakeet',
  'whisper-base',
  'moonshine-base',
  'whisper-small',
  'moonshine-tiny',
  'whisper-tiny',
];

function pick(files: string[], pattern: RegExp): string | undefined {
  const matches = files.filter((f) => pattern.test(f));
  // Prefer int8 weights: same accuracy class, a quarter of the memory.
  return matches.find((f) => f.includes('int8')) ?? matches[0];
}

/** Recognises one model folder (the layouts sherpa-onnx publishes). */
export function describeSherpaModel(dir: string): SherpaSttModel | null {
  if (!fs.existsSync(dir) || !fs.statSync(dir).isDirectory()) return null;
  const files = fs.readdirSync(dir);
  const name = path.basename(dir);
  const full = (f: string | undefined) => (f ? path.join(dir, f) : undefined);
  const tokensFile = pick(files, /tokens\.txt$/);
  if (!tokensFile) return null;
  const tokens = path.join(dir, tokensFile);

  const preprocess = pick(files, /^preprocess.*\.onnx$/);
  const uncached = pick(files, /^uncached_decode.*\.onnx$/);
  const cached = pick(files, /^cached_decode.*\.onnx$/);
  const encode = pick(files, /^encode.*\.onnx$/);
  if (preprocess && uncached && cached && encode) {
    return {
      kind: 'moonshine',
      name,
      dir,
      tokens,
      files: {
        preprocessor: full(preprocess)!,
        encoder: full(encode)!,
        uncachedDecoder: full(uncached)!,
        cachedDecoder: full(cached)!,
      },
    };
  }
  const encoder = pick(files, /encoder.*\.onnx$/);
  const decoder = pick(files, /decoder.*\.onnx$/);
  const joiner = pick(files, /joiner.*\.onnx$/);
  if (encoder && decoder && joiner) {
    return {
      kind: /parakeet|nemo/i.test(name) ? 'parakeet' : 'transducer',
      name,
      dir,
      tokens,
      files: { encoder: full(encoder)!, decoder: full(decoder)!, joiner: full(joiner)! },
    };
  }
  if (encoder && decoder && /whisper|tiny|base|small/i.test(name + encoder)) {
    return {
      kind: 'whisper',
      name,
      dir,
      tokens,
      files: { encoder: full(encoder)!, decoder: full(decoder)! },
    };
  }
  return null;
}

/** Offline speech models under MODELS_DIR/stt/<name>/, best first. Streaming models are skipped. */
export function findSherpaSttModels(modelsDir: string): SherpaSttModel[] {
  const root = path.join(modelsDir, 'stt');
  if (!fs.existsSync(root)) return [];
  const models = fs
    .readdirSync(root)
    .filter((n) => !/streaming|online/i.test(n))
    .map((n) => describeSherpaModel(path.join(root, n)))
    .filter((m): m is SherpaSttModel => m !== null);
  const rank = (m: SherpaSttModel) => {
    const i = PREFERENCE.findIndex((p) => m.name.toLowerCase().includes(p));
    return i === -1 ? PREFERENCE.length : i;
  };
  return models.sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}

interface RecognizerResult {
  text: string;
  tokens?: string[];
  timestamps?: number[];
}
interface OfflineStreamLike {
  acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void;
}
interface OfflineRecognizerLike {
  createStream(): OfflineStreamLike;
  decodeAsync(s: OfflineStreamLike): Promise<RecognizerResult>;
}

export function recognizerConfig(model: SherpaSttModel, numThreads: number): object {
  const modelConfig: Record<string, unknown> = {
    tokens: model.tokens,
    numThreads,
    provider: 'cpu',
    debug: 0,
  };
  if (model.kind === 'whisper') {
    const english = /\.en|[-_]en\b/i.test(model.name);
    modelConfig.whisper = {
      encoder: model.files.encoder,
      decoder: model.files.decoder,
      language: english ? '' : 'en',
      task: 'transcribe',
      tailPaddings: -1,
    };
  } else if (model.kind === 'moonshine') {
    modelConfig.moonshine = { ...model.files };
  } else {
    modelConfig.transducer = { ...model.files };
    if (model.kind === 'parakeet') modelConfig.modelType = 'nemo_transducer';
  }
  return {
    featConfig: { sampleRate: STT_SAMPLE_RATE, featureDim: 80 },
    modelConfig,
    decodingMethod: 'greedy_search',
  };
}

/** Groups sub-word tokens into words using the leading-space / '▁' word-start marks. */
export function wordsFromTokens(
  tokens: string[],
  timestampsSec: number[],
  offsetMs: number,
  endMs: number,
): SttWord[] {
  const words: SttWord[] = [];
  for (let i = 0; i < tokens.length; i++) {
    const tok = tokens[i];
    const startMs = Math.round(timestampsSec[i] * 1000) + offsetMs;
    const startsWord = i === 0 || /^[\s▁]/.test(tok);
    const clean = tok.replace(/▁/g, ' ').trim();
    if (!clean) continue;
    if (startsWord || !words.length) words.push({ word: clean, startMs, endMs: startMs });
    else words[words.length - 1].word += clean;
  }
  for (let i = 0; i < words.length; i++) {
    words[i].endMs = i + 1 < words.length ? Math.max(words[i].startMs, words[i + 1].startMs - 10) : endMs;
  }
  return words;
}

/** Smaller than this, an .onnx file is a placeholder or a cut-off download. */
const MIN_ONNX_BYTES = 64 * 1024;

/**
 * Checks a model folder before the native loader sees it: sherpa-onnx ends the whole process
 * on some malformed files (a bad tokens.txt), so damaged downloads must be refused here.
 */
export function checkModelFiles(model: SherpaSttModel): void {
  const damaged = (why: string) =>
    new Error(`The model in ${model.dir} looks incomplete or damaged (${why}); run npm run models again`);
  for (const file of Object.values(model.files)) {
    const size = fs.existsSync(file) ? fs.statSync(file).size : 0;
    if (size < MIN_ONNX_BYTES) throw damaged(`${path.basename(file)} is ${size} bytes`);
  }
  const lines = fs
    .readFileSync(model.tokens, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '');
  if (!lines.length) throw damaged('tokens.txt is empty');
  const bad = lines.find((l) => !/\s\d+\s*$/.test(l));
  if (bad !== undefined) throw damaged(`tokens.txt line "${bad.slice(0, 40)}" has no token id`);
}

/** Whisper, Moonshine, Parakeet and other offline models through sherpa-onnx-node. */
export class SherpaOnnxStt implements SpeechToText {
  readonly id: string;
  readonly label: string;
  private constructor(
    readonly model: SherpaSttModel,
    private readonly recognizer: OfflineRecognizerLike,
  ) {
    this.id = `sherpa-onnx:${model.name}`;
    const family = {
      whisper: 'Whisper',
      moonshine: 'Moonshine',
      parakeet: 'Parakeet',
      transducer: 'Zipformer',
    }[model.kind];
    this.label = `Offline speech engine (${family}, ${model.name})`;
  }

  static async load(model: SherpaSttModel): Promise<SherpaOnnxStt> {
    checkModelFiles(model);
    const sherpa = require('sherpa-onnx-node') as {
      OfflineRecognizer: { createAsync(c: object): Promise<OfflineRecognizerLike> };
    };
    const threads = Math.max(1, Math.min(4, os.cpus().length));
    const recognizer = await sherpa.OfflineRecognizer.createAsync(recognizerConfig(model, threads));
    return new SherpaOnnxStt(model, recognizer);
  }

  async transcribe(pcm: Int16Array, opts: TranscribeOptions = {}): Promise<SttSegment[]> {
    // Whisper sees at most 30 s; shorter chunks also give finer timings to attribute speakers.
    const chunks = splitAtQuietPoints(pcm, { sampleRate: STT_SAMPLE_RATE, maxMs: 20_000, searchMs: 6000 });
    const segments: SttSegment[] = [];
    for (const chunk of chunks) {
      opts.signal?.throwIfAborted();
      const slice = pcm.subarray(chunk.start, chunk.end);
      const samples = new Float32Array(slice.length);
      for (let i = 0; i < slice.length; i++) samples[i] = slice[i] / 32768;
      const stream = this.recognizer.createStream();
      stream.acceptWaveform({ samples, sampleRate: STT_SAMPLE_RATE });
      const result = await this.recognizer.decodeAsync(stream);
      const startMs = Math.round((chunk.start * 1000) / STT_SAMPLE_RATE);
      const endMs = Math.round((chunk.end * 1000) / STT_SAMPLE_RATE);
      const text = (result.text ?? '').trim();
      if (text) {
        const timed =
          result.tokens && result.timestamps && result.tokens.length === result.timestamps.length
            ? wordsFromTokens(result.tokens, result.timestamps, startMs, endMs)
            : undefined;
        segments.push({
          startMs: timed?.length ? timed[0].startMs : startMs,
          endMs,
          text,
          ...(timed?.length ? { words: timed } : {}),
        });
      }
      opts.onProgress?.(chunk.end / pcm.length);
    }
    return segments;
  }
}
