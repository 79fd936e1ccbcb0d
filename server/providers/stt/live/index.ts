import type { Config } from '../../../env';
import { selectLiveRecognizer } from './select';
import type { LiveRecognizerFactory } from './types';

export * from './types';
export { selectLiveRecognizer, type LiveSelectOptions } from './select';

/** The live-call recogniser for this configuration (docs/voice.md, Recogniser). */
export function selectLiveSpeechToText(config: Config, sttEngine: string): LiveRecognizerFactory {
  return selectLiveRecognizer({
    modelsDir: config.modelsDir,
    sttEngine,
    mode: config.VOICE_STREAMING_STT === 'off' ? 'off' : 'auto',
    sphinxLivePath: config.SPHINX_LIVE_PATH,
    pocketSphinxModelDir: config.POCKETSPHINX_MODEL_DIR,
  });
}
