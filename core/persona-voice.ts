import type { Stage } from './stages';

/**
 * How each homeowner sounds, as far as a browser voice can follow it: the gender of the voice
 * and espeak-ng's speaking rate (words per minute) and pitch (0-99, 50 is the voice's own).
 * The server's persona facts (server/providers/brain/personas.ts) carry the same numbers;
 * a unit test keeps the two in step.
 */
export interface PersonaVoice {
  gender: 'female' | 'male';
  /** Words per minute (espeak-ng's `-s`). */
  rate: number;
  /** 0..99, 50 is neutral (espeak-ng's `-p`). */
  pitch: number;
}

export const PERSONA_VOICES: Record<Stage, PersonaVoice> = {
  Windows: { gender: 'female', rate: 165, pitch: 55 },
  HVAC: { gender: 'male', rate: 190, pitch: 40 },
  Roofing: { gender: 'male', rate: 150, pitch: 25 },
  Flooring: { gender: 'female', rate: 160, pitch: 65 },
  General: { gender: 'male', rate: 170, pitch: 50 },
};

/** Words per minute a Web Speech voice speaks at rate 1 (system voices cluster around this). */
export const WEB_SPEECH_BASE_WPM = 175;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * The persona's rate and pitch as `SpeechSynthesisUtterance` values: rate 1 is the voice's
 * normal speed (0.1..10 allowed; kept to 0.5..2 so it stays natural), pitch 1 its normal
 * pitch (0..2). A persona one step lower than neutral sounds lower, not robotic.
 */
export function webSpeechSettings(voice: PersonaVoice): { rate: number; pitch: number } {
  const rate = clamp(voice.rate / WEB_SPEECH_BASE_WPM, 0.5, 2);
  // espeak's 0..99 around 50 -> 0.5..1.5 around 1: browser voices go thin or gravelly beyond.
  const pitch = clamp(1 + (voice.pitch - 50) / 100, 0.5, 1.5);
  return { rate: Math.round(rate * 100) / 100, pitch: Math.round(pitch * 100) / 100 };
}
