import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '@core/transcript';
import {
  formatClock,
  initialRoleplayState,
  remainingSec,
  roleplayReducer,
  shouldSaveOnEnd,
  transcriptSaveBody,
  type RoleplayState,
} from './roleplay-state';

const final = (role: 'user' | 'assistant', transcript: string): TranscriptEntry => ({
  role,
  transcript,
  timestamp: 1,
  transcriptType: 'final',
});
const partial = (role: 'user' | 'assistant', transcript: string): TranscriptEntry => ({
  role,
  transcript,
  timestamp: 2,
  transcriptType: 'partial',
});

function afterCall(): RoleplayState {
  let s = initialRoleplayState('Windows');
  s = roleplayReducer(s, { type: 'call-starting' });
  s = roleplayReducer(s, { type: 'session-created', id: 'abc' });
  s = roleplayReducer(s, { type: 'transcript', entry: partial('user', 'Hi') });
  s = roleplayReducer(s, { type: 'transcript', entry: final('user', 'Hi there') });
  s = roleplayReducer(s, { type: 'transcript', entry: partial('assistant', 'Hello') });
  for (let i = 0; i < 42; i++) s = roleplayReducer(s, { type: 'tick' });
  return s;
}

describe('roleplayReducer', () => {
  it('keeps finals and replaces a role partial', () => {
    const s = afterCall();
    expect(s.transcripts.map((e) => `${e.role}:${e.transcriptType}:${e.transcript}`)).toEqual([
      'user:final:Hi there',
      'assistant:partial:Hello',
    ]);
  });

  it('saves final entries with the duration as a string of seconds', () => {
    const s = afterCall();
    expect(shouldSaveOnEnd(s)).toBe(true);
    expect(transcriptSaveBody(s)).toEqual({ transcript: [final('user', 'Hi there')], duration: '42' });
  });

  it('does not save twice, without a session, or without final entries', () => {
    const s = afterCall();
    expect(shouldSaveOnEnd(roleplayReducer(s, { type: 'call-handled' }))).toBe(false);
    expect(shouldSaveOnEnd({ ...s, sessionId: null })).toBe(false);
    expect(shouldSaveOnEnd({ ...s, transcripts: [partial('user', 'um')] })).toBe(false);
  });

  it('clears transcripts, coaching and form flags when the stage changes', () => {
    let s = afterCall();
    s = roleplayReducer(s, { type: 'show-coaching' });
    s = roleplayReducer(s, { type: 'coaching-loaded' });
    const next = roleplayReducer(s, { type: 'select-stage', stage: 'HVAC' });
    expect(next).toMatchObject({
      stage: 'HVAC',
      transcripts: [],
      showCoaching: false,
      coachingLoaded: false,
    });
    expect(roleplayReducer(s, { type: 'select-stage', stage: 'Windows' })).toBe(s);
  });

  it('resets the whole page after feedback and remounts its forms', () => {
    let s = afterCall();
    s = roleplayReducer(s, { type: 'show-coaching' });
    const reset = roleplayReducer(s, { type: 'reset' });
    expect(reset).toEqual({ ...initialRoleplayState('General'), generation: s.generation + 1 });
  });

  it('records whether the coaching arrived unlocked, and a new call locks it again', () => {
    let s = afterCall();
    s = roleplayReducer(s, { type: 'show-coaching' });
    s = roleplayReducer(s, { type: 'coaching-loaded', unlocked: false });
    expect(s).toMatchObject({ coachingLoaded: true, unlocked: false });
    s = roleplayReducer(s, { type: 'coaching-loaded', unlocked: true });
    expect(s.unlocked).toBe(true);
    expect(roleplayReducer(s, { type: 'coaching-loaded' })).toBe(s);
    expect(roleplayReducer(s, { type: 'call-starting' }).unlocked).toBe(false);
  });

  it('drops partial lines that never became final when the call ends', () => {
    const ended = roleplayReducer(afterCall(), { type: 'call-ended' });
    expect(ended.transcripts.map((e) => `${e.role}:${e.transcriptType}:${e.transcript}`)).toEqual([
      'user:final:Hi there',
    ]);
  });

  it('reopens a saved session from a link with its transcript and coaching shown', () => {
    const s = roleplayReducer(initialRoleplayState('General'), {
      type: 'restore',
      id: 'saved',
      stage: 'Roofing',
      transcripts: [final('user', 'Hello'), partial('assistant', 'Hm')],
    });
    expect(s).toMatchObject({
      stage: 'Roofing',
      sessionId: 'saved',
      callHandled: true,
      showCoaching: true,
      restored: true,
    });
    expect(s.transcripts).toHaveLength(1);
    // Nothing said: nothing to coach.
    expect(
      roleplayReducer(initialRoleplayState(), { type: 'restore', id: 'x', stage: 'HVAC', transcripts: [] })
        .showCoaching,
    ).toBe(false);
  });

  it('never counts past five minutes', () => {
    let s = initialRoleplayState();
    for (let i = 0; i < 400; i++) s = roleplayReducer(s, { type: 'tick' });
    expect(s.elapsedSec).toBe(300);
    expect(remainingSec(s.elapsedSec)).toBe(0);
  });
});

describe('formatClock', () => {
  it('formats m:ss', () => {
    expect(formatClock(300)).toBe('5:00');
    expect(formatClock(59)).toBe('0:59');
    expect(formatClock(61.9)).toBe('1:01');
  });
});
