import { describe, expect, it } from 'vitest';
import { isStorableText, storableText } from './text';

describe('storable text', () => {
  it('refuses NUL and unpaired surrogates', () => {
    expect(isStorableText('a\u0000b')).toBe(false);
    expect(isStorableText('a\ud800b')).toBe(false);
    expect(isStorableText('a\udfffb')).toBe(false);
    expect(isStorableText('end \ud83d')).toBe(false);
  });
  it('keeps ordinary text, emoji (paired surrogates) and other controls', () => {
    expect(isStorableText('Hello — 👋 ça va?\n\t')).toBe(true);
    expect(storableText().max(5).safeParse('👋').success).toBe(true);
    expect(storableText().safeParse('x\u0000').success).toBe(false);
  });
});
