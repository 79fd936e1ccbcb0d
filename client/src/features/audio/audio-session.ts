import { AUDIO_POLL_INTERVAL } from '@core/constants';
import type { TranscriptEntry } from '@core/transcript';
import type { AudioSessionView } from '@core/views';

/** GET /api/audio/:id (docs/api.md): the shape the server builds, from core/. */
export type { AudioSessionView };

/** One name per side of an uploaded call, the same on screen, in the PDF and in the email. */
export const SPEAKER_LABELS = { user: 'You', assistant: 'Customer' } as const;

export function audioSessionKey(id: string | null) {
  return ['/api/audio', id] as const;
}

/**
 * Poll every 2 s until the transcript is non-empty or transcription failed (spec §4). A finished
 * job with an empty transcript (no speech heard) also stops the polling. The server coaches the
 * transcript by itself; while it does (`step: 'coaching'`) the page keeps polling, so the
 * coaching shows as soon as it is stored.
 */
export function audioPollInterval(
  session: Pick<AudioSessionView, 'transcript' | 'status' | 'step'> | undefined,
): number | false {
  if (!session) return AUDIO_POLL_INTERVAL;
  if (session.step === 'coaching') return AUDIO_POLL_INTERVAL;
  if (session.status === 'failed' || session.status === 'transcribed') return false;
  if (Array.isArray(session.transcript) && session.transcript.length > 0) return false;
  return AUDIO_POLL_INTERVAL;
}

// Anything below this is an offset into the recording rather than a wall-clock time (~3 years in ms).
const EPOCH_THRESHOLD_MS = 1e11;

/** Where an entry starts in the recording, in ms: offsets are used as-is, epoch times relative to the first entry. */
export function entryOffsetMs(
  entry: Pick<TranscriptEntry, 'timestamp'>,
  first: Pick<TranscriptEntry, 'timestamp'> | undefined,
): number {
  if (entry.timestamp < EPOCH_THRESHOLD_MS) return Math.max(0, entry.timestamp);
  return Math.max(0, entry.timestamp - (first?.timestamp ?? entry.timestamp));
}

/** m:ss, or h:mm:ss for long recordings. */
export function formatOffset(ms: number): string {
  const total = Math.max(0, Math.floor(ms / 1000));
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = String(total % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
