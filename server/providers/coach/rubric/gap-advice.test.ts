import { describe, expect, it } from 'vitest';
import { absenceAdvice } from './gap-advice';

describe('what a section lacked, as advice', () => {
  it('turns an absence into what to add, and leaves what happened as it is', () => {
    expect(absenceAdvice('never checked the answer resolved the concern')).toBe(
      'check your answer resolved the concern',
    );
    expect(absenceAdvice('left unexplored: why now, budget')).toBe('explore why now, budget');
    expect(absenceAdvice('4 of 6 questions were yes/no, so the homeowner never explained what matters')).toBe(
      'ask open questions so the homeowner explains what matters',
    );
    expect(absenceAdvice('met the concern with pressure')).toBeNull();
    expect(absenceAdvice('leaned on a deadline instead of the value')).toBeNull();
  });
});
