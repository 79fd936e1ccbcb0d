import type { CoachingView } from '@core/views';
import { apiJson } from '@client/lib/request';

export type SessionKind = 'roleplay' | 'audio';

/** POST /api/sessions/:id/coaching and /api/audio/:id/coaching (docs/api.md; core/views.ts). */
export type CoachingResponse = CoachingView;

export const NO_SESSION_ID = 'No session ID';

export function coachingUrl(kind: SessionKind, sessionId: string): string {
  const base = kind === 'audio' ? '/api/audio' : '/api/sessions';
  return `${base}/${encodeURIComponent(sessionId)}/coaching`;
}

export function coachingQueryKey(kind: SessionKind, sessionId: string | null) {
  return ['coaching', kind, sessionId] as const;
}

export async function requestCoaching(
  kind: SessionKind,
  sessionId: string | null,
): Promise<CoachingResponse> {
  if (!sessionId) throw new Error(NO_SESSION_ID);
  return apiJson<CoachingResponse>('POST', coachingUrl(kind, sessionId));
}

/** A neutral quality hint for reps: never engine set-up (that is on the operators' status page). */
export function coachQualityHint(quality: 'basic' | 'enhanced' | undefined): string {
  return quality === 'enhanced' ? 'AI coach — enhanced' : 'Offline coach — basic';
}
