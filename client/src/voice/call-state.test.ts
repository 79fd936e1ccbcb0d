import { describe, expect, it } from 'vitest';
import {
  callReducer,
  initialCallState,
  START_FAILED_MESSAGE,
  VOICE_ERROR_MESSAGE,
  voiceErrorText,
} from './call-state';
import { chooseVoiceKind, kindFromEnginePath } from './engine-registry';

describe('callReducer', () => {
  it('goes idle -> connecting -> active -> idle', () => {
    const connecting = callReducer(initialCallState, { type: 'start' });
    expect(connecting).toEqual({ isCallActive: false, isConnecting: true, error: null });
    const active = callReducer(connecting, { type: 'call-start' });
    expect(active).toEqual({ isCallActive: true, isConnecting: false, error: null });
    expect(callReducer(active, { type: 'call-end' })).toEqual(initialCallState);
  });

  it('clears both flags and stores the text on error; a new start clears the error', () => {
    const active = callReducer(callReducer(initialCallState, { type: 'start' }), { type: 'call-start' });
    const failed = callReducer(active, { type: 'error', message: 'boom' });
    expect(failed).toEqual({ isCallActive: false, isConnecting: false, error: 'boom' });
    expect(callReducer(failed, { type: 'call-end' }).error).toBe('boom');
    expect(callReducer(failed, { type: 'start' }).error).toBeNull();
  });
});

describe('voiceErrorText', () => {
  it('uses the error message when there is one', () => {
    expect(voiceErrorText(new Error('Microphone blocked'), START_FAILED_MESSAGE)).toBe('Microphone blocked');
    expect(voiceErrorText({ type: 'x', error: { message: 'Room expired' } }, VOICE_ERROR_MESSAGE)).toBe(
      'Room expired',
    );
    expect(voiceErrorText('No assistant configured for stage: HVAC', START_FAILED_MESSAGE)).toBe(
      'No assistant configured for stage: HVAC',
    );
  });

  it('falls back to the spec texts without a message', () => {
    expect(voiceErrorText(new Error(''), START_FAILED_MESSAGE)).toBe('Failed to start call');
    expect(voiceErrorText({ type: 'daily-error', error: {} }, VOICE_ERROR_MESSAGE)).toBe(
      'An error occurred with the voice connection',
    );
    expect(voiceErrorText(undefined, VOICE_ERROR_MESSAGE)).toBe(VOICE_ERROR_MESSAGE);
  });
});

describe('chooseVoiceKind', () => {
  const none = new Set<string>();
  const local = new Set(['local']);
  it('uses replay when nothing else is available', () => {
    expect(chooseVoiceKind({ requested: null, configured: 'local', registered: none })).toBe('replay');
    expect(chooseVoiceKind({ requested: 'vapi', configured: undefined, registered: none })).toBe('replay');
  });
  it('uses the configured engine when it is part of the build', () => {
    expect(chooseVoiceKind({ requested: null, configured: 'local', registered: local })).toBe('local');
  });
  it('lets ?voice= override the configuration', () => {
    expect(chooseVoiceKind({ requested: 'replay', configured: 'local', registered: local })).toBe('replay');
    expect(chooseVoiceKind({ requested: 'nonsense', configured: 'local', registered: local })).toBe('local');
  });
  it('reads the kind from an engine folder path', () => {
    expect(kindFromEnginePath('./engines/local/index.ts')).toBe('local');
    expect(kindFromEnginePath('./engines/vapi/index.tsx')).toBe('vapi');
    expect(kindFromEnginePath('./engines/local/helper.ts')).toBeNull();
  });
});
