import { describe, expect, it } from 'vitest';
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { redactMessage, safeError } from './log-safety';

describe('error log lines', () => {
  it('drop a failed query parameters, its cause keeps only its own message', () => {
    const err = new DrizzleQueryError(
      'update "sessions" set "transcript" = $1 where "id" = $2',
      ['{"transcript":"secret words"}', 'id-1'],
      new Error('invalid byte sequence for encoding "UTF8": 0x00'),
    );
    const out = JSON.stringify(safeError(err));
    expect(out).not.toContain('secret words');
    expect(out).toContain('update \\"sessions\\"');
    expect(out).toContain('invalid byte sequence');
    expect(out).toContain('parameters not logged');
  });
  it('replace email addresses and cap long messages', () => {
    expect(redactMessage('550 rejected: jane.doe+x@mail.example.com is unknown')).toBe(
      '550 rejected: [email] is unknown',
    );
    expect(redactMessage('x'.repeat(2000)).length).toBeLessThanOrEqual(501);
  });
  it('keep stack frames but not the message lines at the top of the stack', () => {
    const err = new Error('contains secret words');
    const out = safeError(err);
    expect(out.stack).toMatch(/^\s+at /);
    expect(out.stack).not.toContain('secret words');
  });
  it('serialize plain values too', () => {
    expect(safeError('mail bob@example.com failed').message).toBe('mail [email] failed');
  });
});
