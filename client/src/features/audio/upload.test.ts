import { describe, expect, it } from 'vitest';
import { OFFLINE_MESSAGE, UPLOAD_FAILED_MESSAGE, uploadErrorMessage } from './upload';

const err = (message: string) => JSON.stringify({ error: { code: 'x', message } });

describe('upload failure messages', () => {
  it('gives the server reason for a rate limit with when to retry', () => {
    const r = uploadErrorMessage({
      status: 429,
      body: err('Too many uploads from this address.'),
      retryAfter: '42',
      online: true,
    });
    expect(r).toEqual({
      message: 'Too many uploads from this address. You can try again in 42 seconds.',
      retryAfterSec: 42,
    });
    expect(uploadErrorMessage({ status: 429, body: '', retryAfter: '600', online: true }).message).toContain(
      'try again in 10 minutes',
    );
  });

  it('passes on the size and type limits from the server', () => {
    expect(
      uploadErrorMessage({
        status: 413,
        body: err('Please upload a file smaller than 25MB'),
        retryAfter: null,
        online: true,
      }).message,
    ).toBe('Please upload a file smaller than 25MB');
    expect(
      uploadErrorMessage({
        status: 415,
        body: err('Please upload an audio file (MP3, WAV, M4A, etc.)'),
        retryAfter: null,
        online: true,
      }).message,
    ).toContain('MP3, WAV, M4A');
  });

  it('tells offline from a server that cannot be reached, and falls back to the spec text', () => {
    expect(uploadErrorMessage({ status: 0, body: '', retryAfter: null, online: false }).message).toBe(
      OFFLINE_MESSAGE,
    );
    expect(uploadErrorMessage({ status: 0, body: '', retryAfter: null, online: true }).message).toContain(
      'could not be reached',
    );
    expect(uploadErrorMessage({ status: 500, body: '<html>', retryAfter: null, online: true }).message).toBe(
      UPLOAD_FAILED_MESSAGE,
    );
  });
});
