import type { Config } from '../../env';
import type { EngineInfo } from '../types';
import type { TextToSpeech } from './types';

/** Chooses the text-to-speech engine (TTS_PROVIDER, then models present, then espeak-ng). */
export async function selectTextToSpeech(
  _config: Config,
): Promise<{ engine: TextToSpeech; info: EngineInfo }> {
  throw new Error('No text-to-speech engine is built yet');
}
