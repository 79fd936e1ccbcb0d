import type { Config } from '../../env';
import type { EngineInfo } from '../types';
import { ChatCompletionsBrain } from './openai-chat';
import { scriptedBrain } from './scripted';
import type { PersonaBrain } from './types';

const UPGRADE_HINT =
  'Set LLM_BASE_URL and LLM_MODEL (any OpenAI-compatible server, e.g. Ollama) for a free-form homeowner.';

/** Chooses the homeowner brain (LLM when configured, else the scripted dialogue engine). */
export async function selectPersonaBrain(
  config: Config,
): Promise<{ engine: PersonaBrain; info: EngineInfo }> {
  if (config.LLM_BASE_URL && config.LLM_MODEL) {
    const engine = new ChatCompletionsBrain({
      baseUrl: config.LLM_BASE_URL,
      apiKey: config.LLM_API_KEY,
      model: config.LLM_MODEL,
    });
    return {
      engine,
      info: {
        capability: 'homeowner',
        engine: engine.id,
        label: engine.label,
        reason: 'LLM_BASE_URL and LLM_MODEL are set (the scripted homeowner answers if it fails)',
        quality: 'enhanced',
        ok: true,
      },
    };
  }
  return {
    engine: scriptedBrain,
    info: {
      capability: 'homeowner',
      engine: scriptedBrain.id,
      label: 'Scripted homeowner (built in)',
      reason: 'No LLM configured',
      quality: 'basic',
      upgradeHint: UPGRADE_HINT,
      ok: true,
    },
  };
}
