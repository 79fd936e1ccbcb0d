import type { Config } from '../../env';
import type { EngineInfo } from '../types';
import { espeakAvailable, EspeakTts } from './espeak';
import { fliteAvailable, FliteTts } from './flite';
import { builtHelper } from '../../native-helpers';
import { EspeakLiveTts } from './espeak-live';
import { OpenAiSpeechTts } from './openai-speech';
import { findSherpaTtsModel, SherpaTts } from './sherpa';
import type { TextToSpeech } from './types';

const UPGRADE_HINT =
  'Put a Piper or Kokoro voice under MODELS_DIR/tts/<name>/ (sherpa-onnx format) for a natural voice, or set TTS_PROVIDER=openai.';

function info(engine: TextToSpeech, reason: string, quality: EngineInfo['quality']): EngineInfo {
  return {
    capability: 'text-to-speech',
    engine: engine.id,
    label: engine.label,
    reason,
    quality,
    ...(quality === 'basic' ? { upgradeHint: UPGRADE_HINT } : {}),
    ok: true,
  };
}

/** Chooses the text-to-speech engine (TTS_PROVIDER, then models present, then Flite, then espeak-ng). */
export async function selectTextToSpeech(
  config: Config,
): Promise<{ engine: TextToSpeech; info: EngineInfo }> {
  const wanted = config.TTS_PROVIDER?.toLowerCase();
  const notes: string[] = [];
  if (wanted === 'openai') {
    if (config.LLM_BASE_URL) {
      const engine = new OpenAiSpeechTts({
        baseUrl: config.LLM_BASE_URL,
        apiKey: config.LLM_API_KEY,
        model: config.TTS_MODEL,
      });
      return { engine, info: info(engine, 'TTS_PROVIDER=openai', 'enhanced') };
    }
    notes.push('TTS_PROVIDER=openai needs LLM_BASE_URL');
  }
  if (wanted !== 'espeak' && wanted !== 'espeak-ng') {
    const model = findSherpaTtsModel(config.modelsDir);
    if (model) {
      try {
        const engine = new SherpaTts(model);
        return { engine, info: info(engine, `${model.kind} voice found in ${model.dir}`, 'enhanced') };
      } catch (err) {
        notes.push(
          `the voice in ${model.dir} failed to load: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    } else if (wanted === 'sherpa' || wanted === 'sherpa-onnx') {
      notes.push(`TTS_PROVIDER=${wanted} but no voice under ${config.modelsDir}/tts`);
    }
  }
  // Flite's voices are far easier to follow than espeak-ng's (docs/benchmarks.md); espeak-ng
  // stays the fallback, and TTS_PROVIDER=espeak chooses it.
  if (wanted !== 'espeak' && wanted !== 'espeak-ng') {
    if (fliteAvailable()) {
      const engine = new FliteTts();
      const reason = `${notes.length ? `fallback: ${notes.join('; ')}` : 'embedded default'}; a voice per persona`;
      return { engine, info: info(engine, reason, 'basic') };
    }
    if (wanted === 'flite') notes.push('TTS_PROVIDER=flite but flite is not installed (npm run setup)');
    else notes.push('flite is not installed (npm run setup adds its clearer voices)');
  }
  if (espeakAvailable()) {
    const live = builtHelper('espeak-live');
    const engine = live ? new EspeakLiveTts(live) : new EspeakTts();
    const how = live
      ? 'warm synthesisers (build/espeak-live)'
      : 'a process per sentence (npm run setup builds the faster build/espeak-live)';
    const reason = `${notes.length ? `fallback: ${notes.join('; ')}` : 'embedded default'}; ${how}`;
    return { engine, info: info(engine, reason, 'basic') };
  }
  throw new Error(
    `No text-to-speech engine: install espeak-ng (npm run setup)${notes.length ? `; ${notes.join('; ')}` : ''}`,
  );
}
