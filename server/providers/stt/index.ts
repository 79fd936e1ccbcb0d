import type { Config } from '../../env';
import type { EngineInfo } from '../types';
import type { SpeechToText } from './types';

/** Chooses the speech-to-text engine (STT_PROVIDER, then models present, then pocketsphinx). */
export async function selectSpeechToText(
  _config: Config,
): Promise<{ engine: SpeechToText; info: EngineInfo }> {
  throw new Error('No speech-to-text engine is built yet');
}
