import type { LiveRecognizerFactory } from './types';
import { SherpaOnlineEngine, findStreamingModels } from './sherpa-online';
import { cpuCores } from '../../../machine';
import { builtHelper } from '../../../native-helpers';
import { pocketSphinxModelDir } from '../pocketsphinx';
import { LIGHT_SEARCH_ARGS, LIVE_SEARCH_ARGS, SphinxLiveRecognizer } from './sphinx-live';

export interface LiveSelectOptions {
  modelsDir: string;
  /** The engine serving speech-to-text (`pocketsphinx`, `sherpa-onnx:...`, `openai`). */
  sttEngine: string;
  /** VOICE_STREAMING_STT: `auto` picks the best available, `off` always decodes clips. */
  mode: 'auto' | 'off';
  sphinxLivePath?: string;
  pocketSphinxModelDir?: string;
  /** Calls started while this many are live get PocketSphinx's lighter search (default 2 per core). */
  lightSearchFrom?: number;
  /** Finished calls' decoders kept warm for the next calls (default 2 per core; 0 = none). */
  idleDecoders?: number;
}

/**
 * Decoders of finished calls, kept for the next calls: a new one costs a process start and
 * about 0.35 s of CPU to load the language model, and a reused one has already adapted its
 * cepstral mean to real audio, which helps the first words of the next call.
 */
class DecoderPool {
  private readonly idle: SphinxLiveRecognizer[] = [];

  constructor(
    private readonly binary: string,
    private readonly modelDir: string,
    private readonly maxIdle: number,
  ) {}

  take(searchArgs: string[]): SphinxLiveRecognizer {
    const at = this.idle.findIndex((r) => r.alive && r.searchArgs === searchArgs);
    const r =
      at >= 0 ? this.idle.splice(at, 1)[0] : new SphinxLiveRecognizer(this.binary, this.modelDir, searchArgs);
    r.onRelease = (done) => {
      if (!done.alive || this.idle.length >= this.maxIdle) return false;
      this.idle.push(done);
      return true;
    };
    return r;
  }

  get size(): number {
    return this.idle.length;
  }

  close(): void {
    for (const r of this.idle.splice(0)) r.close();
  }
}

const NAME = 'live-speech-to-text' as const;

function clipDecodes(reason: string, upgradeHint?: string): LiveRecognizerFactory {
  return {
    create: () => null,
    info: {
      capability: NAME,
      engine: 'utterance-decodes',
      label: 'Each utterance decoded when it ends',
      reason,
      quality: 'basic',
      ...(upgradeHint ? { upgradeHint } : {}),
      ok: true,
    },
  };
}

/**
 * Chooses the live-call recogniser: a streaming Zipformer when one is under MODELS_DIR/stt
 * (any speech-to-text engine), else the warm PocketSphinx decoder when PocketSphinx is the
 * speech engine, else none (each utterance is decoded by the speech-to-text engine at the end
 * of the turn, and captions by decodes of the growing utterance).
 */
export function selectLiveRecognizer(opts: LiveSelectOptions): LiveRecognizerFactory {
  if (opts.mode === 'off') return clipDecodes('VOICE_STREAMING_STT=off');
  const failures: string[] = [];
  for (const model of findStreamingModels(opts.modelsDir)) {
    try {
      const engine = SherpaOnlineEngine.load(model);
      return {
        create: () => engine.createRecognizer(),
        info: {
          capability: NAME,
          engine: engine.id,
          label: engine.label,
          reason: `streaming model found at ${model.dir}`,
          quality: 'enhanced',
          ok: true,
        },
      };
    } catch (err) {
      failures.push(`${model.name}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }
  const failed = failures.length ? `; streaming model failed to load (${failures.join('; ')})` : '';
  if (opts.sttEngine !== 'pocketsphinx') {
    return clipDecodes(
      `${opts.sttEngine} decodes each utterance${failed}`,
      'Run npm run models -- streaming-zipformer-en-20M for live captions from a streaming model.',
    );
  }
  const binary = builtHelper('sphinx-live', opts.sphinxLivePath);
  const modelDir = pocketSphinxModelDir(opts.pocketSphinxModelDir);
  if (!binary || !modelDir) {
    return clipDecodes(
      `${!binary ? 'build/sphinx-live is not built' : 'the PocketSphinx model is missing'}${failed}`,
      'Run npm run setup to build the live PocketSphinx decoder (faster replies, live captions).',
    );
  }
  const cores = cpuCores();
  const lightFrom = opts.lightSearchFrom ?? 2 * cores;
  const pool = new DecoderPool(binary, modelDir, opts.idleDecoders ?? 2 * cores);
  return {
    create: (load) => pool.take((load?.activeCalls ?? 0) >= lightFrom ? LIGHT_SEARCH_ARGS : LIVE_SEARCH_ARGS),
    close: () => pool.close(),
    idleDecoders: () => pool.size,
    info: {
      capability: NAME,
      engine: 'pocketsphinx-live',
      label: 'Live PocketSphinx decoder',
      reason: `${binary} with the model in ${modelDir}${failed}`,
      quality: 'basic',
      ok: true,
    },
  };
}
