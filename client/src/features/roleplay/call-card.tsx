import { useEffect, useRef, useState, type ReactNode, type Ref } from 'react';
import { AlertCircle, Loader2, Mic, MicOff, Square } from 'lucide-react';
import { EARLY_STOP_WARNING_SEC, MAX_CALL_SEC } from '@core/constants';
import { difficultyLabel, PERSONA_BRIEFS, type PersonaCard } from '@core/stages';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@client/components/ui/card';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@client/components/ui/dialog';
import { Progress } from '@client/components/ui/progress';
import { cn } from '@client/lib/utils';
import { CallStatus } from '@client/voice/engines/call-status';
import { DeviceSpeechNotice } from '@client/voice/engines/device-speech-notice';
import { DifficultyBadge } from './stage-selector';
import { formatClock, remainingSec } from './roleplay-state';

export interface CallCardProps {
  persona: PersonaCard;
  elapsedSec: number;
  isConnecting: boolean;
  isCallActive: boolean;
  error: string | null;
  assistantLevel: number;
  assistantSpeaking: boolean;
  /** Whether the rep's microphone is muted; undefined when the engine cannot mute. */
  muted?: boolean;
  onMute?: (muted: boolean) => void;
  onStart: () => void;
  onStop: () => void;
  /** Extra call controls (e.g. typing instead of speaking), shown in the call bar. */
  extraControls?: ReactNode;
}

export function CallCard(props: CallCardProps) {
  const { persona, elapsedSec, isConnecting, isCallActive, error } = props;
  const [confirmOpen, setConfirmOpen] = useState(false);
  const openerRef = useRef<HTMLElement | null>(null);
  const callBarRef = useRef<HTMLDivElement>(null);
  // Between calls the clock shows the full five minutes, also after a dropped call.
  const remaining = isCallActive ? remainingSec(elapsedSec) : MAX_CALL_SEC;
  const brief = PERSONA_BRIEFS[persona.stage];

  // Keyboard and screen-reader users land on the call controls when the call starts.
  useEffect(() => {
    if (isCallActive) callBarRef.current?.focus();
  }, [isCallActive]);

  const requestStop = () => {
    if (elapsedSec < EARLY_STOP_WARNING_SEC) {
      openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setConfirmOpen(true);
    } else props.onStop();
  };

  return (
    <Card role="region" aria-labelledby="call-card-title">
      <CardHeader className="pb-3 sm:pb-4">
        <CardTitle id="call-card-title">Role play conversation</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4 sm:space-y-6">
        <div className="flex items-start gap-3 rounded-lg bg-slate-50 p-3 sm:gap-4 sm:p-4">
          <div
            className="flex size-10 shrink-0 items-center justify-center rounded-full bg-brand-600 text-lg font-bold text-white sm:size-12"
            aria-hidden="true"
          >
            {persona.name.charAt(0)}
          </div>
          <div className="min-w-0 flex-1 space-y-1">
            <div className="flex flex-wrap items-center gap-2">
              <p className="text-base font-semibold text-slate-900">{persona.name}</p>
              <DifficultyBadge difficulty={persona.difficulty} />
              <span className="sr-only">Difficulty {difficultyLabel(persona.difficulty)}</span>
            </div>
            <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
              <dt className="text-slate-500">Buyer type</dt>
              <dd className="font-medium text-slate-800">{persona.buyerType}</dd>
              <dt className="text-slate-500">Focus</dt>
              <dd className="font-medium text-slate-800">{persona.focus}</dd>
            </dl>
          </div>
        </div>

        {!isCallActive && (
          <div className="flex items-center gap-4 sm:flex-col sm:gap-5">
            <Button
              size="lg"
              className="size-16 shrink-0 rounded-full text-base shadow-lg sm:size-24 [&_svg]:size-7 sm:[&_svg]:size-9"
              onClick={() => {
                // A confirmation left open by a call that ended on its own must not come back.
                setConfirmOpen(false);
                props.onStart();
              }}
              disabled={isConnecting}
              aria-label={isConnecting ? 'Connecting' : 'Start call'}
              data-testid="start-call"
            >
              {isConnecting ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Mic aria-hidden="true" />
              )}
            </Button>
            <div className="min-w-0 sm:text-center">
              <p className="text-sm font-medium text-slate-500">
                {isConnecting ? 'Connecting to AI...' : 'Ready to start'}
              </p>
              <p
                className="font-mono text-3xl font-bold tracking-tight text-slate-900 tabular-nums sm:text-5xl"
                aria-live="off"
              >
                {formatClock(remaining)}
              </p>
              <p className="text-xs text-slate-500 sm:text-sm">
                Press the microphone to begin. You have five minutes.
              </p>
            </div>
          </div>
        )}

        {error && (
          <Alert variant="destructive" className="mx-auto max-w-md">
            <AlertCircle aria-hidden="true" />
            <AlertDescription>{error}</AlertDescription>
          </Alert>
        )}

        {!isCallActive && brief && (
          <section aria-label="Your brief" className="rounded-lg border border-slate-200 p-3 text-sm sm:p-4">
            <h3 className="mb-2 font-semibold text-slate-900">Your brief</h3>
            <dl className="space-y-1.5 text-slate-700">
              <div>
                <dt className="inline font-medium text-slate-900">Who you are meeting: </dt>
                <dd className="inline">{brief.homeowner}</dd>
              </div>
              <div>
                <dt className="inline font-medium text-slate-900">What you are selling: </dt>
                <dd className="inline">{brief.selling}</dd>
              </div>
              <div>
                <dt className="inline font-medium text-slate-900">A good outcome: </dt>
                <dd className="inline">{brief.goodOutcome}</dd>
              </div>
            </dl>
          </section>
        )}

        {isCallActive && (
          <>
            <CallBar ref={callBarRef} {...props} remaining={remaining} onRequestStop={requestStop} />
            {/* Level meters and the engines of the live call (they publish their own events). */}
            <div className="flex justify-center">
              <CallStatus personaName={persona.name} />
            </div>
          </>
        )}

        {/* The device engine's questions (a speech-pack download, online recognition) and which speech is in use. */}
        <div className="flex justify-center">
          <DeviceSpeechNotice />
        </div>
      </CardContent>

      <Dialog open={confirmOpen && isCallActive} onOpenChange={setConfirmOpen}>
        <DialogContent
          onCloseAutoFocus={(event) => {
            // Back to the button that opened the dialog (Esc included), not the page body.
            event.preventDefault();
            const opener = openerRef.current;
            if (opener && opener.isConnected) opener.focus();
            else callBarRef.current?.focus();
          }}
        >
          <DialogHeader>
            <DialogTitle>Stop call early?</DialogTitle>
            <DialogDescription>
              Your call is less than 30 seconds. Are you sure you want to stop? You&apos;ll get better
              coaching feedback with a longer conversation.
            </DialogDescription>
          </DialogHeader>
          <DialogFooter>
            <Button variant="outline" onClick={() => setConfirmOpen(false)}>
              Continue Call
            </Button>
            <Button
              variant="destructive"
              onClick={() => {
                setConfirmOpen(false);
                props.onStop();
              }}
            >
              Stop Anyway
            </Button>
          </DialogFooter>
        </DialogContent>
      </Dialog>
    </Card>
  );
}

type CallBarProps = CallCardProps & { remaining: number; onRequestStop: () => void };

/**
 * The controls of a running call, fixed to the bottom of the screen so the countdown, mute
 * and Stop stay in reach while the transcript scrolls (a phone shows little else).
 */
const CallBar = ({
  ref,
  persona,
  elapsedSec,
  remaining,
  assistantLevel,
  assistantSpeaking,
  muted,
  onMute,
  onRequestStop,
  extraControls,
}: CallBarProps & { ref: Ref<HTMLDivElement> }) => {
  const bars = [0.55, 0.85, 1, 0.85, 0.55];
  return (
    <div
      ref={ref}
      tabIndex={-1}
      role="region"
      aria-label="Call controls"
      data-testid="call-bar"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white/95 shadow-[0_-4px_16px_rgba(15,23,42,0.08)] backdrop-blur focus:outline-none"
    >
      <div className="mx-auto flex max-w-5xl items-center gap-3 px-4 py-2.5 sm:gap-5 sm:px-6 sm:py-3">
        <div className="min-w-0 flex-1">
          <div className="flex items-baseline gap-2">
            <span className="text-xs font-medium text-slate-500">Time Remaining</span>
            <span className="font-mono text-xl font-bold text-slate-900 tabular-nums sm:text-2xl">
              {formatClock(remaining)}
            </span>
          </div>
          <Progress className="mt-1" label="Call progress" value={(elapsedSec / MAX_CALL_SEC) * 100} />
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-0.5 text-xs" role="status">
            <span className="flex items-center gap-1.5 font-medium text-red-700">
              <span className="relative flex size-2.5" aria-hidden="true">
                <span className="absolute inline-flex size-full animate-ping rounded-full bg-red-400 opacity-75" />
                <span className="relative inline-flex size-2.5 rounded-full bg-red-600" />
              </span>
              Recording
            </span>
            <span className="flex items-center gap-1.5 text-slate-700">
              <span className="flex h-3 items-end gap-0.5" aria-hidden="true">
                {bars.map((b, i) => (
                  <span
                    key={i}
                    className={cn(
                      'w-0.5 rounded-full transition-[height] duration-100',
                      assistantSpeaking ? 'bg-amber-500' : 'bg-brand-600',
                    )}
                    style={{
                      height: `${Math.max(20, (assistantSpeaking ? assistantLevel : 0.3) * b * 100)}%`,
                    }}
                  />
                ))}
              </span>
              {muted ? 'Muted' : 'Listening'}
            </span>
            {assistantSpeaking && (
              <span className="font-medium text-amber-700">{persona.name} is talking</span>
            )}
          </div>
        </div>
        {extraControls}
        {onMute && (
          <Button
            variant="outline"
            size="icon"
            className="size-11 shrink-0 rounded-full"
            onClick={() => onMute(!muted)}
            aria-pressed={muted ? true : false}
            aria-label={muted ? 'Unmute microphone' : 'Mute microphone'}
          >
            {muted ? <MicOff aria-hidden="true" /> : <Mic aria-hidden="true" />}
          </Button>
        )}
        <Button
          variant="destructive"
          className="size-14 shrink-0 rounded-full shadow-lg [&_svg]:size-6"
          onClick={onRequestStop}
          aria-label="Stop call"
        >
          <Square aria-hidden="true" fill="currentColor" />
        </Button>
      </div>
    </div>
  );
};
