import { useEffect, useState } from 'react';
import { Progress } from '@client/components/ui/progress';
import type { EnginesMessage, VoiceMessage } from '../types';
import { liveCallEvents, liveCallSnapshot } from '../wrapper';

type Engine = EnginesMessage['engines'][number];

/**
 * Live call status: which engines serve the call (once, with a quality hint) and two
 * level meters, the homeowner speaking and the rep's microphone. Fed by the live call's
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
  // Reps see which engines serve the call once, in a line, with a neutral quality hint; how to
  // upgrade them is for operators (the /status page), never for this screen.
  const quality = engines.some((e) => e.quality === 'basic')
    ? 'Offline voice — basic'
    : 'AI voice — enhanced';
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
      {engines.length > 0 && (
        <p className="text-xs text-slate-500" data-testid="call-engines">
          {quality} · {engines.map((e) => e.label).join(' · ')}
        </p>
      )}
    </section>
  );
}
