import { workerData } from 'node:worker_threads';
import { loadSpeakerExtractor, type SpeakerExtractor } from './extractor';
import { runWorker } from '../../workers/worker-main';

/**
 * The speaker-embedding thread (SherpaSpeakerEmbedder): loads the checked model on its first
 * span and turns each span of speech into a voice print.
 */
const model = (workerData as { model: string }).model;
let extractor: SpeakerExtractor | null = null;

runWorker<{ samples: Float32Array }, Float32Array | null>(async ({ samples }) => {
  if (!extractor) {
    try {
      extractor = loadSpeakerExtractor(model);
    } catch (err) {
      const why = (err instanceof Error ? err.message : String(err)).split('\n')[0];
      throw new Error(`the speaker model ${model} could not be loaded (${why})`);
    }
  }
  return extractor.embed(samples);
});
