/**
 * The named steps an uploaded recording goes through on the server, in order, and how the upload
 * page names them. The server reports the step under way, the share of the whole done, and an
 * estimate of the time left (GET /api/audio/:id).
 */
export const PROCESSING_STEPS = [
  'decoding',
  'finding-speech',
  'transcribing',
  'speakers',
  'coaching',
] as const;
export type ProcessingStep = (typeof PROCESSING_STEPS)[number];

export const PROCESSING_STEP_LABELS: Record<ProcessingStep, string> = {
  decoding: 'Reading the recording',
  'finding-speech': 'Finding the speech',
  transcribing: 'Transcribing',
  speakers: 'Telling voices apart',
  coaching: 'Coaching',
};

/** "About 3 minutes left", "About 40 seconds left", "Almost done". */
export function timeLeftText(seconds: number | null): string | null {
  if (seconds === null || !Number.isFinite(seconds)) return null;
  if (seconds < 10) return 'Almost done';
  if (seconds < 90) return `About ${Math.max(10, Math.round(seconds / 10) * 10)} seconds left`;
  const minutes = Math.round(seconds / 60);
  return `About ${minutes} minute${minutes === 1 ? '' : 's'} left`;
}
