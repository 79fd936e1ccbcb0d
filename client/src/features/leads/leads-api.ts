import type { LeadRequest } from '@core/leads';
import { apiJson } from '@client/lib/request';
import type { GateSessionKind } from './gate-store';

export type LeadInput = LeadRequest;

/** POST /api/leads (docs/api.md): an email alone unlocks the session's full coaching. */
export function postLead(input: LeadInput): Promise<{ unlocked: true }> {
  return apiJson('POST', '/api/leads', input);
}

/** The session read that carries `unlocked`; the same key the default query function turns into the URL. */
export function sessionQueryKey(kind: GateSessionKind, id: string | null) {
  return [kind === 'audio' ? '/api/audio' : '/api/sessions', id] as const;
}
