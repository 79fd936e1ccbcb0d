import { forwardRef, useEffect, useImperativeHandle, useRef, useState } from 'react';
import { Headphones, Pause, Play } from 'lucide-react';
import { Button } from '@client/components/ui/button';
import { Card, CardContent } from '@client/components/ui/card';
import { formatOffset } from './audio-session';

/** How far one arrow-key press on the seek slider moves the recording. */
export const SEEK_STEP_SEC = 5;

export interface AudioPlayerHandle {
  seekTo(ms: number): void;
}

export interface AudioPlayerProps {
  src: string;
  fileName: string;
  onReset: () => void;
}

export const AudioPlayer = forwardRef<AudioPlayerHandle, AudioPlayerProps>(function AudioPlayer(
  { src, fileName, onReset },
  ref,
) {
  const audioRef = useRef<HTMLAudioElement>(null);
  const [playing, setPlaying] = useState(false);
  const [currentSec, setCurrentSec] = useState(0);
  const [durationSec, setDurationSec] = useState(0);

  // The element may know its duration before React's handlers are attached (a cached file after
  // a reload or a shared link) or learn it late (streamed files): read it on mount and on every change.
  const readDuration = (audio: HTMLAudioElement | null) => {
    if (!audio) return;
    setDurationSec(Number.isFinite(audio.duration) && audio.duration > 0 ? audio.duration : 0);
  };
  useEffect(() => {
    const audio = audioRef.current;
    if (!audio) return;
    readDuration(audio);
    const onChange = () => readDuration(audio);
    audio.addEventListener('durationchange', onChange);
    audio.addEventListener('loadedmetadata', onChange);
    return () => {
      audio.removeEventListener('durationchange', onChange);
      audio.removeEventListener('loadedmetadata', onChange);
    };
  }, [src]);

  useImperativeHandle(ref, () => ({
    seekTo(ms: number) {
      const audio = audioRef.current;
      if (!audio) return;
      audio.currentTime = ms / 1000;
      setCurrentSec(ms / 1000);
      void audio.play().catch(() => undefined);
    },
  }));

  const toggle = () => {
    const audio = audioRef.current;
    if (!audio) return;
    if (audio.paused) void audio.play().catch(() => undefined);
    else audio.pause();
  };

  return (
    <Card role="region" aria-label="Recording player">
      <CardContent className="flex flex-col gap-4 pt-5 sm:flex-row sm:items-center sm:pt-6">
        <audio
          ref={audioRef}
          src={src}
          preload="metadata"
          onPlay={() => setPlaying(true)}
          onPause={() => setPlaying(false)}
          onEnded={() => setPlaying(false)}
          onTimeUpdate={(e) => setCurrentSec(e.currentTarget.currentTime)}
        />
        <div className="flex min-w-0 flex-1 items-center gap-4">
          <Button
            size="icon"
            className="size-12 shrink-0 rounded-full"
            onClick={toggle}
            aria-label={playing ? 'Pause' : 'Play'}
          >
            {playing ? <Pause aria-hidden="true" /> : <Play aria-hidden="true" />}
          </Button>
          <div className="min-w-0 flex-1 space-y-1.5">
            <div className="flex items-center gap-2">
              <Headphones className="size-4 shrink-0 text-brand-600" aria-hidden="true" />
              <p className="truncate font-medium text-slate-900" title={fileName}>
                {fileName}
              </p>
            </div>
            <p className="text-xs text-slate-500">Sales Call Recording</p>
            <div className="flex items-center gap-2">
              <input
                type="range"
                min={0}
                max={Math.max(durationSec, 0.01)}
                // Arrow keys move 5 seconds, and screen readers hear the time, not a raw number.
                step={SEEK_STEP_SEC}
                value={Math.min(currentSec, durationSec || currentSec)}
                aria-label="Seek"
                aria-valuetext={`${formatOffset(currentSec * 1000)} of ${formatOffset(durationSec * 1000)}`}
                onChange={(e) => {
                  const audio = audioRef.current;
                  if (audio) audio.currentTime = Number(e.target.value);
                  setCurrentSec(Number(e.target.value));
                }}
                className="h-1.5 flex-1 cursor-pointer accent-brand-600"
              />
              <span className="w-24 text-right font-mono text-xs text-slate-600 tabular-nums">
                {formatOffset(currentSec * 1000)} / {formatOffset(durationSec * 1000)}
              </span>
            </div>
          </div>
        </div>
        <Button variant="outline" onClick={onReset}>
          Upload New File
        </Button>
      </CardContent>
    </Card>
  );
});
