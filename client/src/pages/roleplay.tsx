import { useCallback, useEffect, useReducer, useRef } from 'react';
import { useSearch } from 'wouter';
import { MAX_CALL_SEC } from '@core/constants';
import { personaFor } from '@core/stages';
import type { TranscriptEntry } from '@core/transcript';
import { CoachingCard } from '@client/features/coaching/coaching-card';
import { CallCard } from '@client/features/roleplay/call-card';
import { FeedbackForm } from '@client/features/roleplay/feedback-form';
import {
  DEFAULT_STAGE,
  initialRoleplayState,
  roleplayReducer,
  shouldSaveOnEnd,
  type RoleplayAction,
  transcriptSaveBody,
} from '@client/features/roleplay/roleplay-state';
import { ComingSoonPanel, StageSelector } from '@client/features/roleplay/stage-selector';
import { TranscriptCard } from '@client/features/roleplay/transcript-card';
import { apiJson, apiRequest } from '@client/lib/request';
import { useVoiceCall } from '@client/voice';
import { useDocumentTitle } from '@client/lib/use-document-title';

function scrollIntoViewSoon(el: HTMLElement | null) {
  if (!el) return;
  requestAnimationFrame(() => el.scrollIntoView({ behavior: 'smooth', block: 'start' }));
}

export function RoleplayPage() {
  useDocumentTitle('Role-play');
  const search = useSearch();
  const initialStage = new URLSearchParams(search).get('stage') || DEFAULT_STAGE;
  const [state, reactDispatch] = useReducer(roleplayReducer, initialStage, (s: string) =>
    initialRoleplayState(s),
  );
  // Event handlers (call end) need the state as of the last event, not of the last render: a
  // final transcript line and the call end can arrive before React renders in between.
  const stateRef = useRef(state);
  const dispatch = useCallback((action: RoleplayAction) => {
    stateRef.current = roleplayReducer(stateRef.current, action);
    reactDispatch(action);
  }, []);
  const transcriptRef = useRef<HTMLDivElement>(null);
  const coachingRef = useRef<HTMLDivElement>(null);
  const persona = personaFor(state.stage);

  const handleCallEnd = useCallback(async () => {
    const current = stateRef.current;
    if (!shouldSaveOnEnd(current)) return;
    dispatch({ type: 'call-handled' });
    try {
      await apiRequest(
        'PUT',
        `/api/sessions/${encodeURIComponent(current.sessionId!)}/transcript`,
        transcriptSaveBody(current),
      );
    } catch (err) {
      // The coaching section is shown even when saving failed (spec §4).
      console.error('Failed to save transcript', err);
    }
    dispatch({ type: 'show-coaching' });
  }, [dispatch]);

  const call = useVoiceCall({
    onTranscript: (entry: TranscriptEntry) => dispatch({ type: 'transcript', entry }),
    onCallEnd: () => void handleCallEnd(),
  });
  const { isCallActive, isConnecting, stop } = call;

  // One-second timer while active; the call stops itself at the five-minute mark.
  useEffect(() => {
    if (!isCallActive) return;
    const timer = setInterval(() => dispatch({ type: 'tick' }), 1000);
    return () => clearInterval(timer);
  }, [isCallActive, dispatch]);
  useEffect(() => {
    if (isCallActive && state.elapsedSec >= MAX_CALL_SEC) stop();
  }, [isCallActive, state.elapsedSec, stop]);

  const showTranscript = isCallActive || state.transcripts.length > 0;
  useEffect(() => {
    if (showTranscript) scrollIntoViewSoon(transcriptRef.current);
  }, [showTranscript]);
  useEffect(() => {
    if (state.showCoaching) scrollIntoViewSoon(coachingRef.current);
  }, [state.showCoaching]);

  const startCall = async () => {
    if (!persona || isConnecting || isCallActive) return;
    dispatch({ type: 'call-starting' });
    let sessionId: string | null = null;
    try {
      const session = await apiJson<{ id: string }>('POST', '/api/sessions', { stage: persona.stage });
      sessionId = session?.id ?? null;
      if (sessionId) {
        dispatch({ type: 'session-created', id: sessionId });
      }
    } catch (err) {
      console.error('Failed to create session', err);
    }
    await call.start(persona.stage, sessionId);
  };

  const busy = isCallActive || isConnecting;

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          5 min In-field Sales Pitch RolePlay
        </h1>
        <p className="text-slate-600">
          Practise your pitch out loud with a homeowner who pushes back like the real thing, then get coaching
          on what to sharpen.
        </p>
      </header>

      <StageSelector
        stage={state.stage}
        disabled={busy}
        onSelect={(stage) => dispatch({ type: 'select-stage', stage })}
      />

      {persona ? (
        <CallCard
          persona={persona}
          elapsedSec={state.elapsedSec}
          isConnecting={isConnecting}
          isCallActive={isCallActive}
          error={call.error}
          assistantLevel={call.assistantLevel}
          assistantSpeaking={call.assistantSpeaking}
          onStart={() => void startCall()}
          onStop={stop}
        />
      ) : (
        <ComingSoonPanel stage={state.stage} />
      )}

      {showTranscript && persona && (
        <TranscriptCard ref={transcriptRef} transcripts={state.transcripts} personaName={persona.name} />
      )}

      {state.showCoaching && (
        <div ref={coachingRef} className="scroll-mt-20">
          <CoachingCard
            key={`${state.generation}-${state.sessionId}`}
            sessionKind="roleplay"
            sessionId={state.sessionId}
            transcript={state.transcripts}
            otherName={persona?.name ?? 'Homeowner'}
            onLoaded={() => dispatch({ type: 'coaching-loaded' })}
          />
        </div>
      )}

      {state.showCoaching && state.coachingLoaded && (
        <FeedbackForm
          key={state.generation}
          sessionId={state.sessionId}
          onSubmitted={() => {
            dispatch({ type: 'reset' });
            window.scrollTo({ top: 0, behavior: 'smooth' });
          }}
        />
      )}
    </div>
  );
}
