import { useSyncExternalStore } from 'react';
import { apiJson, errorMessage } from '@client/lib/request';

/**
 * The summary email after a role-play: sent by the one form after the call ("Unlock and email
 * me the summary"), then shown as "Sent to x@y · Resend". Today's endpoint (POST /api/feedback)
 * takes {sessionId, name, email} and needs a name: when the rep gives none, the part of the
 * address before the @ greets them.
 */
export interface SummaryStatus {
  email: string;
  name: string | null;
  state: 'sending' | 'sent' | 'failed';
  message?: string;
}

const statuses = new Map<string, SummaryStatus>();
const listeners = new Set<() => void>();

function set(sessionId: string, status: SummaryStatus) {
  statuses.set(sessionId, status);
  for (const l of [...listeners]) l();
}

export function greetingName(name: string | null | undefined, email: string): string {
  const given = name?.trim();
  if (given) return given;
  return email.split('@')[0] || email;
}

/** POST /api/feedback for the session; the status is kept for the results' "Sent to" line. */
export async function sendSummary(sessionId: string, email: string, name: string | null): Promise<boolean> {
  set(sessionId, { email, name, state: 'sending' });
  try {
    await apiJson('POST', '/api/feedback', { sessionId, name: greetingName(name, email), email });
    set(sessionId, { email, name, state: 'sent' });
    return true;
  } catch (err) {
    set(sessionId, { email, name, state: 'failed', message: errorMessage(err) });
    return false;
  }
}

export function useSummaryStatus(sessionId: string | null): SummaryStatus | null {
  return useSyncExternalStore(
    (l) => {
      listeners.add(l);
      return () => listeners.delete(l);
    },
    () => (sessionId ? (statuses.get(sessionId) ?? null) : null),
  );
}
