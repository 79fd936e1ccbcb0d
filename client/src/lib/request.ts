/**
 * The request helper and default query function of spec §7: JSON bodies with a JSON
 * content-type, cookies always included, and any non-OK answer becomes an Error whose text
 * is `${status}: ${body text or statusText}`.
 */
export type FetchLike = (input: string, init?: RequestInit) => Promise<Response>;

export async function throwIfResNotOk(res: Response): Promise<void> {
  if (res.ok) return;
  const text = (await res.text().catch(() => '')) || res.statusText;
  throw new Error(`${res.status}: ${text}`);
}

export async function apiRequest(
  method: string,
  url: string,
  body?: unknown,
  fetchImpl: FetchLike = (input, init) => fetch(input, init),
): Promise<Response> {
  const res = await fetchImpl(url, {
    method,
    headers: body !== undefined ? { 'Content-Type': 'application/json' } : {},
    body: body !== undefined ? JSON.stringify(body) : undefined,
    credentials: 'include',
  });
  await throwIfResNotOk(res);
  return res;
}

/** apiRequest, then the JSON answer (null for an empty body). */
export async function apiJson<T>(
  method: string,
  url: string,
  body?: unknown,
  fetchImpl?: FetchLike,
): Promise<T> {
  const res = await apiRequest(method, url, body, fetchImpl);
  const text = await res.text();
  return (text ? JSON.parse(text) : null) as T;
}

export type UnauthorizedBehavior = 'returnNull' | 'throw';

/** Joins the query key with '/' and GETs JSON. */
export function getQueryFn<T>(options: { on401: UnauthorizedBehavior }, fetchImpl?: FetchLike) {
  const doFetch: FetchLike = fetchImpl ?? ((input, init) => fetch(input, init));
  return async ({ queryKey }: { queryKey: readonly unknown[] }): Promise<T | null> => {
    const res = await doFetch(queryKey.join('/'), { credentials: 'include' });
    if (options.on401 === 'returnNull' && res.status === 401) return null;
    await throwIfResNotOk(res);
    return (await res.json()) as T;
  };
}

/**
 * The human part of a request error. The Error text stays `${status}: ${body}` (spec §7);
 * when the body is our JSON error shape, people read its message rather than raw JSON.
 */
export function errorMessage(error: unknown): string {
  if (!(error instanceof Error)) return typeof error === 'string' ? error : 'Something went wrong.';
  const m = error.message.match(/^(\d{3}): ([\s\S]*)$/);
  if (!m) return error.message;
  try {
    const parsed = JSON.parse(m[2]) as { error?: { message?: unknown }; message?: unknown };
    const message = parsed?.error?.message ?? parsed?.message;
    if (typeof message === 'string' && message) return message;
  } catch {
    // not JSON: the body text is the message
  }
  return m[2].trim() || error.message;
}
