import { useEffect, useState } from 'react';
import { Progress } from '@client/components/ui/progress';
import type { EnginesMessage, VoiceMessage } from '../types';
import { liveCallEvents, liveCallSnapshot } from '../wrapper';

type Engine = EnginesMessage['engines'][number];

/** The one quality line reps see about a transcript (live calls and recordings alike). */
export const APPROXIMATE_TRANSCRIPT = 'Transcript may be approximate';
/** Capabilities that turn the rep's voice into words. */
const HEARING = new Set(['speech-to-text', 'live-speech-to-text']);

/**
 * Live call status: two level meters, the homeowner speaking and the rep's microphone, and
 * a plain line when the transcript may be approximate. Fed by the live call's
 * VoiceClient events, so it needs no props beyond the persona's name.
 */
export function CallStatus({ personaName }: { personaName: string }) {
  // Mounted mid-call (inside the call bar's area), it starts from what was already sent.
  const [active, setActive] = useState(liveCallSnapshot.active);
  const [engines, setEngines] = useState<Engine[]>(
    () => (liveCallSnapshot.engines as EnginesMessage | null)?.engines ?? [],
  );
  const [homeownerLevel, setHomeownerLevel] = useState(0);
  const [micLevel, setMicLevel] = useState(0);

  useEffect(() => {
    const offs = [
      liveCallEvents.on('call-start', () => setActive(true)),
      liveCallEvents.on('call-end', () => {
        setActive(false);
        setHomeownerLevel(0);
        setMicLevel(0);
      }),
      liveCallEvents.on('volume-level', (level) => setHomeownerLevel(level)),
      liveCallEvents.on('mic-level', (level) => setMicLevel(level)),
      liveCallEvents.on('message', (m: VoiceMessage) => {
        if (m.type === 'engines' && Array.isArray((m as EnginesMessage).engines))
          setEngines((m as EnginesMessage).engines);
      }),
    ];
    // Anything sent between the first render and these subscriptions.
    setActive(liveCallSnapshot.active);
    const seen = (liveCallSnapshot.engines as EnginesMessage | null)?.engines;
    if (seen) setEngines(seen);
    return () => offs.forEach((off) => off());
  }, []);

  if (!active) return null;
  // Reps never see which engines serve the call (operators do, on /status): at most one plain
  // line when the words the call hears may be off.
  const approximate = engines.some((e) => HEARING.has(e.capability) && e.quality === 'basic');
  return (
    <section aria-label="Call status" data-testid="call-status" className="w-full max-w-sm space-y-3 text-sm">
      <div className="space-y-1">
        <div className="flex justify-between text-slate-600">
          <span>{personaName} speaking</span>
        </div>
        <Progress value={homeownerLevel * 100} label={`${personaName} voice level`} />
      </div>
      <div className="space-y-1">
        <div className="flex justify-between text-slate-600">
          <span>Your microphone</span>
        </div>
        <Progress value={micLevel * 100} label="Your microphone level" indicatorClassName="bg-emerald-600" />
      </div>
      {approximate && (
        <p className="text-sm text-slate-600" data-testid="call-quality">
          {APPROXIMATE_TRANSCRIPT}
        </p>
      )}
    </section>
  );
}
