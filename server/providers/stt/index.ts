import type { Config } from '../../env';
import type { EngineInfo } from '../types';
import { OpenAiStt } from './openai';
import {
  findPocketSphinx,
  POCKETSPHINX_INSTALL_HINT,
  PocketSphinxStt,
  SALES_LM,
  TRADE_WORDS_DICT,
} from './pocketsphinx';
import { findSherpaSttModels, SherpaOnnxStt } from './sherpa-onnx';
import type { SpeechToText } from './types';

export const STT_UPGRADE_HINT = 'Run npm run models to add Whisper, or set STT_PROVIDER=openai';

const MODEL_PROVIDERS = ['sherpa', 'sherpa-onnx', 'whisper', 'parakeet', 'moonshine'];

function info(engine: SpeechToText, reason: string, quality: EngineInfo['quality']): EngineInfo {
  return {
    capability: 'speech-to-text',
    engine: engine.id,
    label: engine.label,
    reason,
    quality,
    ...(quality === 'basic' ? { upgradeHint: STT_UPGRADE_HINT } : {}),
    ok: true,
  };
}

/** Chooses the speech-to-text engine (STT_PROVIDER, then models present, then pocketsphinx). */
export async function selectSpeechToText(
  config: Config,
): Promise<{ engine: SpeechToText; info: EngineInfo }> {
  const wanted = config.STT_PROVIDER?.toLowerCase();
  const notes: string[] = [];
  if (wanted === 'openai') {
    const baseUrl = config.STT_BASE_URL ?? config.LLM_BASE_URL;
    if (baseUrl) {
      const engine = new OpenAiStt({
        baseUrl,
        apiKey: config.STT_API_KEY ?? config.LLM_API_KEY,
        model: config.STT_MODEL ?? 'whisper-1',
      });
      return { engine, info: info(engine, 'STT_PROVIDER=openai', 'enhanced') };
    }
    notes.push('STT_PROVIDER=openai needs STT_BASE_URL or LLM_BASE_URL');
  }
  if (wanted !== 'pocketsphinx') {
    const models = findSherpaSttModels(config.modelsDir);
    const preferred =
      MODEL_PROVIDERS.includes(wanted ?? '') && wanted !== 'sherpa' && wanted !== 'sherpa-onnx'
        ? models.filter((m) => m.kind === wanted || m.name.toLowerCase().includes(wanted!))
        : [];
    for (const model of [...preferred, ...models.filter((m) => !preferred.includes(m))]) {
      try {
        const engine = await SherpaOnnxStt.load(model);
        const reason = notes.length
          ? `${notes.join('; ')}; using ${model.dir}`
          : `model found in ${model.dir}`;
        return { engine, info: info(engine, reason, 'enhanced') };
      } catch (err) {
        notes.push(
          `the model in ${model.dir} failed to load: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    }
    if (!models.length && wanted && MODEL_PROVIDERS.includes(wanted)) {
      notes.push(
        `STT_PROVIDER=${wanted} but no speech model under ${config.modelsDir}/stt (run npm run models)`,
      );
    }
  }
  if (findPocketSphinx({ modelDir: config.POCKETSPHINX_MODEL_DIR })) {
    const salesWeight = config.POCKETSPHINX_SALES_LM_WEIGHT;
    const engine = new PocketSphinxStt({
      modelDir: config.POCKETSPHINX_MODEL_DIR,
      domain: salesWeight > 0 ? { lm: SALES_LM, weight: salesWeight, dict: TRADE_WORDS_DICT } : null,
    });
    const reason = notes.length ? `fallback: ${notes.join('; ')}` : 'embedded default';
    return { engine, info: info(engine, reason, 'basic') };
  }
  throw new Error([...notes, `${POCKETSPHINX_INSTALL_HINT}, ${STT_UPGRADE_HINT.toLowerCase()}`].join('; '));
}

export type { SpeechToText, SttSegment, SttWord, TranscribeOptions } from './types';
