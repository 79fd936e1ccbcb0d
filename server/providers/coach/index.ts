import type { Config } from '../../env';
import type { EngineInfo } from '../types';
import type { Coach } from './types';

/** Chooses the coach (LLM when configured, with the rubric engine as fallback). */
export async function selectCoach(_config: Config): Promise<{ engine: Coach; info: EngineInfo }> {
  throw new Error('No coach is built yet');
}
