import { describe, expect, it } from 'vitest';
import { HttpError } from '../errors';
import { UploadVolume } from './upload-volume';

const MB = 1024 * 1024;

function refused(fn: () => void): HttpError {
  try {
    fn();
  } catch (err) {
    if (err instanceof HttpError) return err;
    throw err;
  }
  throw new Error('expected a refusal');
}

describe('upload volume per client per hour', () => {
  it('refuses past the hourly volume with the seconds until enough ages out, per client', () => {
    let now = 1_000_000;
    const v = new UploadVolume(50, () => now);
    v.check('a', 20 * MB);
    v.add('a', 20 * MB);
    now += 10 * 60_000;
    v.check('a', 20 * MB);
    v.add('a', 20 * MB);
    now += 10 * 60_000;
    const err = refused(() => v.check('a', 20 * MB));
    expect(err.statusCode).toBe(429);
    // The first 20 MB leaves the hour 40 minutes from now.
    expect(err.headers['retry-after']).toBe(String(40 * 60));
    v.check('b', 20 * MB);
    now += 40 * 60_000 + 1;
    v.check('a', 20 * MB);
  });

  it('always lets a first upload through and does nothing at 0', () => {
    const v = new UploadVolume(1);
    v.check('a', 25 * MB);
    const off = new UploadVolume(0);
    off.add('a', 500 * MB);
    off.check('a', 500 * MB);
  });
});
