/** Builds voice clients: the built-in replay engine, or an engine folder under ./engines. */
import type { Stage } from '@core/stages';
import {
  chooseVoiceKind,
  kindFromEnginePath,
  type ClientConfig,
  type VoiceEngineContext,
  type VoiceEngineModule,
  type VoiceKind,
} from './engine-registry';
import { deviceSpeechConfig } from './device-speech';
import { ReplayVoiceClient } from './replay-engine';
import { scriptFor, timingFor } from './replay-script';
import type { VoiceClient } from './types';

export type { VoiceKind, ClientConfig, VoiceEngineContext, VoiceEngineModule };

// Engines live in ./engines/<kind>/index.ts and are loaded on demand (the Vapi SDK is large).
const engineLoaders = import.meta.glob<VoiceEngineModule>('./engines/*/index.{ts,tsx}');
const loaderByKind = new Map<string, () => Promise<VoiceEngineModule>>();
for (const [path, load] of Object.entries(engineLoaders)) {
  const kind = kindFromEnginePath(path);
  if (kind) loaderByKind.set(kind, load);
}

/** Engine kinds present in this build besides the built-in replay engine. */
export const registeredVoiceKinds: ReadonlySet<string> = new Set(loaderByKind.keys());

export function pickVoiceKind(params: URLSearchParams, config: ClientConfig | null): VoiceKind {
  return chooseVoiceKind({
    requested: params.get('voice'),
    configured: config?.voiceProvider,
    registered: registeredVoiceKinds,
    deviceSpeech: deviceSpeechConfig(config?.deviceSpeech).mode,
  });
}

/** Builds the voice client of the given kind; the replay engine reads `script` and `pace` from params. */
export async function createVoiceClient(
  kind: VoiceKind,
  ctx: Partial<VoiceEngineContext> = {},
): Promise<VoiceClient> {
  const params = ctx.params ?? new URLSearchParams(typeof location === 'undefined' ? '' : location.search);
  if (kind === 'replay') {
    return new ReplayVoiceClient({
      script: (stage: Stage) => scriptFor(params.get('script'), stage),
      timing: timingFor(params.get('pace')),
    });
  }
  const load = loaderByKind.get(kind);
  if (!load) throw new Error(`The ${kind} voice engine is not part of this build`);
  const mod = await load();
  return mod.createEngine({ config: ctx.config ?? null, params });
}
