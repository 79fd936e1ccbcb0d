import type { VoiceEngineContext } from '../../engine-registry';
import type { VoiceClient } from '../../types';
import { WrappedVoiceClient } from '../../wrapper';
import { LocalVoiceDriver } from './local-engine';

/** `createVoiceClient('local')`: our WebSocket engine, with the spec §4 wrapper rules. */
export function createEngine(_ctx: VoiceEngineContext): VoiceClient {
  return new WrappedVoiceClient(new LocalVoiceDriver());
}
