/**
 * HubSpot's embedded marketing form (v2 embed, region na1): loading the script, creating the
 * form, and recognising its successful-submission event in either of the two ways HubSpot
 * reports it (the onFormSubmitted callback, and a window message `hsFormCallback`).
 */
export const HUBSPOT_SCRIPT_URL = 'https://js.hsforms.net/forms/embed/v2.js';

export interface HubSpotSettings {
  portalId: string;
  formId: string;
  region: string;
}

interface HubSpotFormsApi {
  forms: {
    create(options: {
      region: string;
      portalId: string;
      formId: string;
      target: string;
      onFormSubmit?: (form: unknown) => void;
      onFormSubmitted?: (form: unknown, data?: unknown) => void;
    }): unknown;
  };
}

declare global {
  interface Window {
    hbspt?: HubSpotFormsApi;
  }
}

const loads = new Map<string, Promise<HubSpotFormsApi>>();

/**
 * The page address without its `session` parameter, or null when it has none. The session id
 * opens the rep's transcript and coaching; HubSpot's script reads the page address (and sends
 * it with the form), so the id must be gone from it before the script loads.
 */
export function addressWithoutSession(href: string): string | null {
  const url = new URL(href);
  if (!url.searchParams.has('session')) return null;
  url.searchParams.delete('session');
  return `${url.pathname}${url.search}${url.hash}`;
}

/** Takes `?session=` out of the address bar (same history entry), before a third party reads it. */
export function hideSessionFromAddress(): void {
  const without = addressWithoutSession(window.location.href);
  if (without !== null) window.history.replaceState(window.history.state, '', without);
}

/** Loads the embed script once per page; rejects when it cannot load (blocked, offline). */
export function loadHubSpot(url = HUBSPOT_SCRIPT_URL): Promise<HubSpotFormsApi> {
  if (window.hbspt?.forms) return Promise.resolve(window.hbspt);
  let pending = loads.get(url);
  if (!pending) {
    pending = new Promise<HubSpotFormsApi>((resolve, reject) => {
      const script = document.createElement('script');
      script.src = url;
      script.async = true;
      script.charset = 'utf-8';
      script.onload = () =>
        window.hbspt?.forms ? resolve(window.hbspt) : reject(new Error('HubSpot forms did not start'));
      script.onerror = () => reject(new Error('The HubSpot form could not be loaded'));
      document.head.appendChild(script);
    }).catch((err: unknown) => {
      loads.delete(url);
      throw err;
    });
    loads.set(url, pending);
  }
  return pending;
}

/** Messages only count from this page or HubSpot's own frames. */
export function isTrustedHubSpotOrigin(origin: string, ownOrigin: string): boolean {
  if (origin === ownOrigin) return true;
  try {
    const { protocol, hostname } = new URL(origin);
    return (
      protocol === 'https:' &&
      ['hsforms.net', 'hsforms.com', 'hubspot.com'].some((d) => hostname === d || hostname.endsWith(`.${d}`))
    );
  } catch {
    return false;
  }
}

export type HubSpotSignal =
  { kind: 'submit'; email: string | null } | { kind: 'submitted'; email: string | null };

const EMAIL_FIELD = /^e-?mail$/i;

/** Finds the email in the shapes HubSpot passes: [{name, value}], {submissionValues: {...}}, or a plain record. */
export function emailFromHubSpotData(data: unknown): string | null {
  if (!data) return null;
  if (Array.isArray(data)) {
    const field = data.find(
      (f) => f && typeof f === 'object' && EMAIL_FIELD.test(String((f as { name?: unknown }).name)),
    );
    const value = field ? (field as { value?: unknown }).value : null;
    return typeof value === 'string' && value.includes('@') ? value.trim() : null;
  }
  if (typeof data === 'object') {
    const record = data as Record<string, unknown>;
    if (record.submissionValues) return emailFromHubSpotData(record.submissionValues);
    if (record.data) return emailFromHubSpotData(record.data);
    for (const [k, v] of Object.entries(record)) {
      if (EMAIL_FIELD.test(k) && typeof v === 'string' && v.includes('@')) return v.trim();
    }
  }
  return null;
}

/** Reads a window message as a HubSpot form event for this form, or null. */
export function hubSpotSignalFromMessage(data: unknown, formId: string): HubSpotSignal | null {
  if (!data || typeof data !== 'object') return null;
  const m = data as { type?: unknown; eventName?: unknown; id?: unknown; data?: unknown };
  if (m.type !== 'hsFormCallback') return null;
  if (m.id !== undefined && m.id !== formId) return null;
  if (m.eventName === 'onFormSubmitted') return { kind: 'submitted', email: emailFromHubSpotData(m.data) };
  if (m.eventName === 'onFormSubmit') return { kind: 'submit', email: emailFromHubSpotData(m.data) };
  return null;
}
