/** Voice call state (spec §3/§4): idle -> connecting -> active -> idle, with the error text. */
export interface CallState {
  isCallActive: boolean;
  isConnecting: boolean;
  error: string | null;
}

export type CallAction =
  | { type: 'start' }
  | { type: 'call-start' }
  | { type: 'call-end' }
  | { type: 'error'; message: string }
  | { type: 'clear-error' };

export const initialCallState: CallState = { isCallActive: false, isConnecting: false, error: null };

export const START_FAILED_MESSAGE = 'Failed to start call';
export const VOICE_ERROR_MESSAGE = 'An error occurred with the voice connection';
export const NOT_INITIALIZED_MESSAGE = 'Voice client not initialized';

export function callReducer(state: CallState, action: CallAction): CallState {
  switch (action.type) {
    case 'start':
      // Starting a call clears the previous error.
      return { isCallActive: false, isConnecting: true, error: null };
    case 'call-start':
      return { ...state, isCallActive: true, isConnecting: false };
    case 'call-end':
      return { ...state, isCallActive: false, isConnecting: false };
    case 'error':
      return { isCallActive: false, isConnecting: false, error: action.message };
    case 'clear-error':
      return { ...state, error: null };
  }
}

/** The text shown for a voice error: its own message, else the spec's fallback. */
export function voiceErrorText(error: unknown, fallback: string): string {
  if (typeof error === 'string' && error.trim()) return error;
  if (error instanceof Error && error.message.trim()) return error.message;
  if (error && typeof error === 'object') {
    const e = error as { message?: unknown; error?: unknown };
    if (typeof e.message === 'string' && e.message.trim()) return e.message;
    if (e.error !== undefined && e.error !== error) return voiceErrorText(e.error, fallback);
  }
  return fallback;
}
