import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { NAME_MAX } from '../../../core/schemas';
import { cleanEmail, cleanName } from './sanitize';

describe('cleanName', () => {
  it('removes markup, keeping the visible words', () => {
    expect(cleanName('<script>alert(1)</script>Ann')).toBe('alert(1) Ann');
    expect(cleanName('Ann <b>Lee</b>')).toBe('Ann Lee');
    expect(cleanName('<img src=x onerror=alert(1)>')).toBe('');
    expect(cleanName('Ann <unclosed')).toBe('Ann');
    expect(cleanName('a > b')).toBe('a b');
  });

  it('flattens line breaks and control characters so the name cannot inject headers', () => {
    expect(cleanName('Ann\r\nBcc: x@example.com')).toBe('Ann Bcc: x@example.com');
    expect(cleanName('Ann\u0000\u2028Lee\u202e')).toBe('Ann Lee');
  });

  it('keeps ordinary names, accents and punctuation', () => {
    expect(cleanName("  José O'Brien-Smith  ")).toBe("José O'Brien-Smith");
    expect(cleanName('Tom & Jerry')).toBe('Tom & Jerry');
  });

  it('never returns brackets, control characters or more than NAME_MAX characters', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 400, unit: 'binary' }), (s) => {
        const out = cleanName(s);
        // eslint-disable-next-line no-control-regex -- the point is that none of these survive
        expect(out).not.toMatch(/[<>\r\n\u0000-\u001f]/);
        expect(out.length).toBeLessThanOrEqual(NAME_MAX);
        expect(out).toBe(out.trim());
      }),
    );
  });
});

describe('cleanEmail', () => {
  it('lower-cases the domain only', () => {
    expect(cleanEmail(' Ann.Lee@Example.COM ')).toBe('Ann.Lee@example.com');
  });
});
