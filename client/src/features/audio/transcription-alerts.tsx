import { AlertCircle, RefreshCw, X } from 'lucide-react';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';

function RetryButton({ retrying, onRetry }: { retrying: boolean; onRetry: () => void }) {
  return (
    <Button variant="outline" size="sm" onClick={onRetry} disabled={retrying}>
      <RefreshCw className={retrying ? 'animate-spin' : ''} aria-hidden="true" />
      Retry
    </Button>
  );
}

/** The transcription gave up: its reason, and a retry. */
export function TranscriptionFailed({
  error,
  retrying,
  onRetry,
}: {
  error: string | null;
  retrying: boolean;
  onRetry: () => void;
}) {
  return (
    <Alert variant="destructive">
      <AlertCircle aria-hidden="true" />
      <AlertTitle>Transcription failed</AlertTitle>
      <AlertDescription className="space-y-3">
        <p>{error || 'The recording could not be transcribed.'}</p>
        <RetryButton retrying={retrying} onRetry={onRetry} />
      </AlertDescription>
    </Alert>
  );
}

/** The recording was transcribed, and nobody could be heard in it. */
export function NoSpeechFound() {
  return (
    <Alert variant="info">
      <AlertCircle aria-hidden="true" />
      <AlertTitle>No speech found</AlertTitle>
      <AlertDescription>
        We could not hear any conversation in this recording. Check the file and upload it again.
      </AlertDescription>
    </Alert>
  );
}

/** The progress has not moved for 2 minutes: retry, or give up on this recording. */
export function TranscriptionStalled({
  progress,
  retrying,
  onRetry,
  onCancel,
}: {
  progress: number;
  retrying: boolean;
  onRetry: () => void;
  onCancel: () => void;
}) {
  return (
    <Alert variant="destructive" data-testid="transcription-stalled">
      <AlertCircle aria-hidden="true" />
      <AlertTitle>Transcription is not moving</AlertTitle>
      <AlertDescription className="space-y-3">
        <p>
          There has been no progress for 2 minutes (still at {progress}%). The server may be busy with other
          recordings, or the job may have stopped.
        </p>
        <div className="flex flex-wrap gap-2">
          <RetryButton retrying={retrying} onRetry={onRetry} />
          <Button variant="outline" size="sm" onClick={onCancel}>
            <X aria-hidden="true" />
            Cancel
          </Button>
        </div>
      </AlertDescription>
    </Alert>
  );
}
