import type { Config } from '../../env';
import { chooseLlm } from '../llm';
import type { EngineInfo } from '../types';
import { LlmCoach } from './llm-coach';
import { RubricCoach } from './rubric-coach';
import type { Coach } from './types';

export const COACH_UPGRADE_HINT =
  'Set LLM_BASE_URL and LLM_MODEL (or LLM_GGUF_PATH) to coach with a language model (see README)';

/** Chooses the coach (LLM when configured, with the rubric engine as fallback). */
export async function selectCoach(config: Config): Promise<{ engine: Coach; info: EngineInfo }> {
  const llm = chooseLlm(config);
  if (llm.client) {
    const engine = new LlmCoach(llm.client);
    return {
      engine,
      info: {
        capability: 'coach',
        engine: engine.id,
        label: engine.label,
        reason: `${llm.reason}; the built-in rubric coach answers if the model fails`,
        quality: 'enhanced',
        ok: true,
      },
    };
  }
  const engine = new RubricCoach();
  return {
    engine,
    info: {
      capability: 'coach',
      engine: engine.id,
      label: engine.label,
      reason: llm.misconfigured
        ? `${llm.reason} The built-in rubric coach runs instead.`
        : 'No language model configured; the built-in rubric coach runs offline',
      quality: 'basic',
      upgradeHint: COACH_UPGRADE_HINT,
      ok: true,
    },
  };
}
