import { describe, expect, it } from 'vitest';
import { timeLeftText } from '@core/processing';
import { stepStates } from './processing-card';

describe('the processing card', () => {
  it('marks the steps before the current one done and the rest waiting', () => {
    expect(stepStates('transcribing').map((s) => s.state)).toEqual([
      'done',
      'done',
      'current',
      'waiting',
      'waiting',
    ]);
    expect(stepStates(null).every((s) => s.state === 'waiting')).toBe(true);
    expect(stepStates('coaching').at(-1)).toEqual({ step: 'coaching', state: 'current' });
  });

  it('says the time left in plain words', () => {
    expect(timeLeftText(null)).toBeNull();
    expect(timeLeftText(4)).toBe('Almost done');
    expect(timeLeftText(44)).toBe('About 40 seconds left');
    expect(timeLeftText(200)).toBe('About 3 minutes left');
    expect(timeLeftText(65)).toBe('About 70 seconds left');
    expect(timeLeftText(3600)).toBe('About 60 minutes left');
  });
});
