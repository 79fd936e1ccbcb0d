import { useCallback, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Loader2, Lock } from 'lucide-react';
import { coachingQueryKey } from '@client/features/coaching/coaching-api';
import { errorMessage } from '@client/lib/request';
import { BuiltInLeadForm } from './builtin-lead-form';
import { HubSpotForm } from './hubspot-form';
import type { HubSpotSettings } from './hubspot';
import { postLead, sessionQueryKey } from './leads-api';

/**
 * The coaching gate (spec §2): the last three sections stay locked until an email is given.
 * The server withholds their content until then; once the lead is stored, the page fetches the
 * full coaching again. Owned by the lead-capture feature; the coaching card renders <UnlockGate>.
 */
export interface GateProps {
  sessionKind: 'roleplay' | 'audio';
  sessionId: string | null;
}

export const GATE_TITLE = 'Unlock Full Coaching Results';
export const GATE_TEXT =
  'Get detailed feedback on Objection Handling, Closing, and Follow-Up techniques. Enter your email to see the complete analysis.';

/** After the server stored the lead: fetch the full coaching and the session's gate state again. */
function useRefetchUnlocked(sessionKind: GateProps['sessionKind'], sessionId: string | null) {
  const queryClient = useQueryClient();
  return useCallback(() => {
    if (!sessionId) return;
    queryClient.setQueryData<Record<string, unknown>>(sessionQueryKey(sessionKind, sessionId), (old) =>
      old ? { ...old, unlocked: true } : old,
    );
    void queryClient.invalidateQueries({ queryKey: coachingQueryKey(sessionKind, sessionId) });
    void queryClient.invalidateQueries({ queryKey: sessionQueryKey(sessionKind, sessionId) });
  }, [queryClient, sessionKind, sessionId]);
}

interface GateConfig {
  hubspot: HubSpotSettings | null;
}

export function UnlockGate({ sessionKind, sessionId }: GateProps) {
  const config = useQuery<GateConfig>({ queryKey: ['/api/config'] });
  const refetchUnlocked = useRefetchUnlocked(sessionKind, sessionId);
  const [hubspotFailed, setHubspotFailed] = useState(false);
  const [hubspotProblem, setHubspotProblem] = useState<string | null>(null);
  const hubspot = config.data?.hubspot ?? null;
  const showHubSpot = hubspot !== null && !hubspotFailed;

  const onHubSpotSubmitted = useCallback(
    (email: string | null) => {
      // HubSpot holds the contact; our lead row is what unlocks the session on the server.
      if (!email || !sessionId) {
        setHubspotProblem('Please confirm your email here to finish unlocking.');
        setHubspotFailed(true);
        return;
      }
      postLead({ email, sessionId, sessionKind, source: 'hubspot' }).then(refetchUnlocked, (err: unknown) => {
        setHubspotProblem(`${errorMessage(err)} Please confirm your email here to finish unlocking.`);
        setHubspotFailed(true);
      });
    },
    [refetchUnlocked, sessionId, sessionKind],
  );

  return (
    <section
      role="region"
      aria-labelledby="unlock-gate-title"
      data-testid="unlock-gate"
      className="rounded-xl border border-slate-200 bg-white/95 p-5 text-center shadow-lg backdrop-blur-sm sm:p-6"
    >
      <div className="mx-auto mb-3 flex size-10 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <Lock className="size-5" aria-hidden="true" />
      </div>
      <h3 id="unlock-gate-title" className="text-lg font-semibold text-slate-900">
        {GATE_TITLE}
      </h3>
      <p className="mt-1 mb-4 text-sm text-slate-600">{GATE_TEXT}</p>
      {config.isPending ? (
        <p role="status" className="flex items-center justify-center gap-2 text-sm text-slate-600">
          <Loader2 className="size-4 animate-spin" aria-hidden="true" />
          Loading...
        </p>
      ) : showHubSpot ? (
        <HubSpotForm
          settings={hubspot}
          onSubmitted={onHubSpotSubmitted}
          onFailed={() => setHubspotFailed(true)}
        />
      ) : (
        <>
          {hubspotFailed && (
            <p className="mb-3 text-xs text-slate-500">
              {hubspotProblem ?? 'The sign-up form could not load, so you can use this one.'}
            </p>
          )}
          <BuiltInLeadForm
            sessionKind={sessionKind}
            sessionId={sessionId}
            onUnlocked={refetchUnlocked}
            emailSummary={sessionKind === 'roleplay'}
          />
        </>
      )}
    </section>
  );
}
