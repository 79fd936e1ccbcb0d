import { MAX_CALL_SEC } from '@core/constants';
import { applyTranscriptEntry, finalEntries, type TranscriptEntry } from '@core/transcript';

/** The role-play page's own state (spec §4); the call flags live in the voice hook. */
export interface RoleplayState {
  stage: string;
  sessionId: string | null;
  transcripts: TranscriptEntry[];
  elapsedSec: number;
  /** The call end was already handled (saved or skipped); later ends are ignored. */
  callHandled: boolean;
  showCoaching: boolean;
  coachingLoaded: boolean;
  /** Bumped on every reset so forms and cards remount empty. */
  generation: number;
  /** The session's full coaching is unlocked (the server has an email for it). */
  unlocked: boolean;
  /** Opened from a link (?session=): the saved session's state, not a call on this page. */
  restored: boolean;
}

export const DEFAULT_STAGE = 'General';

export type RoleplayAction =
  | { type: 'select-stage'; stage: string }
  | { type: 'call-starting' }
  | { type: 'session-created'; id: string }
  | { type: 'transcript'; entry: TranscriptEntry }
  | { type: 'tick' }
  | { type: 'call-handled' }
  /** The call is over: partial lines that never became final disappear (the saved transcript has none). */
  | { type: 'call-ended' }
  | { type: 'restore'; id: string; stage: string; transcripts: TranscriptEntry[] }
  | { type: 'show-coaching' }
  | { type: 'coaching-loaded'; unlocked?: boolean }
  | { type: 'reset' };

export function initialRoleplayState(stage: string = DEFAULT_STAGE, generation = 0): RoleplayState {
  return {
    stage,
    sessionId: null,
    transcripts: [],
    elapsedSec: 0,
    callHandled: false,
    showCoaching: false,
    coachingLoaded: false,
    generation,
    unlocked: false,
    restored: false,
  };
}

export function roleplayReducer(state: RoleplayState, action: RoleplayAction): RoleplayState {
  switch (action.type) {
    case 'select-stage':
      if (action.stage === state.stage) return state;
      // A new stage clears transcripts, the coaching and the form flags.
      return {
        ...state,
        stage: action.stage,
        sessionId: null,
        transcripts: [],
        elapsedSec: 0,
        showCoaching: false,
        coachingLoaded: false,
        unlocked: false,
        callHandled: false,
      };
    case 'call-starting':
      return {
        ...state,
        restored: false,
        sessionId: null,
        transcripts: [],
        elapsedSec: 0,
        callHandled: false,
        showCoaching: false,
        coachingLoaded: false,
        unlocked: false,
      };
    case 'session-created':
      return { ...state, sessionId: action.id };
    case 'transcript':
      return { ...state, transcripts: applyTranscriptEntry(state.transcripts, action.entry) };
    case 'tick':
      return { ...state, elapsedSec: Math.min(MAX_CALL_SEC, state.elapsedSec + 1) };
    case 'call-handled':
      return { ...state, callHandled: true };
    case 'call-ended': {
      const finals = finalEntries(state.transcripts);
      return finals.length === state.transcripts.length ? state : { ...state, transcripts: finals };
    }
    case 'restore':
      return {
        ...initialRoleplayState(action.stage, state.generation + 1),
        sessionId: action.id,
        transcripts: finalEntries(action.transcripts),
        callHandled: true,
        showCoaching: finalEntries(action.transcripts).length > 0,
        restored: true,
      };
    case 'show-coaching':
      return { ...state, showCoaching: true };
    case 'coaching-loaded': {
      const unlocked = action.unlocked ?? state.unlocked;
      return state.coachingLoaded && state.unlocked === unlocked
        ? state
        : { ...state, coachingLoaded: true, unlocked };
    }
    case 'reset':
      // After feedback is submitted: stage, elapsed time, transcripts and session are cleared.
      return initialRoleplayState(DEFAULT_STAGE, state.generation + 1);
  }
}

/** Whether a call end should save the transcript and show coaching (spec §4). */
export function shouldSaveOnEnd(
  state: Pick<RoleplayState, 'callHandled' | 'sessionId' | 'transcripts'>,
): boolean {
  return !state.callHandled && state.sessionId !== null && finalEntries(state.transcripts).length > 0;
}

/** The PUT /api/sessions/:id/transcript body: final entries and the duration as a string of seconds. */
export function transcriptSaveBody(state: Pick<RoleplayState, 'transcripts' | 'elapsedSec'>) {
  return {
    transcript: finalEntries(state.transcripts),
    duration: String(Math.max(0, Math.floor(state.elapsedSec))),
  };
}

/** m:ss */
export function formatClock(totalSec: number): string {
  const s = Math.max(0, Math.floor(totalSec));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`;
}

export function remainingSec(elapsedSec: number): number {
  return Math.max(0, MAX_CALL_SEC - elapsedSec);
}
