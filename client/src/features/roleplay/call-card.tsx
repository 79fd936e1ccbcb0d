import { useRef, useState, type ReactNode } from 'react';
import { AlertCircle, Keyboard, Loader2, Mic, MicOff, Square } from 'lucide-react';
import { EARLY_STOP_WARNING_SEC, MAX_CALL_SEC } from '@core/constants';
import { PERSONA_BRIEFS, type PersonaBrief, type PersonaCard } from '@core/stages';
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
import { TypeInstead } from './type-instead';
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
  /** Sends a typed turn; present when the engine takes typed turns ("Type instead"). */
  onSendText?: (text: string) => void;
  /**
   * Starts a call without the microphone, turns typed: offered beside "Talk" when this server's
   * engine takes typed turns, and again after a microphone error.
   */
  onStartTyping?: () => void;
  /** The running call was started for typing. */
  typing?: boolean;
  /** Which start button was pressed, while connecting (its button shows the spinner). */
  startingInput?: 'audio' | 'text';
  /** Extra call controls, shown in the call bar. */
  extraControls?: ReactNode;
}

/** Microphone problems (refused, missing, busy) can be worked around by typing. */
const MICROPHONE_PROBLEM = /microphone/i;

export function CallCard(props: CallCardProps) {
  const { persona, elapsedSec, isConnecting, isCallActive, error } = props;
  const [confirmOpen, setConfirmOpen] = useState(false);
  const openerRef = useRef<HTMLElement | null>(null);
  // Between calls the clock shows the full five minutes, also after a dropped call.
  const remaining = isCallActive ? remainingSec(elapsedSec) : MAX_CALL_SEC;
  const brief = PERSONA_BRIEFS[persona.stage];

  const requestStop = () => {
    if (elapsedSec < EARLY_STOP_WARNING_SEC) {
      openerRef.current = document.activeElement instanceof HTMLElement ? document.activeElement : null;
      setConfirmOpen(true);
    } else props.onStop();
  };

  return (
    <Card id="call-card" role="region" aria-labelledby="call-card-title" className="scroll-mt-16">
      <CardHeader className="pb-3 sm:pb-4">
        <CardTitle id="call-card-title" tabIndex={-1} className="focus:outline-none">
          Role play conversation
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4 sm:space-y-6">
        {/* Who and what first, then how to start: side by side on wider screens, the brief above Start on phones. */}
        <div
          className={cn(
            'space-y-4 sm:space-y-6',
            !isCallActive && 'md:grid md:grid-cols-[3fr_2fr] md:items-center md:gap-6 md:space-y-0',
          )}
        >
          <div className="space-y-4">
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
                </div>
                <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-sm">
                  <dt className="text-slate-500">Buyer type</dt>
                  <dd className="font-medium text-slate-800">{persona.buyerType}</dd>
                  <dt className="text-slate-500">Focus</dt>
                  <dd className="font-medium text-slate-800">{persona.focus}</dd>
                </dl>
              </div>
            </div>
            {!isCallActive && brief && <PersonaBriefView brief={brief} />}
          </div>
          {!isCallActive && (
            <div className="space-y-3" role="group" aria-labelledby="start-call-label">
              <p id="start-call-label" className="text-center text-sm font-medium text-slate-700">
                {isConnecting ? 'Connecting to AI...' : 'Ready to start'}
                <span className="text-slate-500"> · </span>
                <span className="font-mono text-slate-900 tabular-nums" aria-live="off">
                  {formatClock(remaining)}
                </span>
              </p>
              <div className="flex items-stretch justify-center gap-3 sm:gap-4">
                <StartButton
                  label="Talk"
                  icon={<Mic aria-hidden="true" />}
                  busy={isConnecting && props.startingInput !== 'text'}
                  disabled={isConnecting}
                  onClick={() => {
                    // A confirmation left open by a call that ended on its own must not come back.
                    setConfirmOpen(false);
                    props.onStart();
                  }}
                  testId="start-call"
                />
                {props.onStartTyping && (
                  <StartButton
                    label="Type"
                    variant="outline"
                    icon={<Keyboard aria-hidden="true" />}
                    busy={isConnecting && props.startingInput === 'text'}
                    disabled={isConnecting}
                    onClick={() => {
                      setConfirmOpen(false);
                      props.onStartTyping?.();
                    }}
                    testId="start-typing"
                  />
                )}
              </div>
              <p className="text-center text-sm text-slate-600">
                {props.onStartTyping
                  ? 'Talk out loud, or type if you can’t speak right now. You have five minutes.'
                  : 'Talk out loud with the homeowner. You have five minutes.'}
              </p>
            </div>
          )}
        </div>

        {error && (
          <Alert variant="destructive" className="mx-auto max-w-md">
            <AlertCircle aria-hidden="true" />
            <AlertDescription className="space-y-2">
              <p>{error}</p>
              {!isCallActive && !isConnecting && props.onStartTyping && MICROPHONE_PROBLEM.test(error) && (
                <Button variant="outline" size="sm" onClick={props.onStartTyping}>
                  <Keyboard aria-hidden="true" />
                  Practise by typing instead
                </Button>
              )}
            </AlertDescription>
          </Alert>
        )}

        {isCallActive && (
          <>
            <CallBar {...props} remaining={remaining} onRequestStop={requestStop} />
            {/* A spoken call: the level meters and one plain quality line. A typed call is a chat. */}
            {!props.typing && (
              <div className="flex justify-center">
                <CallStatus personaName={persona.name} />
              </div>
            )}
          </>
        )}

        {/* Which speech is in use, and between calls the device's offers (a speech-pack download, online recognition). */}
        {!props.typing && (
          <div className="flex justify-center">
            <DeviceSpeechNotice idle={!isCallActive && !isConnecting} />
          </div>
        )}
      </CardContent>

      <Dialog open={confirmOpen && isCallActive} onOpenChange={setConfirmOpen}>
        <DialogContent
          onCloseAutoFocus={(event) => {
            // Back to the button that opened the dialog (Esc included), not the page body.
            event.preventDefault();
            const opener = openerRef.current;
            if (opener && opener.isConnected) opener.focus();
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
  persona,
  elapsedSec,
  remaining,
  assistantLevel,
  assistantSpeaking,
  muted,
  onMute,
  onRequestStop,
  extraControls,
  onSendText,
  typing,
}: CallBarProps) => {
  const bars = [0.55, 0.85, 1, 0.85, 0.55];
  const [typeOpen, setTypeOpen] = useState(Boolean(typing));
  const showTyping = Boolean(onSendText) && (typeOpen || Boolean(typing));
  return (
    <div
      role="region"
      aria-label="Call controls"
      data-testid="call-bar"
      className="fixed inset-x-0 bottom-0 z-40 border-t border-slate-200 bg-white/95 shadow-[0_-4px_16px_rgba(15,23,42,0.08)] backdrop-blur focus:outline-none"
    >
      {showTyping && onSendText && (
        <div className="mx-auto max-w-5xl px-4 pt-2.5 sm:px-6">
          <TypeInstead onSend={onSendText} autoFocus={typeOpen} />
        </div>
      )}
      <div className="mx-auto flex max-w-5xl items-center gap-3 px-4 py-2.5 sm:gap-5 sm:px-6 sm:py-3">
        <div className="min-w-0 flex-1">
          <div className="flex items-baseline gap-2">
            <span className="text-sm font-medium text-slate-600">Time Remaining</span>
            <span className="font-mono text-xl font-bold text-slate-900 tabular-nums sm:text-2xl">
              {formatClock(remaining)}
            </span>
          </div>
          <Progress className="mt-1" label="Call progress" value={(elapsedSec / MAX_CALL_SEC) * 100} />
          <div className="mt-1 flex flex-wrap items-center gap-x-3 gap-y-0.5 text-sm" role="status">
            {typing ? (
              // A typed call records nothing and hears nothing: no recording dot, no meter.
              <span
                className="flex items-center gap-1.5 font-medium text-slate-700"
                data-testid="typing-status"
              >
                <Keyboard className="size-3.5" aria-hidden="true" />
                Typing
              </span>
            ) : (
              <>
                <span
                  className="flex items-center gap-1.5 font-medium text-red-700"
                  data-testid="recording-status"
                >
                  <span className="relative flex size-2.5" aria-hidden="true">
                    <span className="absolute inline-flex size-full animate-ping rounded-full bg-red-400 opacity-75" />
                    <span className="relative inline-flex size-2.5 rounded-full bg-red-600" />
                  </span>
                  Recording
                </span>
                <span className="flex items-center gap-1.5 text-slate-700">
                  <span className="flex h-3 items-end gap-0.5" aria-hidden="true" data-testid="mic-meter">
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
              </>
            )}
            {assistantSpeaking && (
              <span className="font-medium text-amber-700">{persona.name} is talking</span>
            )}
          </div>
        </div>
        {extraControls}
        {onSendText && !typing && (
          <Button
            variant="outline"
            size="icon"
            className="size-11 shrink-0 rounded-full"
            onClick={() => setTypeOpen((open) => !open)}
            aria-pressed={typeOpen}
            aria-label="Type instead"
          >
            <Keyboard aria-hidden="true" />
          </Button>
        )}
        {onMute && !typing && (
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

function StartButton({
  label,
  icon,
  busy,
  disabled,
  onClick,
  variant = 'default',
  testId,
}: {
  label: string;
  icon: ReactNode;
  busy: boolean;
  disabled: boolean;
  onClick: () => void;
  variant?: 'default' | 'outline';
  testId: string;
}) {
  return (
    <Button
      size="lg"
      variant={variant}
      className="h-auto min-h-20 w-32 flex-col gap-1.5 rounded-2xl py-3 text-base shadow-md sm:min-h-24 sm:w-40 [&_svg]:size-7"
      onClick={onClick}
      disabled={disabled}
      aria-busy={busy || undefined}
      data-testid={testId}
    >
      {busy ? <Loader2 className="animate-spin" aria-hidden="true" /> : icon}
      {label}
    </Button>
  );
}

/** What the rep reads before the call, above the start buttons so it is read first. */
function PersonaBriefView({ brief }: { brief: PersonaBrief }) {
  return (
    <section aria-labelledby="brief-title" className="rounded-lg border border-slate-200 p-3 text-sm sm:p-4">
      <h3 id="brief-title" className="mb-2 font-semibold text-slate-900">
        Your brief
      </h3>
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
  );
}
