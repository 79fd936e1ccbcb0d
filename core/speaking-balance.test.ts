import { describe, expect, it } from 'vitest';
import { balanceMessages, speakingBalance } from './speaking-balance';
import type { TranscriptEntry } from './transcript';

const entry = (
  role: 'user' | 'assistant',
  transcript: string,
  transcriptType?: 'final' | 'partial',
): TranscriptEntry => ({
  role,
  transcript,
  timestamp: 1,
  transcriptType,
});

describe('speakingBalance', () => {
  it('is 50/50 with zero words', () => {
    expect(speakingBalance([])).toMatchObject({ userPercent: 50, personaPercent: 50, goodListening: false });
  });

  it('counts final entries only, missing type as final', () => {
    const b = speakingBalance([
      entry('user', 'one two three four'),
      entry('assistant', 'one two three four five six', 'final'),
      entry('assistant', 'ignored partial words here', 'partial'),
    ]);
    expect(b).toMatchObject({
      userWords: 4,
      personaWords: 6,
      userPercent: 40,
      personaPercent: 60,
      goodListening: true,
    });
  });

  it('rounds shares', () => {
    const b = speakingBalance([entry('user', 'a b'), entry('assistant', 'a')]);
    expect(b.userPercent).toBe(67);
    expect(b.personaPercent).toBe(33);
  });

  it('gives both messages', () => {
    const good = balanceMessages(speakingBalance([entry('user', 'a b'), entry('assistant', 'a b c')]), 'Tom');
    expect(good.title).toBe('Great listening ratio!');
    expect(good.text).toBe('Perfect! Tom is doing most of the talking. Keep asking questions.');
    const bad = balanceMessages(speakingBalance([entry('user', 'a b c'), entry('assistant', 'a b')]), 'Tom');
    expect(bad.title).toBeNull();
    expect(bad.text).toBe('Try to listen more - aim for Tom to speak 60%+ of the time.');
  });
});
