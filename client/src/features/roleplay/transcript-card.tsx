import { forwardRef, useEffect, useRef } from 'react';
import { MessageSquare } from 'lucide-react';
import { balanceMessages, speakingBalance } from '@core/speaking-balance';
import { isFinal, visibleEntries, type TranscriptEntry } from '@core/transcript';
import { Card, CardContent, CardHeader, CardTitle } from '@client/components/ui/card';
import { cn } from '@client/lib/utils';

export interface TranscriptCardProps {
  transcripts: TranscriptEntry[];
  personaName: string;
  /** Speaker labels; defaults to 'You' and the persona's name. */
  labels?: { user: string; assistant: string };
  title?: string;
}

/** The 'Live Transcript' card: finals plus each role's latest partial, in a ~24rem scrolling panel. */
export const TranscriptCard = forwardRef<HTMLDivElement, TranscriptCardProps>(function TranscriptCard(
  { transcripts, personaName, labels, title = 'Live Transcript' },
  ref,
) {
  const panelRef = useRef<HTMLDivElement>(null);
  const shown = visibleEntries(transcripts);
  const userLabel = labels?.user ?? 'You';
  const assistantLabel = labels?.assistant ?? personaName;

  useEffect(() => {
    const panel = panelRef.current;
    if (panel) panel.scrollTop = panel.scrollHeight;
  }, [transcripts]);

  return (
    <Card ref={ref} role="region" aria-labelledby="live-transcript-title" className="scroll-mt-20">
      <CardHeader className="pb-3">
        <CardTitle
          id="live-transcript-title"
          tabIndex={-1}
          className="flex items-center gap-2 focus:outline-none"
        >
          <MessageSquare className="size-5 text-brand-600" aria-hidden="true" />
          {title}
        </CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        <div
          ref={panelRef}
          data-testid="transcript-panel"
          className="h-96 overflow-y-auto rounded-lg border border-slate-200 bg-slate-50 p-3 sm:p-4"
          role="log"
          aria-label="Conversation transcript"
          tabIndex={0}
        >
          {shown.length === 0 ? (
            <p className="flex h-full items-center justify-center text-center text-sm text-slate-500">
              Start speaking to see the conversation transcript...
            </p>
          ) : (
            <ol className="space-y-3">
              {shown.map((entry, i) => {
                const partial = !isFinal(entry);
                const mine = entry.role === 'user';
                return (
                  <li
                    key={`${entry.role}-${entry.timestamp}-${i}`}
                    data-role={entry.role}
                    data-partial={partial ? 'true' : undefined}
                    className={cn('flex', mine ? 'justify-end' : 'justify-start')}
                  >
                    <div
                      className={cn(
                        'max-w-[85%] rounded-2xl border px-4 py-2 text-sm shadow-xs',
                        mine ? 'rounded-br-sm' : 'rounded-bl-sm',
                        // Partial lines are dimmed (lighter, dashed, italic) but keep readable contrast.
                        partial
                          ? mine
                            ? 'border-dashed border-brand-200 bg-brand-50 text-brand-900 italic'
                            : 'border-dashed border-slate-300 bg-slate-100 text-slate-700 italic'
                          : mine
                            ? 'border-brand-600 bg-brand-600 text-white'
                            : 'border-slate-200 bg-white text-slate-800',
                      )}
                    >
                      <p
                        className={cn(
                          'mb-0.5 text-xs font-semibold not-italic',
                          mine ? (partial ? 'text-brand-700' : 'text-brand-100') : 'text-slate-600',
                        )}
                      >
                        {mine ? userLabel : assistantLabel}
                      </p>
                      <p className="leading-relaxed">
                        {entry.transcript}
                        {partial && <TypingIndicator />}
                      </p>
                    </div>
                  </li>
                );
              })}
            </ol>
          )}
        </div>
        {transcripts.length > 0 && <SpeakingBalanceBar transcripts={transcripts} personaName={personaName} />}
      </CardContent>
    </Card>
  );
});

function TypingIndicator() {
  return (
    <span className="ml-1.5 inline-flex items-center gap-0.5 align-middle" aria-label="typing" role="img">
      {[0, 150, 300].map((delay) => (
        <span
          key={delay}
          className="inline-block size-1.5 animate-typing rounded-full bg-current"
          style={{ animationDelay: `${delay}ms` }}
        />
      ))}
    </span>
  );
}

export function SpeakingBalanceBar({
  transcripts,
  personaName,
}: {
  transcripts: TranscriptEntry[];
  personaName: string;
}) {
  const balance = speakingBalance(transcripts);
  const messages = balanceMessages(balance, personaName);
  return (
    <section aria-label="Speaking Balance" data-testid="speaking-balance" className="space-y-2">
      <div className="flex items-center justify-between">
        <h3 className="text-sm font-semibold text-slate-800">Speaking Balance</h3>
      </div>
      <div
        className="flex h-3 w-full overflow-hidden rounded-full bg-slate-200"
        role="img"
        aria-label={`You ${balance.userPercent}%, ${personaName} ${balance.personaPercent}%`}
      >
        <div
          className="h-full bg-brand-600 transition-[width] duration-300"
          style={{ width: `${balance.userPercent}%` }}
        />
        <div
          className="h-full bg-amber-400 transition-[width] duration-300"
          style={{ width: `${balance.personaPercent}%` }}
        />
      </div>
      <div className="flex justify-between text-xs font-medium text-slate-600">
        <span data-testid="balance-user">You {balance.userPercent}%</span>
        <span data-testid="balance-persona">
          {personaName} {balance.personaPercent}%
        </span>
      </div>
      <div
        className={cn(
          'rounded-md px-3 py-2 text-sm',
          balance.goodListening ? 'bg-emerald-50 text-emerald-900' : 'bg-amber-50 text-amber-900',
        )}
      >
        {messages.title && <p className="font-semibold">{messages.title}</p>}
        <p>{messages.text}</p>
      </div>
    </section>
  );
}
