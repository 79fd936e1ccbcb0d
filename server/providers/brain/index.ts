import type { Config } from '../../env';
import { chooseLlm } from '../llm';
import type { EngineInfo } from '../types';
import { LlmBrain } from './llm-brain';
import { scriptedBrain } from './scripted';
import type { PersonaBrain } from './types';

const UPGRADE_HINT =
  'Set LLM_BASE_URL and LLM_MODEL (any OpenAI-compatible server, e.g. Ollama) or LLM_GGUF_PATH for a free-form homeowner.';

/** Chooses the homeowner brain (LLM when configured, else the scripted dialogue engine). */
export async function selectPersonaBrain(
  config: Config,
): Promise<{ engine: PersonaBrain; info: EngineInfo }> {
  const llm = chooseLlm(config);
  if (llm.client) {
    const engine = new LlmBrain(llm.client);
    return {
      engine,
      info: {
        capability: 'homeowner',
        engine: engine.id,
        label: engine.label,
        reason: `${llm.reason}; the scripted homeowner answers a turn the model fails`,
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
      reason: 'misconfigured' in llm && llm.misconfigured ? `fallback: ${llm.reason}` : 'No LLM configured',
      quality: 'basic',
      upgradeHint: UPGRADE_HINT,
      ok: true,
    },
  };
}
