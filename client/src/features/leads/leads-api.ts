import { apiJson } from '@client/lib/request';
import type { GateSessionKind } from './gate-store';

export interface LeadInput {
  email: string;
  name?: string | null;
  consent: true;
  sessionId: string;
  sessionKind: GateSessionKind;
  source: 'builtin' | 'hubspot';
}

/** POST /api/leads (docs/api.md). */
export function postLead(input: LeadInput): Promise<{ id: string; unlocked: true }> {
  return apiJson('POST', '/api/leads', input);
}

/** The session read that carries `unlocked`; the same key the default query function turns into the URL. */
export function sessionQueryKey(kind: GateSessionKind, id: string | null) {
  return [kind === 'audio' ? '/api/audio' : '/api/sessions', id] as const;
}
