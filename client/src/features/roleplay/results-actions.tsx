import { useId, useState, type FormEvent } from 'react';
import { ArrowUpRight, CheckCircle2, Loader2, Mail, RotateCcw } from 'lucide-react';
import { emailField } from '@core/schemas';
import { difficultyLabel, PERSONAS, type Stage } from '@core/stages';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { sendSummary, useSummaryStatus } from '@client/features/leads/summary-email';

/**
 * The top of a role-play's results: what to do next ("Practise again", "Try a harder
 * homeowner") and the summary email: "Sent to x@y · Resend" after the one form under the
 * locked sections, or a short form when the results were already unlocked without it.
 */
export function ResultsActions({
  sessionId,
  unlocked,
  onPractiseAgain,
  harderStage,
  onTryHarder,
}: {
  sessionId: string | null;
  stage: string;
  unlocked: boolean;
  onPractiseAgain: () => void;
  harderStage: Stage | null;
  onTryHarder: (stage: Stage) => void;
}) {
  const harder = harderStage ? PERSONAS[harderStage] : null;
  return (
    <section
      aria-label="Next steps"
      data-testid="results-actions"
      className="space-y-3 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-5"
    >
      <div className="flex flex-wrap gap-2">
        <Button onClick={onPractiseAgain} className="min-h-11">
          <RotateCcw aria-hidden="true" />
          Practise again
        </Button>
        {harder && (
          <Button variant="outline" onClick={() => onTryHarder(harder.stage)} className="min-h-11">
            <ArrowUpRight aria-hidden="true" />
            Try a harder homeowner
            <span className="font-normal text-slate-600">
              ({harder.name}, {difficultyLabel(harder.difficulty)})
            </span>
          </Button>
        )}
      </div>
      <SummaryLine sessionId={sessionId} unlocked={unlocked} />
    </section>
  );
}

function SummaryLine({ sessionId, unlocked }: { sessionId: string | null; unlocked: boolean }) {
  const status = useSummaryStatus(sessionId);
  if (!sessionId) return null;
  if (status) {
    const resend = () => void sendSummary(sessionId, status.email, status.name);
    return (
      <p role="status" className="flex flex-wrap items-center gap-x-2 gap-y-1 text-sm text-slate-700">
        {status.state === 'sending' ? (
          <>
            <Loader2 className="size-4 animate-spin" aria-hidden="true" />
            Sending to {status.email}…
          </>
        ) : status.state === 'sent' ? (
          <>
            <CheckCircle2 className="size-4 text-emerald-700" aria-hidden="true" />
            <span data-testid="summary-sent">Sent to {status.email}</span>
            <span aria-hidden="true">·</span>
            <ResendButton onClick={resend} />
          </>
        ) : (
          <>
            <span className="text-red-700">
              The summary could not be sent to {status.email}: {status.message}
            </span>
            <span aria-hidden="true">·</span>
            <ResendButton onClick={resend} />
          </>
        )}
      </p>
    );
  }
  // Locked: the one form sits with the locked sections below. Unlocked without a summary sent
  // (a reopened session, or the marketing form unlocked it): a short form for it here.
  return unlocked ? <EmailSummaryForm sessionId={sessionId} /> : null;
}

function ResendButton({ onClick }: { onClick: () => void }) {
  return (
    <button
      type="button"
      onClick={onClick}
      className="min-h-11 cursor-pointer rounded-md px-2 font-medium text-brand-700 underline underline-offset-2 hover:bg-brand-50"
    >
      Resend
    </button>
  );
}

function EmailSummaryForm({ sessionId }: { sessionId: string }) {
  const id = useId();
  const [email, setEmail] = useState('');
  const [error, setError] = useState<string | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    const parsed = emailField().safeParse(email);
    if (!parsed.success) {
      setError(parsed.error.issues[0]?.message ?? 'Please enter a valid email address.');
      return;
    }
    setError(null);
    void sendSummary(sessionId, parsed.data, null);
  };
  return (
    <form noValidate onSubmit={submit} aria-label="Email me the summary" className="space-y-1.5">
      <Label htmlFor={`${id}-email`} className="text-sm">
        Email me the summary
      </Label>
      <div className="flex flex-wrap gap-2">
        <Input
          id={`${id}-email`}
          type="email"
          autoComplete="email"
          placeholder="you@example.com"
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? `${id}-error` : undefined}
          className="min-h-11 max-w-xs flex-1"
        />
        <Button type="submit" variant="outline" className="min-h-11">
          <Mail aria-hidden="true" />
          Send
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} className="text-sm text-red-700">
          {error}
        </p>
      )}
    </form>
  );
}
