import { describe, expect, it } from 'vitest';
import {
  coachingForGate,
  GATED_SECTIONS,
  isLockedSection,
  LOCKED_SECTION_TEXT,
  parseCoaching,
  withholdGatedSections,
} from './coaching-format';

const full = `**Summary**
A warm call.

**Best: Warm opener**
Score: 9/10
You greeted them by name.

**To Improve: Empathy and Connection**
Score: 8/10
You reflected the worry.

**To Improve: Needs Analysis**
Score: 6/10
Ask how long they stay.

**To Improve: Exploring Options**
Score: 5/10
Offer two options.

**To Improve: Objection Handling**
Score: 3/10
When she compared prices you defended instead of asking.
> What would make you confident?

**To Improve: Closing**
Score: 4/10
You never asked for the appointment.

**Follow-Up**
Score: 7/10
You promised to call on Thursday at nine.
`;

describe('withholding the gated sections', () => {
  it('keeps every heading but only the locked line in the gated three', () => {
    const locked = withholdGatedSections(full)!;
    for (const secret of [
      'defended instead of asking',
      'What would make you confident',
      'never asked',
      'Thursday at nine',
    ])
      expect(locked).not.toContain(secret);
    for (const score of ['3/10', '4/10', '7/10']) expect(locked).not.toContain(score);
    const doc = parseCoaching(locked)!;
    expect(doc.sections.map((s) => s.key)).toEqual(parseCoaching(full)!.sections.map((s) => s.key));
    for (const s of doc.sections) {
      expect(isLockedSection(s)).toBe(GATED_SECTIONS.includes(s.key));
      if (isLockedSection(s)) expect(s.content).toBe(LOCKED_SECTION_TEXT);
    }
    expect(doc.best?.content).toBe('You greeted them by name.');
    expect(doc.sections.find((s) => s.key === 'needsAnalysis')).toMatchObject({ score: 6 });
  });

  it('gives everything once unlocked, and leaves text without sections alone', () => {
    expect(coachingForGate(full, true)).toBe(full);
    expect(coachingForGate(full, false)).not.toBe(full);
    expect(coachingForGate(null, false)).toBeNull();
    expect(withholdGatedSections('just words')).toBe('just words');
  });

  it('does not mistake real coaching for the locked line', () => {
    for (const s of parseCoaching(full)!.sections) expect(isLockedSection(s)).toBe(false);
  });
});
