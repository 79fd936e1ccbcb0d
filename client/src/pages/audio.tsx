import { useEffect, useRef, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertCircle, Download, Loader2, RefreshCw, ShieldCheck, Sparkles, Upload, X } from 'lucide-react';
import { useSearch } from 'wouter';
import { audioProblemMessage } from '@core/audio-validation';
import { DEFAULT_RETENTION_DAYS, TRANSCRIPTION_STALL_MS } from '@core/constants';
import { Alert, AlertDescription, AlertTitle } from '@client/components/ui/alert';
import { Button } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { Progress } from '@client/components/ui/progress';
import { toast } from '@client/components/ui/use-toast';
import { AudioPlayer, type AudioPlayerHandle } from '@client/features/audio/audio-player';
import {
  audioPollInterval,
  audioSessionKey,
  SPEAKER_LABELS,
  type AudioSessionView,
} from '@client/features/audio/audio-session';
import { AudioTranscript } from '@client/features/audio/audio-transcript';
import { chosenFileProblem } from '@client/features/audio/choose-file';
import { DropZone } from '@client/features/audio/drop-zone';
import { ProcessingCard } from '@client/features/audio/processing-card';
import { UPLOAD_FAILED_MESSAGE, uploadAudio, UploadError } from '@client/features/audio/upload';
import { recordPractice } from '@client/features/roleplay/recent-practice';
import { coachingQueryKey, requestCoaching } from '@client/features/coaching/coaching-api';
import { CoachingCard } from '@client/features/coaching/coaching-card';
import { apiJson, errorMessage } from '@client/lib/request';
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

  const retry = useMutation({
    mutationFn: () => apiJson<AudioSessionView>('POST', `/api/audio/${encodeURIComponent(sessionId!)}/retry`),
    onSuccess: (updated) => {
      if (updated) queryClient.setQueryData(audioSessionKey(sessionId), updated);
      void queryClient.invalidateQueries({ queryKey: audioSessionKey(sessionId) });
      stall.restart();
    },
    onError: (err) =>
      toast({ variant: 'destructive', title: 'Retry failed', description: errorMessage(err) }),
  });

  const swap = useMutation({
    mutationFn: (swapped: boolean) =>
      apiJson<AudioSessionView>('POST', `/api/audio/${encodeURIComponent(sessionId!)}/swap-speakers`, {
        swapped,
      }),
    onSuccess: (updated) => {
      if (updated) queryClient.setQueryData(audioSessionKey(sessionId), updated);
      // Coaching was written for the old attribution.
      queryClient.removeQueries({ queryKey: coachingQueryKey('audio', sessionId) });
      setCoachingReady(false);
    },
    onError: (err) =>
      toast({ variant: 'destructive', title: 'Could not swap speakers', description: errorMessage(err) }),
  });

  const generate = useMutation({
    mutationFn: () => requestCoaching('audio', sessionId),
    onSuccess: (response) => {
      queryClient.setQueryData(coachingQueryKey('audio', sessionId), response);
      setCoachingReady(true);
      void queryClient.invalidateQueries({ queryKey: audioSessionKey(sessionId) });
    },
    onError: (err) => {
      console.error('Coaching generation failed', err);
      toast({
        variant: 'destructive',
        title: 'Coaching generation failed',
        description: 'Please try again.',
      });
    },
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
        <Card>
          <CardContent className="space-y-4 pt-5 sm:pt-6">
            <DropZone file={file} disabled={uploading} onFile={(f) => void chooseFile(f)} />
            <p className="flex items-start gap-2 text-xs text-slate-600" data-testid="upload-consent">
              <ShieldCheck className="mt-0.5 size-3.5 shrink-0 text-brand-600" aria-hidden="true" />
              <span>
                Only upload a call the customer agreed to have recorded. Recordings are kept for{' '}
                {retentionDays} days, then deleted.
              </span>
            </p>
            {uploadError && (
              <Alert variant="destructive">
                <AlertCircle aria-hidden="true" />
                <AlertTitle>Upload failed</AlertTitle>
                <AlertDescription>{uploadError}</AlertDescription>
              </Alert>
            )}
            {uploading && (
              <div className="space-y-1.5">
                <div className="flex justify-between text-sm text-slate-600">
                  <span>Uploading</span>
                  <span className="tabular-nums">{uploadPercent}%</span>
                </div>
                <Progress value={uploadPercent} label="Upload progress" />
              </div>
            )}
            <Button size="lg" className="w-full" disabled={!file || uploading} onClick={() => void upload()}>
              {uploading ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Upload aria-hidden="true" />
              )}
              {uploading ? 'Uploading & Transcribing...' : 'Upload & Analyze'}
            </Button>
          </CardContent>
        </Card>
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
        <Alert variant="destructive">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>Transcription failed</AlertTitle>
          <AlertDescription className="space-y-3">
            <p>{data.error || 'The recording could not be transcribed.'}</p>
            <Button variant="outline" size="sm" onClick={() => retry.mutate()} disabled={retry.isPending}>
              <RefreshCw className={retry.isPending ? 'animate-spin' : ''} aria-hidden="true" />
              Retry
            </Button>
          </AlertDescription>
        </Alert>
      )}

      {sessionId && data?.status === 'transcribed' && !hasTranscript && (
        <Alert variant="info">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>No speech found</AlertTitle>
          <AlertDescription>
            We could not hear any conversation in this recording. Check the file and upload it again.
          </AlertDescription>
        </Alert>
      )}

      {transcribing && stall.stalled && (
        <Alert variant="destructive" data-testid="transcription-stalled">
          <AlertCircle aria-hidden="true" />
          <AlertTitle>Transcription is not moving</AlertTitle>
          <AlertDescription className="space-y-3">
            <p>
              There has been no progress for 2 minutes (still at {data?.progress ?? 0}%). The server may be
              busy with other recordings, or the job may have stopped.
            </p>
            <div className="flex flex-wrap gap-2">
              <Button variant="outline" size="sm" onClick={() => retry.mutate()} disabled={retry.isPending}>
                <RefreshCw className={retry.isPending ? 'animate-spin' : ''} aria-hidden="true" />
                Retry
              </Button>
              <Button variant="outline" size="sm" onClick={reset}>
                <X aria-hidden="true" />
                Cancel
              </Button>
            </div>
          </AlertDescription>
        </Alert>
      )}

      {sessionId &&
        !hasTranscript &&
        data?.status !== 'failed' &&
        data?.status !== 'transcribed' &&
        !session.isError && <ProcessingCard session={data} />}

      {sessionId && data && hasTranscript && (
        <>
          <AudioTranscript
            transcript={data.transcript}
            attributionIsGuess={data.attributionIsGuess}
            attribution={data.attribution}
            swapping={swap.isPending}
            speakersSwapped={data.speakersSwapped}
            sttEngine={data.sttEngine}
            onSeek={(ms) => playerRef.current?.seekTo(ms)}
            onSwap={() => swap.mutate(!data.speakersSwapped)}
          />

          {!coachingReady && (
            <Button
              size="lg"
              className="w-full"
              onClick={() => generate.mutate()}
              disabled={generate.isPending}
            >
              {generate.isPending || data.step === 'coaching' ? (
                <Loader2 className="animate-spin" aria-hidden="true" />
              ) : (
                <Sparkles aria-hidden="true" />
              )}
              {/* The server coaches every recording by itself; asking only brings it forward. */}
              {generate.isPending || data.step === 'coaching'
                ? 'Generating coaching...'
                : 'Generate Coaching Feedback'}
            </Button>
          )}

          {coachingReady && (
            <>
              <CoachingCard
                sessionKind="audio"
                sessionId={sessionId}
                transcript={data.transcript}
                otherName={SPEAKER_LABELS.assistant}
                onLoaded={({ overall }) =>
                  recordPractice({
                    kind: 'audio',
                    id: sessionId,
                    stage: data.stage,
                    at: data.uploadedAt,
                    overall,
                  })
                }
              />
              <Button
                size="lg"
                variant="outline"
                className="w-full"
                onClick={() =>
                  window.open(`/api/audio/${encodeURIComponent(sessionId)}/pdf`, '_blank', 'noopener')
                }
              >
                <Download aria-hidden="true" />
                Download PDF Report
              </Button>
            </>
          )}
        </>
      )}
    </div>
  );
}
