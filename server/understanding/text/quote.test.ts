import { describe, expect, it } from 'vitest';
import { quotable, readsClearly } from './quote';

describe('quoting', () => {
  it('keeps the words as said, trimmed', () => {
    expect(quotable('>  "Fine."   Card\'s fine.')).toBe("'Fine.' Card's fine.");
    expect(quotable('one two three four', 3)).toBe('one two three...');
  });

  it('skips spans a weak recogniser garbled or cut short', () => {
    expect(readsClearly('you d c the downspout there is it clogged')).toBe(false);
    expect(readsClearly('Sure.')).toBe(false);
    expect(readsClearly('whats the basement like after a big rain')).toBe(true);
    expect(readsClearly('I think a new roof is the best option here')).toBe(true);
  });
});
