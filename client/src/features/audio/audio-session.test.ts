import { describe, expect, it } from 'vitest';
import { audioPollInterval, entryOffsetMs, formatOffset } from './audio-session';

const entry = { role: 'user' as const, transcript: 'hi', timestamp: 0 };

describe('audioPollInterval', () => {
  it('polls every 2 s until there is a transcript or the job failed', () => {
    expect(audioPollInterval(undefined)).toBe(2000);
    expect(audioPollInterval({ status: 'transcribing', transcript: [], step: 'decoding' })).toBe(2000);
    expect(audioPollInterval({ status: 'transcribed', transcript: [entry], step: null })).toBe(false);
    expect(audioPollInterval({ status: 'failed', transcript: [], step: null })).toBe(false);
    expect(audioPollInterval({ status: 'uploaded', transcript: [], step: null })).toBe(2000);
    // Finished without any speech: nothing more will come.
    expect(audioPollInterval({ status: 'transcribed', transcript: [], step: null })).toBe(false);
  });

  it('keeps polling while the server coaches the transcript, so the coaching shows when stored', () => {
    expect(audioPollInterval({ status: 'transcribed', transcript: [entry], step: 'coaching' })).toBe(2000);
  });
});

describe('entryOffsetMs', () => {
  it('uses small timestamps as offsets into the recording', () => {
    expect(entryOffsetMs({ timestamp: 12_500 }, { timestamp: 0 })).toBe(12_500);
  });
  it('makes wall-clock timestamps relative to the first entry', () => {
    const first = { timestamp: 1_700_000_000_000 };
    expect(entryOffsetMs({ timestamp: 1_700_000_065_000 }, first)).toBe(65_000);
  });
});

describe('formatOffset', () => {
  it('formats m:ss and h:mm:ss', () => {
    expect(formatOffset(65_000)).toBe('1:05');
    expect(formatOffset(3_725_000)).toBe('1:02:05');
  });
});
