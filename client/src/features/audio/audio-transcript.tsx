import { ArrowLeftRight, Info, Loader2 } from 'lucide-react';
import type { TranscriptEntry } from '@core/transcript';
import { Button } from '@client/components/ui/button';
import { Card, CardContent, CardHeader, CardTitle } from '@client/components/ui/card';
import type { ServedBy } from '@core/engines';
import { cn } from '@client/lib/utils';
import { entryOffsetMs, formatOffset, SPEAKER_LABELS } from './audio-session';

export interface AudioTranscriptProps {
  transcript: TranscriptEntry[];
  attributionIsGuess: boolean;
  /** How speakers were told apart: 'single' when only one voice could be made out. */
  attribution?: 'stereo' | 'turns' | 'single' | null;
  swapping: boolean;
  /** Whether the rep turned the speakers round: the notes describe the lines as they are now. */
  speakersSwapped?: boolean;
  sttEngine: ServedBy | null;
  onSeek: (ms: number) => void;
  onSwap: () => void;
}

export function AudioTranscript({
  transcript,
  attributionIsGuess,
  attribution,
  swapping,
  speakersSwapped = false,
  sttEngine,
  onSeek,
  onSwap,
}: AudioTranscriptProps) {
  const first = transcript[0];
  const { user, assistant } = SPEAKER_LABELS;
  const shownAs = speakersSwapped ? assistant : user;
  const otherSide = speakersSwapped ? user : assistant;
  return (
    <Card role="region" aria-labelledby="audio-transcript-title">
      <CardHeader className="pb-3">
        <div className="flex flex-wrap items-center justify-between gap-3">
          <CardTitle id="audio-transcript-title">Transcript</CardTitle>
          <Button variant="outline" size="sm" onClick={onSwap} disabled={swapping}>
            {swapping ? (
              <Loader2 className="animate-spin" aria-hidden="true" />
            ) : (
              <ArrowLeftRight aria-hidden="true" />
            )}
            Swap speakers
          </Button>
        </div>
        {attributionIsGuess && (
          <p className="flex items-start gap-2 text-xs text-slate-600">
            <Info className="mt-0.5 size-3.5 shrink-0" aria-hidden="true" />
            {attribution === 'single'
              ? `Only one voice could be made out in this recording, so every line is shown as ${shownAs}. If it was ${otherSide === user ? 'you' : 'the customer'} speaking, use Swap speakers.`
              : speakersSwapped
                ? `Who said what was worked out from turn-taking, and you swapped the speakers round. If ${user} and ${assistant} still look the wrong way round, use Swap speakers again.`
                : `Who said what was worked out from turn-taking. If ${user} and ${assistant} look the wrong way round, use Swap speakers.`}
          </p>
        )}
      </CardHeader>
      <CardContent className="space-y-3">
        <ol
          className="h-96 space-y-1 overflow-y-auto rounded-lg border border-slate-200 bg-slate-50 p-2"
          aria-label="Transcript lines"
        >
          {transcript.map((entry, i) => {
            const offset = entryOffsetMs(entry, first);
            const rep = entry.role === 'user';
            return (
              <li key={i}>
                <button
                  type="button"
                  onClick={() => onSeek(offset)}
                  className="flex w-full cursor-pointer gap-3 rounded-md px-2 py-2 text-left text-sm hover:bg-white focus-visible:bg-white"
                >
                  {/* The name is the visible text with "Play from" before it, so voice control can say what it sees. */}
                  <span className="w-12 shrink-0 pt-0.5 font-mono text-xs text-slate-600 tabular-nums">
                    <span className="sr-only">Play from </span>
                    {formatOffset(offset)}
                  </span>
                  <span className="min-w-0 flex-1">
                    <span
                      className={cn('mr-2 text-xs font-semibold', rep ? 'text-brand-700' : 'text-amber-700')}
                    >
                      {rep ? SPEAKER_LABELS.user : SPEAKER_LABELS.assistant}
                    </span>
                    <span className="text-slate-800">{entry.transcript}</span>
                  </span>
                </button>
              </li>
            );
          })}
        </ol>
        {sttEngine?.quality === 'basic' && (
          <p className="text-sm text-slate-600" data-testid="stt-quality">
            Transcript may be approximate
          </p>
        )}
      </CardContent>
    </Card>
  );
}
