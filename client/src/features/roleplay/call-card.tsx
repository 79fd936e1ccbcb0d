import { useState } from 'react';
import { AlertCircle, Loader2, Mic, Square } from 'lucide-react';
import { EARLY_STOP_WARNING_SEC, MAX_CALL_SEC } from '@core/constants';
import { difficultyLabel, type PersonaCard } from '@core/stages';
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
  onStart: () => void;
  onStop: () => void;
}

export function CallCard(props: CallCardProps) {
  const { persona, elapsedSec, isConnecting, isCallActive, error } = props;
  const [confirmOpen, setConfirmOpen] = useState(false);
  const remaining = remainingSec(elapsedSec);

  const requestStop = () => {
    if (elapsedSec < EARLY_STOP_WARNING_SEC) setConfirmOpen(true);
    else props.onStop();
  };

  return (
    <Card role="region" aria-labelledby="call-card-title">
      <CardHeader className="pb-4">
        <CardTitle id="call-card-title">Role play conversation</CardTitle>
      </CardHeader>
      <CardContent className="space-y-6">
        <div className="flex items-start gap-4 rounded-lg bg-slate-50 p-4">
          <div
            className="flex size-12 shrink-0 items-center justify-center rounded-full bg-brand-600 text-lg font-bold text-white"
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
            <dl className="grid gap-x-4 gap-y-1 text-sm sm:grid-cols-[auto_1fr]">
              <dt className="text-slate-500">Buyer type</dt>
              <dd className="font-medium text-slate-800">{persona.buyerType}</dd>
              <dt className="text-slate-500">Focus</dt>
              <dd className="font-medium text-slate-800">{persona.focus}</dd>
            </dl>
          </div>
        </div>

        <div className="flex flex-col items-center gap-5">
          <div className="w-full max-w-sm text-center">
            <p className="text-sm font-medium text-slate-500">
              {isCallActive ? 'Time Remaining' : isConnecting ? 'Connecting to AI...' : 'Ready to start'}
            </p>
            <p
              className="font-mono text-5xl font-bold tracking-tight text-slate-900 tabular-nums"
              aria-live="off"
            >
              {formatClock(remaining)}
            </p>
            {isCallActive && (
              <Progress className="mt-3" label="Call progress" value={(elapsedSec / MAX_CALL_SEC) * 100} />
            )}
          </div>

          {error && (
            <Alert variant="destructive" className="max-w-md">
              <AlertCircle aria-hidden="true" />
              <AlertDescription>{error}</AlertDescription>
            </Alert>
          )}

          {isCallActive ? (
            <Button
              size="lg"
              variant="destructive"
              className="size-24 rounded-full text-base shadow-lg [&_svg]:size-8"
              onClick={requestStop}
              aria-label="Stop call"
            >
              <Square aria-hidden="true" fill="currentColor" />
            </Button>
          ) : (
            <Button
              size="lg"
              className="size-24 rounded-full text-base shadow-lg [&_svg]:size-9"
              onClick={() => {
                // A confirmation left open by a call that ended on its own must not come back.
                setConfirmOpen(false);
                props.onStart();
              }}
              disabled={isConnecting}
              aria-label={isConnecting ? 'Connecting' : 'Start call'}
            >
              {isConnecting ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Mic aria-hidden="true" />
              )}
            </Button>
          )}

          <RecordingIndicator {...props} />
          {/* Level meters and engine notices of the live engines (they publish their own events). */}
          <CallStatus personaName={persona.name} />
          <DeviceSpeechNotice />
        </div>
      </CardContent>

      <Dialog open={confirmOpen && isCallActive} onOpenChange={setConfirmOpen}>
        <DialogContent>
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

function RecordingIndicator({ isCallActive, persona, assistantLevel, assistantSpeaking }: CallCardProps) {
  if (!isCallActive) {
    return <p className="text-sm text-slate-500">Press the microphone to begin. You have five minutes.</p>;
  }
  const bars = [0.55, 0.85, 1, 0.85, 0.55];
  return (
    <div className="flex flex-wrap items-center justify-center gap-x-5 gap-y-2 text-sm" role="status">
      <span className="flex items-center gap-2 font-medium text-red-700">
        <span className="relative flex size-3" aria-hidden="true">
          <span className="absolute inline-flex size-full animate-ping rounded-full bg-red-400 opacity-75" />
          <span className="relative inline-flex size-3 rounded-full bg-red-600" />
        </span>
        Recording
      </span>
      <span className="flex items-center gap-2 text-slate-700">
        <span className="flex h-4 items-end gap-0.5" aria-hidden="true">
          {bars.map((b, i) => (
            <span
              key={i}
              className={cn(
                'w-1 rounded-full transition-[height] duration-100',
                assistantSpeaking ? 'bg-amber-500' : 'bg-brand-600',
              )}
              style={{ height: `${Math.max(20, (assistantSpeaking ? assistantLevel : 0.3) * b * 100)}%` }}
            />
          ))}
        </span>
        Listening
      </span>
      {assistantSpeaking && (
        <span className="text-xs font-medium text-amber-700">{persona.name} is talking</span>
      )}
    </div>
  );
}
