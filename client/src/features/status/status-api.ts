import type { OperatorEngine } from '@core/operator-status';

/**
 * The operator status page's data: GET /api/status (engines in use, why, how to upgrade, queue
 * and database health). In production it needs `Authorization: Bearer <METRICS_TOKEN>`; the
 * page asks for the token when the server answers 401 or 404 and keeps it for this tab only.
 * Where /api/status is not served, the page shows the public /api/health answer instead.
 */
export const STATUS_TOKEN_KEY = 'doorstep:status-token';

/**
 * An engine as /api/status reports it (core's OperatorEngine), or the part of it /api/health
 * gives: every field but the capability may be absent.
 */
export type StatusEngine = Partial<OperatorEngine> & { capability: string; error?: string };

/** One model of the upgrade set the server fetches in the background (AUTO_MODELS). */
export interface StatusModel {
  id: string;
  capability?: string;
  description?: string;
  licence?: string;
  state: 'queued' | 'downloading' | 'verifying' | 'unpacking' | 'ready' | 'failed';
  bytesDone?: number;
  bytesTotal?: number | null;
  reason?: string;
  nextAttemptAt?: string;
}

/** Whether a model download is under way (the page then refreshes itself). */
export function modelsBusy(report: StatusReport | null | undefined): boolean {
  return (report?.models?.models ?? []).some(
    (m) => m.state === 'downloading' || m.state === 'verifying' || m.state === 'unpacking',
  );
}

export interface StatusReport {
  status?: string;
  database?: { driver?: string; ok?: boolean; describe?: string; error?: string };
  jobs?: {
    queued?: number;
    running?: number;
    failed?: number;
    done?: number;
    worker?: { running?: boolean; kinds?: string[] };
  };
  engines?: StatusEngine[];
  models?: { enabled?: boolean; note?: string; models?: StatusModel[] };
}

export type StatusResult =
  | { kind: 'ok'; source: 'status' | 'health'; report: StatusReport }
  | { kind: 'needs-token'; rejected: boolean; publicReport: StatusReport | null }
  | { kind: 'error'; message: string };

export function readToken(): string | null {
  try {
    return window.sessionStorage.getItem(STATUS_TOKEN_KEY);
  } catch {
    return null;
  }
}

export function saveToken(token: string | null): void {
  try {
    if (token) window.sessionStorage.setItem(STATUS_TOKEN_KEY, token);
    else window.sessionStorage.removeItem(STATUS_TOKEN_KEY);
  } catch {
    // Storage blocked: the token is asked for again next time.
  }
}

async function readJson(res: Response): Promise<StatusReport | null> {
  try {
    const body = (await res.json()) as unknown;
    return body && typeof body === 'object' ? (body as StatusReport) : null;
  } catch {
    return null;
  }
}

/** A report is what /api/status or /api/health answer: anything else (an error body) is not. */
function looksLikeReport(body: StatusReport | null): body is StatusReport {
  return !!body && (Array.isArray(body.engines) || typeof body.status === 'string' || !!body.database);
}

export async function loadStatus(
  token: string | null,
  fetchImpl: typeof fetch = (input, init) => fetch(input, init),
): Promise<StatusResult> {
  try {
    const res = await fetchImpl('/api/status', {
      credentials: 'include',
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
    const body = await readJson(res);
    if (res.ok && looksLikeReport(body)) return { kind: 'ok', source: 'status', report: body };
    if (res.status === 401 || res.status === 403 || res.status === 404) {
      const health = await fetchImpl('/api/health', { credentials: 'include' });
      const publicReport = await readJson(health);
      // No operator endpoint here, and health already tells everything: nothing to unlock.
      if (
        res.status === 404 &&
        !token &&
        looksLikeReport(publicReport) &&
        Array.isArray(publicReport.engines)
      )
        return { kind: 'ok', source: 'health', report: publicReport };
      return {
        kind: 'needs-token',
        rejected: token !== null,
        publicReport: looksLikeReport(publicReport) ? publicReport : null,
      };
    }
    return { kind: 'error', message: `The server answered ${res.status}.` };
  } catch {
    return { kind: 'error', message: 'The server could not be reached. Check the connection and try again.' };
  }
}
