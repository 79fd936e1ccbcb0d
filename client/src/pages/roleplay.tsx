import { useCallback, useEffect, useReducer, useRef, useState } from 'react';
import { useSearch } from 'wouter';
import { Info } from 'lucide-react';
import { MAX_CALL_SEC } from '@core/constants';
import { harderStage, isStage, personaFor } from '@core/stages';
import type { TranscriptEntry } from '@core/transcript';
import { CoachingCard } from '@client/features/coaching/coaching-card';
import { CallCard } from '@client/features/roleplay/call-card';
import { ResultsActions } from '@client/features/roleplay/results-actions';
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
import { recordPractice } from '@client/features/roleplay/recent-practice';
import { RecentPracticeCard } from '@client/features/roleplay/recent-practice-card';
import { TeamCommentsCard } from '@client/features/teams/team-comments';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { apiJson, apiRequest, errorMessage } from '@client/lib/request';
import { useVoiceCall, type CallEnd } from '@client/voice';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { setLeaveGuard } from '@client/lib/leave-guard';
import { recordTypedSession, wasTyped } from '@client/features/roleplay/typed-sessions';

/** Keeps the page's address naming the session, so a reload or a shared link reopens it. */
function setSessionInUrl(id: string | null) {
  const url = new URL(window.location.href);
  if (id) url.searchParams.set('session', id);
  else url.searchParams.delete('session');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

function scrollIntoViewSoon(el: HTMLElement | null) {
  if (!el) return;
  requestAnimationFrame(() => el.scrollIntoView({ behavior: 'smooth', block: 'start' }));
}

/** Moves keyboard and screen-reader focus to new content's heading (it has tabIndex -1). */
function focusSoon(id: string) {
  requestAnimationFrame(() => document.getElementById(id)?.focus({ preventScroll: true }));
}

export function RoleplayPage() {
  useDocumentTitle('Role-play');
  const search = useSearch();
  const params = new URLSearchParams(search);
  const initialStage = params.get('stage') || DEFAULT_STAGE;
  const linkedSession = params.get('session');
  const [restoreProblem, setRestoreProblem] = useState<string | null>(null);
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
  const focusCoachingNext = useRef(false);
  const coachingRef = useRef<HTMLDivElement>(null);
  const persona = personaFor(state.stage);

  // /?session=<id>: reopen a saved role-play (after a reload, or from the summary email's link).
  useEffect(() => {
    if (!linkedSession) return;
    let cancelled = false;
    apiJson<{ id: string; stage: string; transcript: TranscriptEntry[] }>(
      'GET',
      `/api/sessions/${encodeURIComponent(linkedSession)}`,
    )
      .then((session) => {
        if (cancelled || !session) return;
        dispatch({
          type: 'restore',
          id: session.id,
          stage: session.stage,
          transcripts: session.transcript ?? [],
        });
        if (!session.transcript?.length)
          setRestoreProblem('That practice call ended before anything was said.');
      })
      .catch((err: unknown) => {
        if (cancelled) return;
        setRestoreProblem(`That practice session could not be opened: ${errorMessage(err)}`);
      });
    return () => {
      cancelled = true;
    };
    // Only the address the page was opened with.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const handleCallEnd = useCallback(
    async ({ savedByServer }: CallEnd) => {
      dispatch({ type: 'call-ended' });
      const current = stateRef.current;
      if (!shouldSaveOnEnd(current)) return;
      dispatch({ type: 'call-handled' });
      // A call through our server was saved (and its coaching queued) by the server when it
      // ended; only a call that ran elsewhere is saved from here.
      if (!savedByServer) {
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
      }
      focusCoachingNext.current = true;
      dispatch({ type: 'show-coaching' });
    },
    [dispatch],
  );

  const call = useVoiceCall({
    onTranscript: (entry: TranscriptEntry) => dispatch({ type: 'transcript', entry }),
    onCallEnd: (end) => void handleCallEnd(end),
  });
  const { isCallActive, isConnecting, stop } = call;
  const [startingInput, setStartingInput] = useState<'audio' | 'text'>('audio');

  // Leaving mid-call ends it: links ask first, and a reload or closed tab gets the browser's prompt.
  useEffect(() => {
    setLeaveGuard(isCallActive || isConnecting);
    return () => setLeaveGuard(false);
  }, [isCallActive, isConnecting]);

  // Focus follows the call: the conversation when a spoken call starts (a typed call's box
  // takes it), and back to Talk when a call ends with nothing to coach.
  const wasActive = useRef(false);
  useEffect(() => {
    if (isCallActive && !wasActive.current) {
      if (!call.typing) focusSoon('live-transcript-title');
      if (call.typing && stateRef.current.sessionId) recordTypedSession(stateRef.current.sessionId);
    }
    if (!isCallActive && wasActive.current && !stateRef.current.showCoaching && !stateRef.current.callHandled)
      requestAnimationFrame(() => document.querySelector<HTMLElement>('[data-testid="start-call"]')?.focus());
    wasActive.current = isCallActive;
  }, [isCallActive, call.typing]);

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
    if (!state.showCoaching) return;
    scrollIntoViewSoon(coachingRef.current);
    // After a call ends (not on a reopened link), focus follows to the coaching's heading.
    if (focusCoachingNext.current) {
      focusCoachingNext.current = false;
      focusSoon('coaching-title');
    }
  }, [state.showCoaching]);

  const startCall = async (input: 'audio' | 'text' = 'audio') => {
    if (!persona || isConnecting || isCallActive) return;
    setStartingInput(input);
    setRestoreProblem(null);
    setSessionInUrl(null);
    dispatch({ type: 'call-starting' });
    let sessionId: string | null = null;
    try {
      const session = await apiJson<{ id: string }>('POST', '/api/sessions', { stage: persona.stage });
      sessionId = session?.id ?? null;
      if (sessionId) {
        dispatch({ type: 'session-created', id: sessionId });
        setSessionInUrl(sessionId);
      }
    } catch (err) {
      console.error('Failed to create session', err);
    }
    await call.start(persona.stage, sessionId, input === 'text' ? { input } : {});
  };

  const busy = isCallActive || isConnecting;

  /** A fresh start on a stage: the last session's transcript and coaching go; the start buttons take focus. */
  const practise = (stage: string) => {
    if (!isStage(stage)) return;
    setRestoreProblem(null);
    setSessionInUrl(null);
    dispatch({ type: 'reset' });
    dispatch({ type: 'select-stage', stage });
    window.scrollTo({ top: 0, behavior: 'smooth' });
    requestAnimationFrame(() => document.getElementById('call-card-title')?.focus({ preventScroll: true }));
  };

  const selectStage = (stage: string) => {
    setRestoreProblem(null);
    if (stateRef.current.sessionId) setSessionInUrl(null);
    dispatch({ type: 'select-stage', stage });
    // On a phone the start buttons sit below the trades: bring the homeowner, the brief and
    // Talk / Type into view, so the next tap starts the call.
    requestAnimationFrame(() => {
      const start = document.querySelector('[data-testid="start-call"]');
      if (start && start.getBoundingClientRect().bottom > window.innerHeight)
        document.getElementById('call-card')?.scrollIntoView({ behavior: 'smooth', block: 'start' });
    });
  };

  return (
    // While a call runs, its controls are fixed to the bottom of the screen: leave room for them.
    <div className={isCallActive ? 'space-y-4 pb-32 sm:space-y-6' : 'space-y-4 sm:space-y-6'}>
      <header className="space-y-1 sm:space-y-2">
        <h1 className="text-xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          5 min In-field Sales Pitch RolePlay
        </h1>
        <p className="hidden text-slate-600 sm:block">
          Practise your pitch out loud with a homeowner who pushes back like the real thing, then get coaching
          on what to sharpen.
        </p>
      </header>

      {restoreProblem && (
        <Alert variant="info">
          <Info aria-hidden="true" />
          <AlertDescription>{restoreProblem}</AlertDescription>
        </Alert>
      )}

      <StageSelector stage={state.stage} disabled={busy} onSelect={selectStage} />

      {persona ? (
        <CallCard
          persona={persona}
          elapsedSec={state.elapsedSec}
          isConnecting={isConnecting}
          isCallActive={isCallActive}
          error={call.error}
          assistantLevel={call.assistantLevel}
          assistantSpeaking={call.assistantSpeaking}
          muted={call.canMute ? call.muted : undefined}
          onMute={call.canMute ? call.setMuted : undefined}
          onStart={() => void startCall()}
          onStartTyping={call.canStartTyping || call.canType ? () => void startCall('text') : undefined}
          onSendText={call.canType ? call.sendText : undefined}
          typing={call.typing}
          startingInput={startingInput}
          onStop={stop}
        />
      ) : (
        <ComingSoonPanel stage={state.stage} />
      )}

      {showTranscript && persona && (
        <TranscriptCard ref={transcriptRef} transcripts={state.transcripts} personaName={persona.name} />
      )}

      {state.showCoaching && (
        <div ref={coachingRef} className="scroll-mt-20 space-y-4">
          <ResultsActions
            key={`${state.generation}-${state.sessionId}`}
            sessionId={state.sessionId}
            stage={state.stage}
            unlocked={state.unlocked}
            onPractiseAgain={() => practise(state.stage)}
            harderStage={harderStage(state.stage)}
            onTryHarder={(stage) => practise(stage)}
          />
          <CoachingCard
            key={`${state.generation}-${state.sessionId}`}
            sessionKind="roleplay"
            sessionId={state.sessionId}
            transcript={state.transcripts}
            otherName={persona?.name ?? 'Homeowner'}
            typed={state.sessionId ? wasTyped(state.sessionId) : false}
            onLoaded={({ overall, unlocked }) => {
              dispatch({ type: 'coaching-loaded', unlocked });
              if (state.sessionId)
                recordPractice({
                  kind: 'roleplay',
                  id: state.sessionId,
                  stage: state.stage,
                  at: new Date().toISOString(),
                  overall,
                });
            }}
          />
          <TeamCommentsCard kind="roleplay" sessionId={state.sessionId} />
        </div>
      )}

      {!busy && <RecentPracticeCard onPractiseAgain={practise} />}
    </div>
  );
}
