import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { checkModelFiles, describeSherpaModel, type SherpaSttModel } from '../sherpa-onnx';
import type { LiveRecognizer } from './types';

const require = createRequire(import.meta.url);

/** Silence fed after the last word so the streaming model's lookahead sees the end of it. */
const TAIL_PADDING_SAMPLES = 0.4 * 16_000;

interface OnlineStreamLike {
  acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}
interface OnlineRecognizerLike {
  createStream(): OnlineStreamLike;
  isReady(s: OnlineStreamLike): boolean;
  decode(s: OnlineStreamLike): void;
  getResult(s: OnlineStreamLike): { text?: string };
}

/** Streaming (online) transducer folders under MODELS_DIR/stt, e.g. the streaming Zipformer. */
export function findStreamingModels(modelsDir: string): SherpaSttModel[] {
  const root = path.join(modelsDir, 'stt');
  if (!fs.existsSync(root)) return [];
  return fs
    .readdirSync(root)
    .filter((n) => /streaming|online/i.test(n))
    .sort()
    .map((n) => describeSherpaModel(path.join(root, n)))
    .filter((m): m is SherpaSttModel => m !== null && m.kind === 'transducer');
}

export function onlineRecognizerConfig(model: SherpaSttModel, numThreads = 1): object {
  return {
    featConfig: { sampleRate: 16_000, featureDim: 80 },
    modelConfig: {
      transducer: {
        encoder: model.files.encoder,
        decoder: model.files.decoder,
        joiner: model.files.joiner,
      },
      tokens: model.tokens,
      numThreads,
      provider: 'cpu',
      debug: 0,
    },
    decodingMethod: 'greedy_search',
    // Our own turn-taking ends utterances; the model's endpointing would split them differently.
    enableEndpoint: 0,
  };
}

/**
 * A streaming Zipformer (or other online transducer) through sherpa-onnx-node. One model is
 * loaded per process and shared; each utterance gets its own stream, decoded chunk by chunk as
 * audio arrives, so captions are the model's running result and the final words need only the
 * last chunk decoded.
 */
export class SherpaOnlineEngine {
  readonly id: string;
  readonly label: string;

  private constructor(
    readonly model: SherpaSttModel,
    private readonly recognizer: OnlineRecognizerLike,
  ) {
    this.id = `sherpa-onnx-online:${model.name}`;
    this.label = `Streaming speech engine (Zipformer, ${model.name})`;
  }

  /** Loads the model; throws with a clear message when its files are missing or damaged. */
  static load(model: SherpaSttModel): SherpaOnlineEngine {
    checkModelFiles(model);
    const sherpa = require('sherpa-onnx-node') as {
      OnlineRecognizer: new (c: object) => OnlineRecognizerLike;
    };
    return new SherpaOnlineEngine(model, new sherpa.OnlineRecognizer(onlineRecognizerConfig(model)));
  }

  createRecognizer(): LiveRecognizer {
    return new SherpaOnlineRecognizer(this.recognizer);
  }
}

class SherpaOnlineRecognizer implements LiveRecognizer {
  readonly id = 'sherpa-onnx-online';
  private stream: OnlineStreamLike | null = null;
  private closed = false;

  constructor(private readonly recognizer: OnlineRecognizerLike) {}

  get alive(): boolean {
    return !this.closed;
  }

  begin(): void {
    if (this.closed) return;
    this.stream = this.recognizer.createStream();
  }

  write(pcm: Int16Array): void {
    const stream = this.stream;
    if (!stream || pcm.length === 0) return;
    const samples = new Float32Array(pcm.length);
    for (let i = 0; i < pcm.length; i++) samples[i] = pcm[i] / 32768;
    this.guard(() => {
      stream.acceptWaveform({ samples, sampleRate: 16_000 });
      this.decodeReady(stream);
    });
  }

  async partial(): Promise<string | null> {
    const stream = this.stream;
    if (!stream) return '';
    return this.guard(() => normalise(this.recognizer.getResult(stream).text));
  }

  async end(): Promise<string | null> {
    const stream = this.stream;
    this.stream = null;
    if (!stream) return '';
    return this.guard(() => {
      stream.acceptWaveform({ samples: new Float32Array(TAIL_PADDING_SAMPLES), sampleRate: 16_000 });
      stream.inputFinished();
      this.decodeReady(stream);
      return normalise(this.recognizer.getResult(stream).text);
    });
  }

  close(): void {
    this.closed = true;
    this.stream = null;
  }

  private decodeReady(stream: OnlineStreamLike): void {
    while (this.recognizer.isReady(stream)) this.recognizer.decode(stream);
  }

  /** A native failure ends this recogniser; the call falls back to whole-utterance decodes. */
  private guard<T>(fn: () => T): T | null {
    if (this.closed) return null;
    try {
      return fn();
    } catch {
      this.close();
      return null;
    }
  }
}

/** The published English models answer in capitals without punctuation. */
function normalise(text: string | undefined): string {
  return (text ?? '').trim().toLowerCase().replace(/\s+/g, ' ');
}
