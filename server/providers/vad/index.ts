import { EnergyVad } from './energy';
import { bundledSileroModel, findSileroModel, SileroPool, SileroVad } from './silero';
import type { VadFactory } from './types';

export * from './types';
export { EnergyVad } from './energy';
export { bundledSileroModel, findSileroModel, QUIET_RMS, SileroVad } from './silero';

/**
 * Chooses Silero when a model is present and loads (one under MODELS_DIR, else the one bundled
 * with the npm dependency), else the energy detector. `bundled: null` leaves the bundled model
 * out (tests of the fallback).
 */
export function selectVad(
  modelsDir: string,
  wanted?: string,
  opts: { bundled?: string | null } = {},
): VadFactory {
  const local = wanted === 'energy' ? null : findSileroModel(modelsDir);
  const bundled =
    wanted === 'energy' || local ? null : opts.bundled === undefined ? bundledSileroModel() : opts.bundled;
  const model = local ?? bundled;
  if (model) {
    try {
      const pool = new SileroPool(model);
      pool.give(new SileroVad(model));
      return {
        create: () => pool.take(),
        warm: (calls) => pool.warm(calls),
        info: {
          capability: 'voice-activity',
          engine: 'silero',
          label: 'Silero VAD',
          reason: local ? `model found at ${model}` : 'model bundled with the @ricky0123/vad-web package',
          quality: 'enhanced',
          ok: true,
        },
      };
    } catch (err) {
      return energyFactory(
        `Silero model failed to load: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  return energyFactory(
    wanted === 'energy' ? 'VAD_PROVIDER=energy' : `no Silero model under ${modelsDir} nor in node_modules`,
  );
}

function energyFactory(reason: string): VadFactory {
  return {
    create: () => new EnergyVad(),
    info: {
      capability: 'voice-activity',
      engine: 'energy',
      label: 'Energy-based voice detection',
      reason,
      quality: 'basic',
      upgradeHint: 'Run npm install to add the Silero VAD model (or npm run models).',
      ok: true,
    },
  };
}
