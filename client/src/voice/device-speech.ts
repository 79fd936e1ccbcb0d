import {
  DEFAULT_DEVICE_SPEECH,
  DEVICE_SPEECH_CLOUD,
  DEVICE_SPEECH_MODES,
  type DeviceSpeechConfig,
} from '@core/device-speech';
import type { PersonaVoice } from '@core/persona-voice';

/**
 * Which half of a call runs on the rep's device: pure decisions, no browser APIs, so the
 * selection is unit-tested (device-speech.test.ts) and the engine only probes and acts.
 */

/** What the browser offers for recognising English. */
export type RecognitionSupport =
  /** `SpeechRecognition.available({processLocally: true})` says the English pack is installed. */
  | 'on-device'
  /** On-device recognition exists but the English pack must be downloaded first. */
  | 'installable'
  /** A recogniser exists but may send the audio to the browser's vendor (no on-device guarantee). */
  | 'cloud'
  | 'none';

export interface SpeechProbe {
  recognition: RecognitionSupport;
  /** A voice installed on the device (`localService`) speaks English. */
  localVoice: boolean;
}

/** The rep's answers, remembered in the browser so each question is asked once. */
export type Answer = 'unasked' | 'accepted' | 'declined';
export interface RepChoices {
  install: Answer;
  cloud: Answer;
}

/** `?voice=device` asks for the device engines, `?voice=server` for the server's; else automatic. */
export type PageRequest = 'device' | 'server' | null;

export interface SpeechPlan {
  /** Who recognises the rep: the device, the browser vendor's service (opted in), or our server. */
  listen: 'device' | 'cloud' | 'server';
  /** Who voices the homeowner. */
  speak: 'device' | 'server';
  /** A question the rep must answer before the plan is final. */
  ask: 'install' | 'cloud' | null;
}

/** The operator settings from GET /api/config, tolerating an older server without them. */
export function deviceSpeechConfig(raw: unknown): DeviceSpeechConfig {
  const r = (raw && typeof raw === 'object' ? raw : {}) as Record<string, unknown>;
  const mode = (DEVICE_SPEECH_MODES as readonly unknown[]).includes(r.mode)
    ? (r.mode as DeviceSpeechConfig['mode'])
    : DEFAULT_DEVICE_SPEECH.mode;
  const cloud = (DEVICE_SPEECH_CLOUD as readonly unknown[]).includes(r.cloud)
    ? (r.cloud as DeviceSpeechConfig['cloud'])
    : DEFAULT_DEVICE_SPEECH.cloud;
  return { mode, cloud };
}

/**
 * The plan for one call. The operator decides what is allowed; the page's `?voice=` and the
 * rep's answers choose within it; the device's abilities decide the rest.
 */
export function planSpeech(input: {
  operator: DeviceSpeechConfig;
  page: PageRequest;
  probe: SpeechProbe;
  choices: RepChoices;
}): SpeechPlan {
  const { operator, page, probe, choices } = input;
  const allowListen = page !== 'server' && (operator.mode === 'auto' || operator.mode === 'listen');
  const allowSpeak = page !== 'server' && (operator.mode === 'auto' || operator.mode === 'speak');
  const speak = allowSpeak && probe.localVoice ? 'device' : 'server';

  let listen: SpeechPlan['listen'] = 'server';
  let ask: SpeechPlan['ask'] = null;
  if (allowListen) {
    switch (probe.recognition) {
      case 'on-device':
        listen = 'device';
        break;
      case 'installable':
        // Installing needs the rep's yes (a download); asked once, a no is remembered.
        if (choices.install === 'accepted') listen = 'device';
        else if (choices.install === 'unasked') ask = 'install';
        break;
      case 'cloud':
        // Never silently: only after the rep opted in, and only where the operator allows it.
        if (operator.cloud === 'ask') {
          if (choices.cloud === 'accepted') listen = 'cloud';
          else if (choices.cloud === 'unasked') ask = 'cloud';
        }
        break;
      case 'none':
        break;
    }
  }
  return { listen, speak, ask };
}

/** True when the plan needs the device engine at all (else the server engine carries the call). */
export function usesDevice(plan: SpeechPlan): boolean {
  return plan.listen !== 'server' || plan.speak !== 'server';
}

/** The one line the page shows about where speech happens, in plain words. */
export function describePlan(plan: SpeechPlan): string {
  if (plan.listen === 'device' && plan.speak === 'device') return "Using your device's speech";
  if (plan.listen === 'device')
    return "Using your device's speech recognition; the homeowner's voice comes from our server";
  if (plan.listen === 'cloud')
    return plan.speak === 'device'
      ? "Using your browser's online speech recognition (you allowed it) and your device's voice"
      : "Using your browser's online speech recognition (you allowed it); the homeowner's voice comes from our server";
  if (plan.speak === 'device')
    return "Using your device's voice for the homeowner; your words are recognised on our server";
  return "Using our server's speech";
}

/** The vendor a browser's online recogniser sends audio to, for the consent question. */
export function recognitionVendor(userAgent: string): string {
  if (/Edg\//.test(userAgent)) return 'Microsoft';
  if (/Chrome\//.test(userAgent) || /CriOS\//.test(userAgent)) return 'Google';
  if (/Safari\//.test(userAgent) && /Version\//.test(userAgent)) return 'Apple';
  return "your browser's maker";
}

/** The parts of a `SpeechSynthesisVoice` the choice looks at. */
export interface VoiceInfo {
  name: string;
  lang: string;
  localService: boolean;
  default?: boolean;
}

// Names that say a voice's gender (system voices on Windows, macOS, iOS, Android, Linux).
const FEMALE =
  /\b(female|woman|girl|samantha|victoria|karen|moira|tessa|fiona|susan|allison|ava|serena|zira|hazel|heera|jenny|aria|emma|libby|sonia|natasha|clara|michelle|ana|joanna|kendra|kimberly|salli|ivy|nicky|kathy|vicki|princess|catherine|sara|linda|zoe|f\d)\b/i;
const MALE =
  /\b(male|man|boy|daniel|david|mark|alex|fred|tom|guy|ryan|george|james|oliver|aaron|arthur|rishi|christopher|eric|roger|steffan|brian|matthew|justin|joey|ralph|albert|bruce|junior|ravi|william|lee|m\d)\b/i;

export function voiceGender(name: string): 'female' | 'male' | null {
  // "Female" contains "male": test the female names first.
  if (FEMALE.test(name)) return 'female';
  if (MALE.test(name)) return 'male';
  return null;
}

/** An installed (not network) English voice: the device can voice the homeowner. */
export function isLocalEnglishVoice(v: VoiceInfo): boolean {
  return v.localService && /^en([-_]|$)/i.test(v.lang);
}

/**
 * The best installed English voice for a persona, or null when the device has none (then the
 * server voices the homeowner). Only `localService` voices: a network voice would send the
 * homeowner's lines to a vendor and stall on a bad connection. Among them: the persona's gender
 * where the name says it, then US English, then the system default.
 */
export function pickVoice<V extends VoiceInfo>(voices: readonly V[], persona: PersonaVoice): V | null {
  let best: V | null = null;
  let bestScore = -Infinity;
  for (const v of voices) {
    if (!isLocalEnglishVoice(v)) continue;
    const gender = voiceGender(v.name);
    let score = 0;
    if (gender === persona.gender) score += 4;
    else if (gender !== null) score -= 4;
    if (/^en[-_]us$/i.test(v.lang)) score += 2;
    if (v.default) score += 1;
    // Robotic fallbacks rank last among equals.
    if (/espeak|festival|pico/i.test(v.name)) score -= 1;
    if (score > bestScore) {
      best = v;
      bestScore = score;
    }
  }
  return best;
}
