import { describe, expect, it } from 'vitest';
import { DEBUG_TRANSCRIPT_DURATION_SEC, debugTranscript } from './debug-transcript';
import { saveTranscriptSchema } from './schemas';
import { speakingBalance } from './speaking-balance';

describe('debugTranscript', () => {
  const start = 1_700_000_000_000;
  const entries = debugTranscript(start);

  it('is a valid transcript save body spanning the five minutes', () => {
    expect(() =>
      saveTranscriptSchema.parse({ transcript: entries, duration: String(DEBUG_TRANSCRIPT_DURATION_SEC) }),
    ).not.toThrow();
    expect(entries[0].timestamp).toBe(start);
    const last = entries[entries.length - 1].timestamp - start;
    expect(last).toBeGreaterThan(280_000);
    expect(last).toBeLessThan(DEBUG_TRANSCRIPT_DURATION_SEC * 1000);
  });

  it('alternates speakers in time order, with both sides talking', () => {
    for (let i = 1; i < entries.length; i++) {
      expect(entries[i].timestamp).toBeGreaterThan(entries[i - 1].timestamp);
      expect(entries[i].role).not.toBe(entries[i - 1].role);
    }
    const b = speakingBalance(entries);
    expect(b.userWords).toBeGreaterThan(300);
    expect(b.personaWords).toBeGreaterThan(300);
  });
});
