import type { VoiceEngineContext } from '../../engine-registry';
import type { VoiceClient } from '../../types';
import { WrappedVoiceClient } from '../../wrapper';
import { VapiVoiceDriver, type VapiLike } from './vapi-driver';

/** `createVoiceClient('vapi')`: @vapi-ai/web, loaded only when a call uses it (it is large). */
export function createEngine(ctx: VoiceEngineContext): VoiceClient {
  return new WrappedVoiceClient(
    new VapiVoiceDriver(ctx.config, async (publicKey) => {
      const mod = await import('@vapi-ai/web');
      const Vapi = (mod.default ?? mod) as unknown as new (key: string) => VapiLike;
      return new Vapi(publicKey);
    }),
  );
}
