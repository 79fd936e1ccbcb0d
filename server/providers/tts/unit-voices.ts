/**
 * The Debian voices beyond espeak-ng that need no download: Flite's voices (Debian `flite`) and
 * Festival's (Debian `festival` with `festvox-*`). Shared by the Flite engine (flite.ts) and
 * `npm run bench:voices`, which compared them (docs/benchmarks.md).
 */

/** Flite's built-in English voices and what they sound like. */
export const FLITE_VOICES = {
  /** US English female, statistical parametric (clustergen). */
  slt: { gender: 'female' },
  /** US English male, clustergen. */
  rms: { gender: 'male' },
  /** Scottish English male, clustergen. */
  awb: { gender: 'male' },
  /** US English male, diphone (older, buzzier). */
  kal16: { gender: 'male' },
} as const;
export type FliteVoiceName = keyof typeof FLITE_VOICES;

export function isFliteVoice(name: unknown): name is FliteVoiceName {
  return typeof name === 'string' && Object.hasOwn(FLITE_VOICES, name);
}

export interface FliteVoice {
  voice: FliteVoiceName;
  /**
   * Pitch (and tempo) factor applied by playing the samples at a different rate: 1.06 is about
   * a semitone higher and 6% quicker. Flite's clustergen voices ignore its pitch settings.
   */
  pitchShift?: number;
  /** Speaking-rate factor (Flite's duration_stretch is its inverse): 1 is the voice's own. */
  rate?: number;
}

/**
 * Flite's arguments to write one text as a WAV. `-t` marks the next argument as the text, so
 * a line starting with a dash is spoken, never read as an option.
 */
export function fliteArgs(v: FliteVoice, text: string, out: string): string[] {
  const stretch = v.rate && v.rate > 0 ? 1 / v.rate : 1;
  const args = ['-voice', v.voice];
  if (Math.abs(stretch - 1) > 0.001) args.push('--setf', `duration_stretch=${stretch.toFixed(3)}`);
  return [...args, '-t', text, '-o', out];
}

/** Festival's Scheme call that selects a voice for text2wave. */
export function festivalVoiceCommand(voice: string): string {
  if (!/^[a-z0-9_]+$/.test(voice)) throw new Error(`not a Festival voice name: ${voice}`);
  return `(voice_${voice})`;
}
