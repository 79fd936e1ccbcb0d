import { EnergyVad } from './energy';
import { findSileroModel, SileroPool, SileroVad } from './silero';
import type { VadFactory } from './types';

export * from './types';
export { EnergyVad } from './energy';
export { findSileroModel, QUIET_RMS, SileroVad } from './silero';

/** Chooses Silero when its model is present and loads, else the energy detector. */
export function selectVad(modelsDir: string, wanted?: string): VadFactory {
  const model = wanted === 'energy' ? null : findSileroModel(modelsDir);
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
          reason: `model found at ${model}`,
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
  return energyFactory(wanted === 'energy' ? 'VAD_PROVIDER=energy' : `no Silero model under ${modelsDir}`);
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
      upgradeHint: 'Run npm run models to fetch the Silero VAD model.',
      ok: true,
    },
  };
}
