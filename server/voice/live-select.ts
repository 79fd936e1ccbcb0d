import type { EngineInfo } from '../providers/types';
import type { LiveRecognizer } from './live-recognizer';
import { SherpaOnlineEngine, findStreamingModels } from './sherpa-online';
import os from 'node:os';
import {
  LIGHT_SEARCH_ARGS,
  LIVE_SEARCH_ARGS,
  SphinxLiveRecognizer,
  pocketSphinxModelDir,
  sphinxLiveBinary,
} from './sphinx-live';

export interface LiveRecognizerFactory {
  /**
   * A warm recogniser for one call, or null when calls decode each utterance as a clip.
   * `activeCalls` (the calls already live on this process) lets it trade accuracy for capacity.
   */
  create(load?: { activeCalls: number }): LiveRecognizer | null;
  info: EngineInfo;
}

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
  const binary = sphinxLiveBinary(opts.sphinxLivePath);
  const modelDir = pocketSphinxModelDir(opts.pocketSphinxModelDir);
  if (!binary || !modelDir) {
    return clipDecodes(
      `${!binary ? 'build/sphinx-live is not built' : 'the PocketSphinx model is missing'}${failed}`,
      'Run npm run setup to build the live PocketSphinx decoder (faster replies, live captions).',
    );
  }
  const lightFrom = opts.lightSearchFrom ?? 2 * Math.max(1, os.availableParallelism?.() ?? os.cpus().length);
  return {
    create: (load) =>
      new SphinxLiveRecognizer(
        binary,
        modelDir,
        (load?.activeCalls ?? 0) >= lightFrom ? LIGHT_SEARCH_ARGS : LIVE_SEARCH_ARGS,
      ),
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
