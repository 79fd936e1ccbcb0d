import { describe, expect, it } from 'vitest';
import { apiRequest, errorMessage, getQueryFn, type FetchLike } from './request';

function recorder(response: Response) {
  const calls: { url: string; init?: RequestInit }[] = [];
  const fetchImpl: FetchLike = async (url, init) => {
    calls.push({ url, init });
    return response;
  };
  return { calls, fetchImpl };
}

describe('apiRequest', () => {
  it('sends a JSON body with a JSON content-type and cookies', async () => {
    const { calls, fetchImpl } = recorder(new Response('{}', { status: 200 }));
    await apiRequest('POST', '/api/sessions', { stage: 'HVAC' }, fetchImpl);
    expect(calls[0].url).toBe('/api/sessions');
    expect(calls[0].init?.method).toBe('POST');
    expect(calls[0].init?.headers).toEqual({ 'Content-Type': 'application/json' });
    expect(calls[0].init?.body).toBe('{"stage":"HVAC"}');
    expect(calls[0].init?.credentials).toBe('include');
  });

  it('sends no content-type without a body', async () => {
    const { calls, fetchImpl } = recorder(new Response('{}', { status: 200 }));
    await apiRequest('POST', '/api/sessions/1/coaching', undefined, fetchImpl);
    expect(calls[0].init?.headers).toEqual({});
    expect(calls[0].init?.body).toBeUndefined();
  });

  it('turns a non-OK answer into "status: body text"', async () => {
    const body = '{"error":{"code":"not_found","message":"No such session"}}';
    const { fetchImpl } = recorder(new Response(body, { status: 404, statusText: 'Not Found' }));
    await expect(apiRequest('GET', '/x', undefined, fetchImpl)).rejects.toThrow(`404: ${body}`);
  });

  it('falls back to the status text when the body is empty', async () => {
    const { fetchImpl } = recorder(new Response('', { status: 503, statusText: 'Service Unavailable' }));
    await expect(apiRequest('GET', '/x', undefined, fetchImpl)).rejects.toThrow('503: Service Unavailable');
  });
});

describe('getQueryFn', () => {
  it('joins the query key with slashes and parses JSON', async () => {
    const { calls, fetchImpl } = recorder(new Response('{"id":"a1"}', { status: 200 }));
    const fn = getQueryFn<{ id: string }>({ on401: 'throw' }, fetchImpl);
    expect(await fn({ queryKey: ['/api/audio', 'a1'] })).toEqual({ id: 'a1' });
    expect(calls[0].url).toBe('/api/audio/a1');
    expect(calls[0].init?.credentials).toBe('include');
  });

  it('returns null on 401 when asked to, and throws otherwise', async () => {
    const nullFn = getQueryFn(
      { on401: 'returnNull' },
      recorder(new Response('no', { status: 401 })).fetchImpl,
    );
    expect(await nullFn({ queryKey: ['/api/me'] })).toBeNull();
    const throwFn = getQueryFn({ on401: 'throw' }, recorder(new Response('no', { status: 401 })).fetchImpl);
    await expect(throwFn({ queryKey: ['/api/me'] })).rejects.toThrow('401: no');
  });
});

describe('errorMessage', () => {
  it('reads the message of our JSON error body', () => {
    const err = new Error('503: {"error":{"code":"engine_unavailable","message":"Install the coach."}}');
    expect(errorMessage(err)).toBe('Install the coach.');
  });
  it('keeps plain body text and plain errors', () => {
    expect(errorMessage(new Error('500: Internal Server Error'))).toBe('Internal Server Error');
    expect(errorMessage(new Error('No session ID'))).toBe('No session ID');
    expect(errorMessage('oops')).toBe('oops');
  });
});
