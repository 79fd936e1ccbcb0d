/** The voice layer the pages use. Engines: ./replay-engine.ts (built in) and ./engines/<kind>/. */
export { createVoiceClient, pickVoiceKind, registeredVoiceKinds } from './create-client';
export { useVoiceCall, CONFIG_QUERY_KEY, type CallEnd } from './use-voice-call';
export { chooseVoiceKind, savesTranscriptOnServer, takesTypedTurns } from './engine-registry';
export type { ClientConfig, VoiceEngineContext, VoiceEngineModule, VoiceKind } from './engine-registry';
export { ReplayVoiceClient } from './replay-engine';
export type * from './types';
/** Longest typed turn `sendText` takes (characters after trimming). */
export { MAX_USER_TEXT_CHARS } from '@core/voice-protocol';
