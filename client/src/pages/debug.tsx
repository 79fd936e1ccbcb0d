import { useQuery } from '@tanstack/react-query';
import { AlertCircle, Loader2 } from 'lucide-react';
import { DEBUG_TRANSCRIPT_DURATION_SEC, debugTranscript } from '@core/debug-transcript';
import { PERSONAS } from '@core/stages';
import type { TranscriptEntry } from '@core/transcript';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Badge } from '@client/components/ui/badge';
import { CoachingCard } from '@client/features/coaching/coaching-card';
import { TranscriptCard } from '@client/features/roleplay/transcript-card';
import { apiJson, apiRequest, errorMessage } from '@client/lib/request';
import { useDocumentTitle } from '@client/lib/use-document-title';

class DebugStepError extends Error {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
  }
}

interface DebugSession {
  id: string;
  transcript: TranscriptEntry[];
}

/** Creates a Windows session through the real API and saves the canned 300-second transcript. */
async function buildDebugSession(): Promise<DebugSession> {
  let id: string;
  try {
    const session = await apiJson<{ id: string }>('POST', '/api/sessions', { stage: 'Windows' });
    id = session.id;
  } catch (err) {
    throw new DebugStepError('Failed to create session', errorMessage(err));
  }
  const transcript = debugTranscript(Date.now() - DEBUG_TRANSCRIPT_DURATION_SEC * 1000);
  try {
    await apiRequest('PUT', `/api/sessions/${encodeURIComponent(id)}/transcript`, {
      transcript,
      duration: String(DEBUG_TRANSCRIPT_DURATION_SEC),
    });
  } catch (err) {
    throw new DebugStepError('Failed to save transcript', errorMessage(err));
  }
  return { id, transcript };
}

export function DebugPage() {
  useDocumentTitle('Sample coaching');
  const query = useQuery({ queryKey: ['debug-session'], queryFn: buildDebugSession, gcTime: 0 });
  const persona = PERSONAS.Windows;

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <div className="flex flex-wrap items-center gap-2">
          <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
            Sample coaching: a Windows call
          </h1>
          <Badge variant="secondary">Windows</Badge>
        </div>
        <p className="text-slate-600">
          This is what coaching looks like: a five-minute practice call with {persona.name}, a homeowner
          weighing new windows, read and scored section by section. Practise your own on the role-play page.
        </p>
      </header>

      {query.isPending && (
        <div role="status" className="flex items-center gap-3 text-slate-600">
          <Loader2 className="size-5 animate-spin text-brand-600" aria-hidden="true" />
          Preparing the sample call...
        </div>
      )}

      {query.isError && (
        <Alert variant="destructive">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>Error: {query.error.message}</AlertTitle>
          {query.error instanceof DebugStepError && query.error.detail && (
            <AlertDescription>{query.error.detail}</AlertDescription>
          )}
        </Alert>
      )}

      {query.data && (
        <>
          <TranscriptCard title="Transcript" transcripts={query.data.transcript} personaName={persona.name} />
          <CoachingCard
            sessionKind="roleplay"
            sessionId={query.data.id}
            transcript={query.data.transcript}
            otherName={persona.name}
          />
        </>
      )}
    </div>
  );
}
