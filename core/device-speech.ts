/**
 * The operator's say over the browser's own speech engines (env DEVICE_SPEECH and
 * DEVICE_SPEECH_CLOUD, published by GET /api/config as `deviceSpeech`).
 *
 * - `auto` (default): the rep's device recognises their words and voices the homeowner wherever
 *   it can do so on the device; the server's engines cover the rest.
 * - `listen`: only recognition on the device; the homeowner's voice comes from the server.
 * - `speak`: only the homeowner's voice on the device; recognition stays on the server.
 * - `off`: the server's engines only.
 */
export const DEVICE_SPEECH_MODES = ['auto', 'off', 'listen', 'speak'] as const;
export type DeviceSpeechMode = (typeof DEVICE_SPEECH_MODES)[number];

/**
 * Recognition by the browser's vendor (audio leaves the device for Google, Apple, ...):
 * `ask` offers it to the rep, with the reason, when nothing better is on the device;
 * `never` does not offer it.
 */
export const DEVICE_SPEECH_CLOUD = ['ask', 'never'] as const;
export type DeviceSpeechCloud = (typeof DEVICE_SPEECH_CLOUD)[number];

export interface DeviceSpeechConfig {
  mode: DeviceSpeechMode;
  cloud: DeviceSpeechCloud;
}

export const DEFAULT_DEVICE_SPEECH: DeviceSpeechConfig = { mode: 'auto', cloud: 'ask' };
