import { describe, expect, it } from 'vitest';
import { fill, firstOf, type Grounded } from './template';

const day: Grounded = {
  value: 'Thursday at six',
  evidence: [{ turn: 3, speaker: 'rep', start: 0, end: 15, text: 'Thursday at six' }],
};

describe('advice templates', () => {
  it('fills grounded values and keeps their evidence', () => {
    const r = fill('Text {who} what you agreed[, {when}].', { who: 'Frank', when: day })!;
    expect(r.text).toBe('Text Frank what you agreed, Thursday at six.');
    expect(r.slots).toEqual([{ slot: 'when', ...day }]);
  });

  it('drops an optional part whose value is missing, and refuses a missing required one', () => {
    expect(fill('Text them what you agreed[, {when}].', { when: null })!.text).toBe(
      'Text them what you agreed.',
    );
    expect(fill('Text {who} what you agreed.', {})).toBeNull();
  });

  it('falls back to the first variant that renders', () => {
    expect(firstOf(['Ask {name} first.', 'Ask them first.'], {}).text).toBe('Ask them first.');
  });
});
