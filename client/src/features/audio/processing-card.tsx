import { Check, Circle, Loader2 } from 'lucide-react';
import {
  PROCESSING_STEP_LABELS,
  PROCESSING_STEPS,
  timeLeftText,
  type ProcessingStep,
} from '@core/processing';
import { Card, CardContent } from '@client/components/ui/card';
import { Progress } from '@client/components/ui/progress';
import { cn } from '@client/lib/utils';
import type { AudioSessionView } from './audio-session';

/** 14:05, in the rep's own time zone. */
function clockTime(iso: string): string {
  return new Date(iso).toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
}

/** Where each step stands while a recording is processed. */
export function stepStates(
  current: ProcessingStep | null,
): { step: ProcessingStep; state: 'done' | 'current' | 'waiting' }[] {
  const at = current ? PROCESSING_STEPS.indexOf(current) : -1;
  return PROCESSING_STEPS.map((step, i) => ({
    step,
    state: i < at ? 'done' : i === at ? 'current' : 'waiting',
  }));
}

/**
 * The recording while the server transcribes it: the named steps, the share done, the time
 * left, and that the rep need not wait on the page.
 */
export function ProcessingCard({ session }: { session: AudioSessionView | undefined }) {
  const step = session?.step ?? null;
  const waiting = !session || (session.status === 'uploaded' && step === null);
  const left = timeLeftText(session?.estimatedSecondsLeft ?? null);
  return (
    <Card>
      <CardContent className="space-y-4 pt-5 sm:pt-6">
        <p className="flex items-center gap-3 text-slate-700" role="status">
          <Loader2 className="size-5 animate-spin text-brand-600" aria-hidden="true" />
          Transcribing your audio file... This may take a minute.
        </p>
        <Progress value={session?.progress ?? 0} label="Transcription progress" />
        <div className="flex flex-wrap justify-between gap-2 text-sm text-slate-600" aria-live="polite">
          <span data-testid="processing-step">
            {waiting ? 'Waiting for its turn' : step ? PROCESSING_STEP_LABELS[step] : 'Starting'}
          </span>
          <span className="tabular-nums" data-testid="processing-percent">
            {session?.progress ?? 0}%{left ? ` · ${left}` : ''}
          </span>
        </div>
        <ol className="grid gap-1.5 text-sm sm:grid-cols-5" aria-label="Processing steps">
          {stepStates(waiting ? null : step).map(({ step: s, state }) => (
            <li
              key={s}
              data-state={state}
              className={cn(
                'flex items-center gap-1.5',
                state === 'waiting' ? 'text-slate-400' : 'text-slate-700',
                state === 'current' && 'font-semibold',
              )}
            >
              {state === 'done' ? (
                <Check className="size-4 text-emerald-600" aria-hidden="true" />
              ) : state === 'current' ? (
                <Loader2 className="size-4 animate-spin text-brand-600" aria-hidden="true" />
              ) : (
                <Circle className="size-3.5" aria-hidden="true" />
              )}
              {PROCESSING_STEP_LABELS[s]}
              <span className="sr-only">
                {state === 'done' ? ' (done)' : state === 'current' ? ' (under way)' : ''}
              </span>
            </li>
          ))}
        </ol>
        {session?.waitingUntil && (
          <p className="text-sm text-slate-700" data-testid="waiting-until">
            Recordings sent from here in the last hour used up this hour&apos;s transcription time, so this
            one starts at about {clockTime(session.waitingUntil)}.
          </p>
        )}
        <p className="text-sm text-slate-600" data-testid="leave-note">
          You can leave this page: your results will be here when you open this link again.
        </p>
      </CardContent>
    </Card>
  );
}
