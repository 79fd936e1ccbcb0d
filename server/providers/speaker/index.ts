import path from 'node:path';
import type { EngineInfo } from '../types';
import { checkSpeakerModel, findSpeakerModels, SherpaSpeakerEmbedder } from './sherpa-onnx';
import { VOICE_FEATURES, type SpeakerEngine } from './types';

export * from './types';
export { checkSpeakerModel, findSpeakerModels, SherpaSpeakerEmbedder } from './sherpa-onnx';

/** The catalogue entry (server/models/catalogue.ts) that adds a speaker model. */
export const SPEAKER_MODEL_ID = 'speaker-titanet-small';
export const SPEAKER_UPGRADE_HINT = `Run npm run models -- ${SPEAKER_MODEL_ID} to tell the voices of one-channel recordings apart by speaker embeddings`;

const CAPABILITY = 'speaker-attribution' as const;

/**
 * Chooses how one-channel recordings are split into two voices: the first speaker model under
 * MODELS_DIR/speaker/ that loads and gives a usable vector (checked in a child process, since a
 * damaged file would take the server down), else the voice features alone. Either way uploads
 * work; a model that fails is named in the reason.
 */
export async function selectSpeakerEngine(
  modelsDir: string,
): Promise<{ engine: SpeakerEngine; info: EngineInfo }> {
  const failures: string[] = [];
  for (const model of findSpeakerModels(modelsDir)) {
    const check = await checkSpeakerModel(model.file);
    if (!check.ok) {
      failures.push(check.reason);
      continue;
    }
    const embedder = new SherpaSpeakerEmbedder(model);
    const info: EngineInfo = {
      capability: CAPABILITY,
      engine: embedder.id,
      label: embedder.label,
      reason: `speaker model found at ${model.file} (${check.dim}-dimensional voice prints)`,
      quality: 'enhanced',
      ok: true,
    };
    return { engine: { embedder, info, close: () => embedder.close() }, info };
  }
  const dir = path.join(modelsDir, 'speaker');
  const reason = failures.length
    ? `${failures.join('; ')}; voices are told apart by pitch, loudness and spectral shape (remove the file; npm run models -- ${SPEAKER_MODEL_ID} fetches the model again)`
    : `no speaker model under ${dir}; voices are told apart by pitch, loudness and spectral shape (npm run models -- ${SPEAKER_MODEL_ID} adds one)`;
  const info: EngineInfo = {
    capability: CAPABILITY,
    engine: VOICE_FEATURES.id,
    label: VOICE_FEATURES.label,
    reason,
    quality: 'basic',
    upgradeHint: SPEAKER_UPGRADE_HINT,
    ok: true,
  };
  return { engine: { embedder: null, info }, info };
}
