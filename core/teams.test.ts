import { describe, expect, it } from 'vitest';
import { csvCell, csvRow, teamFilterSchema } from './teams';

describe('CSV cells', () => {
  it('keeps text a spreadsheet would run as a formula as text', () => {
    for (const s of ['=1+1', '+1', '-2', '@SUM(A1)', '\tx', '\rx']) {
      expect(csvCell(s).startsWith(`"'`), s).toBe(true);
    }
    expect(csvCell('=HYPERLINK("http://x","y")')).toBe(`"'=HYPERLINK(""http://x"",""y"")"`);
  });

  it('quotes commas, quotes and line breaks; leaves plain text and numbers alone', () => {
    expect(csvCell('a,b')).toBe('"a,b"');
    expect(csvCell('say "hi"')).toBe('"say ""hi"""');
    expect(csvCell('two\nlines')).toBe('"two\nlines"');
    expect(csvCell('rep@example.com')).toBe('rep@example.com');
    expect(csvCell(-3)).toBe('-3');
    expect(csvCell(5.5)).toBe('5.5');
    expect(csvCell(null)).toBe('');
    expect(csvCell(Number.NaN)).toBe('');
    expect(csvRow(['a', 1, null, '=x'])).toBe(`a,1,,"'=x"`);
  });
});

describe('team filters', () => {
  it('takes a trade and real dates only', () => {
    expect(teamFilterSchema.safeParse({ stage: 'HVAC', from: '2026-01-01', to: '2026-02-01' }).success).toBe(
      true,
    );
    expect(teamFilterSchema.safeParse({ stage: 'Boats' }).success).toBe(false);
    expect(teamFilterSchema.safeParse({ from: '2026-13-45' }).success).toBe(false);
    expect(teamFilterSchema.safeParse({ from: '1 Jan' }).success).toBe(false);
  });
});
