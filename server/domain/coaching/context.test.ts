import { describe, expect, it } from 'vitest';
import { recordingContext, rolePlayContext } from './context';

const engine = (capability: string, quality: 'basic' | 'enhanced') => ({
  capability,
  engine: capability,
  label: capability,
  quality,
});

describe('what the coach is told about a call', () => {
  it('reads a role-play with no recogniser as typed', () => {
    expect(rolePlayContext([engine('homeowner', 'basic')])).toEqual({ source: 'roleplay', input: 'typed' });
  });
  it('reads the live recogniser quality of a spoken role-play', () => {
    expect(rolePlayContext([engine('live-speech-to-text', 'basic'), engine('homeowner', 'basic')])).toEqual({
      source: 'roleplay',
      input: 'speech',
      recognition: 'basic',
    });
  });
  it('knows nothing more of a call saved without engines', () => {
    expect(rolePlayContext(null)).toEqual({ source: 'roleplay' });
    expect(rolePlayContext('nonsense')).toEqual({ source: 'roleplay' });
  });
  it('reads a recording as a real call with its recogniser quality', () => {
    expect(recordingContext(JSON.stringify({ id: 'x', label: 'X', quality: 'enhanced' }))).toEqual({
      source: 'recording',
      input: 'speech',
      recognition: 'enhanced',
    });
    expect(recordingContext(null)).toEqual({ source: 'recording', input: 'speech' });
  });
});
