import { Download, Loader2, Sparkles } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { CoachingCard } from '@client/features/coaching/coaching-card';
import { recordPractice } from '@client/features/roleplay/recent-practice';
import { TeamCommentsCard } from '@client/features/teams/team-comments';
import { AudioTranscript } from './audio-transcript';
import { SPEAKER_LABELS, type AudioSessionView } from './audio-session';

export interface RecordingResultsProps {
  session: AudioSessionView;
  coachingReady: boolean;
  generating: boolean;
  swapping: boolean;
  onGenerate: () => void;
  onSwap: () => void;
  onSeek: (ms: number) => void;
}

/**
 * A transcribed recording: its transcript, then its coaching and PDF report (or, until the
 * coaching is there, the button that asks for it).
 */
export function RecordingResults({
  session,
  coachingReady,
  generating,
  swapping,
  onGenerate,
  onSwap,
  onSeek,
}: RecordingResultsProps) {
  return (
    <>
      <AudioTranscript
        transcript={session.transcript}
        attributionIsGuess={session.attributionIsGuess}
        attribution={session.attribution}
        swapping={swapping}
        speakersSwapped={session.speakersSwapped}
        sttEngine={session.sttEngine}
        onSeek={onSeek}
        onSwap={onSwap}
      />

      {!coachingReady && (
        <div className="space-y-2">
          <Button size="lg" className="w-full" onClick={onGenerate} disabled={generating}>
            {generating ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <Sparkles aria-hidden="true" />
            )}
            {generating ? 'Generating coaching...' : 'Generate Coaching Feedback'}
          </Button>
          {/* The server coaches every recording by itself; asking only brings it forward. */}
          {session.step === 'coaching' && (
            <p className="text-center text-sm text-slate-600" role="status">
              Your coaching is being written and shows here in a moment.
            </p>
          )}
        </div>
      )}

      {coachingReady && (
        <>
          <CoachingCard
            sessionKind="audio"
            sessionId={session.id}
            transcript={session.transcript}
            otherName={SPEAKER_LABELS.assistant}
            onLoaded={({ overall }) =>
              recordPractice({
                kind: 'audio',
                id: session.id,
                stage: session.stage,
                at: session.uploadedAt,
                overall,
              })
            }
          />
          <TeamCommentsCard kind="audio" sessionId={session.id} />
          <Button
            size="lg"
            variant="outline"
            className="w-full"
            onClick={() =>
              window.open(`/api/audio/${encodeURIComponent(session.id)}/pdf`, '_blank', 'noopener')
            }
          >
            <Download aria-hidden="true" />
            Download PDF Report
          </Button>
        </>
      )}
    </>
  );
}
