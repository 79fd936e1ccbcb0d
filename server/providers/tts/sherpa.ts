import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { TextToSpeech, TtsAudio, VoiceStyle } from './types';

const require = createRequire(import.meta.url);

export interface SherpaTtsModel {
  kind: 'piper' | 'kokoro';
  dir: string;
  model: string;
  tokens: string;
  dataDir?: string;
  voices?: string;
}

/**
 * Finds a Piper (VITS) or Kokoro voice under MODELS_DIR/tts/<name>/: a *.onnx model with
 * tokens.txt, plus espeak-ng-data (Piper) or voices.bin (Kokoro).
 */
export function findSherpaTtsModel(modelsDir: string): SherpaTtsModel | null {
  const root = path.join(modelsDir, 'tts');
  if (!fs.existsSync(root)) return null;
  for (const name of fs.readdirSync(root).sort()) {
    const dir = path.join(root, name);
    if (!fs.statSync(dir).isDirectory()) continue;
    const files = fs.readdirSync(dir);
    const model = files.find((f) => f.endsWith('.onnx'));
    if (!model || !files.includes('tokens.txt')) continue;
    const dataDir = files.includes('espeak-ng-data') ? path.join(dir, 'espeak-ng-data') : undefined;
    if (files.includes('voices.bin')) {
      return {
        kind: 'kokoro',
        dir,
        model: path.join(dir, model),
        tokens: path.join(dir, 'tokens.txt'),
        dataDir,
        voices: path.join(dir, 'voices.bin'),
      };
    }
    if (dataDir)
      return {
        kind: 'piper',
        dir,
        model: path.join(dir, model),
        tokens: path.join(dir, 'tokens.txt'),
        dataDir,
      };
  }
  return null;
}

interface OfflineTtsLike {
  numSpeakers: number;
  sampleRate: number;
  generateAsync(req: {
    text: string;
    sid: number;
    speed: number;
  }): Promise<{ samples: Float32Array; sampleRate: number }>;
}

/** A neural voice through sherpa-onnx; each persona gets its own speaker id when the model has several. */
export class SherpaTts implements TextToSpeech {
  readonly id: string;
  readonly label: string;
  private readonly tts: OfflineTtsLike;

  constructor(model: SherpaTtsModel) {
    const sherpa = require('sherpa-onnx-node') as { OfflineTts: new (c: unknown) => OfflineTtsLike };
    const modelConfig =
      model.kind === 'kokoro'
        ? {
            kokoro: {
              model: model.model,
              voices: model.voices,
              tokens: model.tokens,
              dataDir: model.dataDir,
            },
          }
        : { vits: { model: model.model, tokens: model.tokens, dataDir: model.dataDir } };
    this.tts = new sherpa.OfflineTts({
      model: { ...modelConfig, numThreads: 1, debug: 0 },
      maxNumSentences: 1,
    });
    this.id = `sherpa-onnx:${path.basename(model.dir)}`;
    this.label = `Neural voice (${path.basename(model.dir)})`;
  }

  async *synthesize(
    text: string,
    opts: { voice: VoiceStyle; signal?: AbortSignal },
  ): AsyncIterable<TtsAudio> {
    if (!text.trim() || opts.signal?.aborted) return;
    const index = Math.abs(Math.trunc(opts.voice.speaker));
    const sid = this.tts.numSpeakers > 1 ? (index * 7) % this.tts.numSpeakers : 0;
    // A single-speaker voice still tells personas apart by pace (the hurried HVAC owner, the slow roofer).
    const speed = opts.voice.rate / 170;
    const audio = await this.tts.generateAsync({ text, sid, speed });
    if (opts.signal?.aborted) return;
    const pcm = new Int16Array(audio.samples.length);
    for (let i = 0; i < pcm.length; i++)
      pcm[i] = Math.max(-32768, Math.min(32767, Math.round(audio.samples[i] * 32767)));
    yield { sampleRate: audio.sampleRate, pcm };
  }
}
