import { useEffect, useState } from 'react';
import { Progress } from '@client/components/ui/progress';
import type { EnginesMessage, VoiceMessage } from '../types';
import { liveCallEvents } from '../wrapper';

type Engine = EnginesMessage['engines'][number];

/**
 * Live call status: which engines serve the call (with the offline-engine notice) and two
 * level meters, the homeowner speaking and the rep's microphone. Fed by the live call's
 * VoiceClient events, so it needs no props beyond the persona's name.
 */
export function CallStatus({ personaName }: { personaName: string }) {
  const [active, setActive] = useState(false);
  const [engines, setEngines] = useState<Engine[]>([]);
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
    return () => offs.forEach((off) => off());
  }, []);

  if (!active) return null;
  // The offline engines say so, with how to upgrade (e.g. the speech engine's accuracy notice).
  const basic = engines.filter((e) => e.quality === 'basic' && e.upgradeHint);
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
          {engines.map((e) => e.label).join(' · ')}
        </p>
      )}
      {basic.length > 0 && (
        <ul className="space-y-1 rounded-md bg-sky-50 p-3 text-xs text-sky-900" aria-label="Engine notices">
          {basic.map((e) => (
            <li key={e.capability}>
              {e.label}
              {e.upgradeHint ? ` — ${e.upgradeHint}` : ''}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
