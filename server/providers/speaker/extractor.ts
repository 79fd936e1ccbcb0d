import { createRequire } from 'node:module';
import { SPEAKER_SAMPLE_RATE } from './types';

const require = createRequire(import.meta.url);

interface StreamHandle {
  acceptWaveform(w: { samples: Float32Array; sampleRate: number }): void;
  inputFinished(): void;
}
interface ExtractorHandle {
  dim: number;
  createStream(): StreamHandle;
  isReady(stream: StreamHandle): boolean;
  compute(stream: StreamHandle, enableExternalBuffer?: boolean): Float32Array;
}

/** A loaded speaker model, used on one thread (the speaker worker, or the load check). */
export interface SpeakerExtractor {
  readonly dim: number;
  /** Null when the audio is too short for the model to say anything. */
  embed(samples: Float32Array): Float32Array | null;
}

/**
 * Loads a sherpa-onnx speaker-embedding model (NeMo TitaNet, WeSpeaker, 3D-Speaker exports).
 * Only for a file that passed `checkSpeakerModel`: sherpa-onnx ends the whole process on a file
 * that is not an ONNX model, or one without its speaker metadata, instead of throwing.
 */
export function loadSpeakerExtractor(model: string, numThreads = 1): SpeakerExtractor {
  const sherpa = require('sherpa-onnx-node') as {
    SpeakerEmbeddingExtractor: new (config: object) => ExtractorHandle;
  };
  const extractor = new sherpa.SpeakerEmbeddingExtractor({ model, numThreads, debug: 0, provider: 'cpu' });
  return {
    dim: extractor.dim,
    embed(samples) {
      const stream = extractor.createStream();
      stream.acceptWaveform({ samples, sampleRate: SPEAKER_SAMPLE_RATE });
      stream.inputFinished();
      if (!extractor.isReady(stream)) return null;
      // A copy: the native result may live in memory the addon owns.
      return Float32Array.from(extractor.compute(stream, false));
    },
  };
}
