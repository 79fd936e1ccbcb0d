import type { Config } from '../../env';
import type { EngineInfo } from '../types';
import type { PersonaBrain } from './types';

/** Chooses the homeowner brain (LLM when configured, else the scripted dialogue engine). */
export async function selectPersonaBrain(
  _config: Config,
): Promise<{ engine: PersonaBrain; info: EngineInfo }> {
  throw new Error('No homeowner engine is built yet');
}
