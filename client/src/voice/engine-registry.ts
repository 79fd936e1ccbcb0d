import type { DeviceSpeechConfig } from '@core/device-speech';
import type { VoiceClient } from './types';

export type VoiceKind = VoiceClient['kind'];
export const VOICE_KINDS: readonly VoiceKind[] = ['local', 'replay', 'vapi', 'device'];

/**
 * Engines whose call runs through our server's socket: the server saves what it heard and said
 * when the call ends and coaches it, so the page saves nothing. The others (Vapi, the scripted
 * replay) run elsewhere, and the page saves their transcript.
 */
export function savesTranscriptOnServer(kind: VoiceKind): boolean {
  return kind === 'local' || kind === 'device';
}

/** Public client settings from GET /api/config (docs/api.md). */
export interface ClientConfig {
  voiceProvider: 'local' | 'vapi' | string;
  vapi: { publicKey: string; assistants: Record<string, string> } | null;
  hubspot: { portalId: string; formId: string; region: string } | null;
  engines?: unknown;
  /** The operator's say over the browser's own speech engines (absent on older servers). */
  deviceSpeech?: Partial<DeviceSpeechConfig>;
}

export interface VoiceEngineContext {
  config: ClientConfig | null;
  /** The page's query parameters (e.g. the replay engine reads `pace` and `script`). */
  params: URLSearchParams;
}

/**
 * What an engine folder exports: `client/src/voice/engines/<kind>/index.ts` with
 * `export function createEngine(ctx: VoiceEngineContext): VoiceClient | Promise<VoiceClient>`.
 * Folders are discovered at build time, so adding an engine needs no edit elsewhere.
 */
export interface VoiceEngineModule {
  createEngine(ctx: VoiceEngineContext): VoiceClient | Promise<VoiceClient>;
}

function isKind(value: unknown): value is VoiceKind {
  return typeof value === 'string' && (VOICE_KINDS as readonly string[]).includes(value);
}

/**
 * The one place the call engine is chosen: an explicit `?voice=` wins when that engine exists
 * (`server` names our own server engine, `local`), then the server's `voiceProvider`; anything
 * unavailable falls back to the scripted replay. Our own engine goes through the `device` engine
 * unless the operator turned device speech off: it uses the browser's speech where the device
 * has it and the server's engines for the rest (docs/voice.md).
 */
export function chooseVoiceKind(input: {
  requested: string | null;
  configured: string | null | undefined;
  registered: ReadonlySet<string>;
  deviceSpeech?: DeviceSpeechConfig['mode'];
}): VoiceKind {
  const usable = (k: unknown): k is VoiceKind => isKind(k) && (k === 'replay' || input.registered.has(k));
  const requested = input.requested === 'server' ? 'local' : input.requested;
  if (usable(requested)) return requested;
  if (usable(input.configured)) {
    const deviceAllowed = (input.deviceSpeech ?? 'auto') !== 'off' && input.registered.has('device');
    return input.configured === 'local' && deviceAllowed ? 'device' : input.configured;
  }
  return 'replay';
}

/** Engine folder path (as import.meta.glob reports it) -> kind. */
export function kindFromEnginePath(path: string): string | null {
  const m = path.match(/engines\/([^/]+)\/index\.tsx?$/);
  return m ? m[1] : null;
}

/** Engines that take typed rep turns (`sendText`): our call socket, with or without device speech. */
export function takesTypedTurns(kind: VoiceKind): boolean {
  return kind === 'local' || kind === 'device';
}
