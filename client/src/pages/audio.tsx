import { useEffect, useRef, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertCircle } from 'lucide-react';
import { useSearch } from 'wouter';
import { audioProblemMessage } from '@core/audio-validation';
import { DEFAULT_RETENTION_DAYS, TRANSCRIPTION_STALL_MS } from '@core/constants';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { toast } from '@client/components/ui/use-toast';
import { AudioPlayer, type AudioPlayerHandle } from '@client/features/audio/audio-player';
import {
  audioPollInterval,
  audioSessionKey,
  type AudioSessionView,
} from '@client/features/audio/audio-session';
import { chosenFileProblem } from '@client/features/audio/choose-file';
import { ProcessingCard } from '@client/features/audio/processing-card';
import { RecordingResults } from '@client/features/audio/recording-results';
import {
  NoSpeechFound,
  TranscriptionFailed,
  TranscriptionStalled,
} from '@client/features/audio/transcription-alerts';
import { UPLOAD_FAILED_MESSAGE, uploadAudio, UploadError } from '@client/features/audio/upload';
import { UploadCard } from '@client/features/audio/upload-card';
import { useRecordingActions } from '@client/features/audio/use-recording-actions';
import { errorMessage } from '@client/lib/request';
import { useDocumentTitle } from '@client/lib/use-document-title';

const UPLOAD_STAGE = 'General';

/** Keeps the page's address naming the recording, so a reload or a link reopens it. */
function setSessionInUrl(id: string | null) {
  const url = new URL(window.location.href);
  if (id) url.searchParams.set('session', id);
  else url.searchParams.delete('session');
  window.history.replaceState(window.history.state, '', `${url.pathname}${url.search}${url.hash}`);
}

/**
 * True once a transcription's progress has not moved for TRANSCRIPTION_STALL_MS; `restart`
 * starts the watch again (after Retry).
 */
function useStalled(watching: boolean, progressKey: string): { stalled: boolean; restart: () => void } {
  const [stalled, setStalled] = useState(false);
  const [epoch, setEpoch] = useState(0);
  useEffect(() => {
    setStalled(false);
    if (!watching) return;
    const timer = setTimeout(() => setStalled(true), TRANSCRIPTION_STALL_MS);
    return () => clearTimeout(timer);
  }, [watching, progressKey, epoch]);
  return { stalled, restart: () => setEpoch((n) => n + 1) };
}

export function AudioPage() {
  useDocumentTitle('Call analysis');
  const queryClient = useQueryClient();
  const [file, setFile] = useState<File | null>(null);
  const [uploading, setUploading] = useState(false);
  const [uploadPercent, setUploadPercent] = useState(0);
  // /audio?session=<id> reopens a recording's transcript, coaching and gate state.
  const search = useSearch();
  const [sessionId, setSessionId] = useState<string | null>(
    () => new URLSearchParams(search).get('session') || null,
  );
  const [uploadError, setUploadError] = useState<string | null>(null);
  const [uploadedName, setUploadedName] = useState('');
  const [coachingReady, setCoachingReady] = useState(false);
  const playerRef = useRef<AudioPlayerHandle>(null);

  const session = useQuery<AudioSessionView>({
    queryKey: audioSessionKey(sessionId),
    enabled: sessionId !== null,
    refetchInterval: (query) => audioPollInterval(query.state.data),
  });
  const data = session.data;
  const hasTranscript = !!data && Array.isArray(data.transcript) && data.transcript.length > 0;
  const config = useQuery<{ retentionDays?: number }>({ queryKey: ['/api/config'] });
  const retentionDays =
    typeof config.data?.retentionDays === 'number' && config.data.retentionDays > 0
      ? config.data.retentionDays
      : DEFAULT_RETENTION_DAYS;
  const transcribing =
    sessionId !== null &&
    !!data &&
    !hasTranscript &&
    (data.status === 'uploaded' || data.status === 'transcribing');
  const stall = useStalled(transcribing, `${data?.status}:${data?.progress}`);

  // A reopened recording that was already coached shows its coaching at once.
  useEffect(() => {
    if (data?.coaching) setCoachingReady(true);
  }, [data?.coaching]);

  const chooseFile = async (candidate: File) => {
    const problem = await chosenFileProblem(candidate);
    if (problem) {
      toast({ variant: 'destructive', ...audioProblemMessage(problem) });
      return;
    }
    setFile(candidate);
  };

  const upload = async () => {
    if (!file || uploading) return;
    setUploading(true);
    setUploadPercent(0);
    setUploadError(null);
    try {
      const result = await uploadAudio(file, UPLOAD_STAGE, setUploadPercent).promise;
      setUploadedName(file.name);
      setCoachingReady(false);
      setSessionId(result.sessionId);
      setSessionInUrl(result.sessionId);
      toast({ title: 'Upload successful', description: 'Transcribing audio... This may take a minute.' });
    } catch (err) {
      console.error('Upload failed', err);
      // The server's reason (rate limit with when to retry, size or type limit, offline).
      const description = err instanceof UploadError ? err.message : UPLOAD_FAILED_MESSAGE;
      setUploadError(description);
      toast({ variant: 'destructive', title: 'Upload failed', description });
    } finally {
      setUploading(false);
    }
  };

  const reset = () => {
    if (sessionId) queryClient.removeQueries({ queryKey: audioSessionKey(sessionId) });
    setFile(null);
    setSessionId(null);
    setUploadedName('');
    setUploadPercent(0);
    setCoachingReady(false);
    setUploadError(null);
    setSessionInUrl(null);
  };

  const { retry, swap, generate } = useRecordingActions(sessionId, {
    retried: () => stall.restart(),
    swapped: () => setCoachingReady(false),
    coached: () => setCoachingReady(true),
  });

  return (
    <div className="space-y-6">
      <header className="space-y-2">
        <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
          Audio Coaching Analysis
        </h1>
        <p className="text-slate-600">
          Upload a sales call recording to receive AI-powered coaching feedback
        </p>
      </header>

      {!sessionId ? (
        <UploadCard
          file={file}
          uploading={uploading}
          uploadPercent={uploadPercent}
          uploadError={uploadError}
          retentionDays={retentionDays}
          onFile={(f) => void chooseFile(f)}
          onUpload={() => void upload()}
        />
      ) : (
        <AudioPlayer
          ref={playerRef}
          src={`/api/audio/${encodeURIComponent(sessionId)}/file`}
          fileName={data?.fileName ?? uploadedName}
          onReset={reset}
        />
      )}

      {sessionId && session.isError && (
        <Alert variant="destructive">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>Failed to fetch audio session</AlertTitle>
          <AlertDescription>{errorMessage(session.error)}</AlertDescription>
        </Alert>
      )}

      {sessionId && data?.status === 'failed' && !hasTranscript && (
        <TranscriptionFailed error={data.error} retrying={retry.isPending} onRetry={() => retry.mutate()} />
      )}

      {sessionId && data?.status === 'transcribed' && !hasTranscript && <NoSpeechFound />}

      {transcribing && stall.stalled && (
        <TranscriptionStalled
          progress={data?.progress ?? 0}
          retrying={retry.isPending}
          onRetry={() => retry.mutate()}
          onCancel={reset}
        />
      )}

      {sessionId &&
        !hasTranscript &&
        data?.status !== 'failed' &&
        data?.status !== 'transcribed' &&
        !session.isError && <ProcessingCard session={data} />}

      {sessionId && data && hasTranscript && (
        <RecordingResults
          session={data}
          coachingReady={coachingReady}
          generating={generate.isPending}
          swapping={swap.isPending}
          onGenerate={() => generate.mutate()}
          onSwap={() => swap.mutate(!data.speakersSwapped)}
          onSeek={(ms) => playerRef.current?.seekTo(ms)}
        />
      )}
    </div>
  );
}
