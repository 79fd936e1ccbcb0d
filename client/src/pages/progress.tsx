import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { BarChart3, History, LogOut, Target, Smartphone, Users } from 'lucide-react';
import type { ProgressView } from '@core/accounts';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Button } from '@client/components/ui/button';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { errorMessage } from '@client/lib/request';
import { useDocumentTitle } from '@client/lib/use-document-title';
import {
  ACCOUNT_KEY,
  CLAIMABLE_KEY,
  claimDevice,
  fetchAccount,
  fetchClaimable,
  fetchProgress,
  PROGRESS_KEY,
  signOut,
  signOutEverywhere,
} from '@client/features/progress/account-api';
import { SignInForm } from '@client/features/progress/sign-in-form';
import { ChartGrid } from '@client/features/progress/progress-charts';
import {
  metricCharts,
  practiceName,
  resultsUrl,
  sectionCharts,
} from '@client/features/progress/progress-data';

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function formatWhen(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime())
    ? ''
    : d.toLocaleString(undefined, { month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit' });
}

function SignedOut() {
  return (
    <Card className="mx-auto max-w-lg">
      <CardHeader>
        <CardTitle>See your progress on any device</CardTitle>
        <CardDescription>
          Sign in to keep every role-play and call you analyse in one place, with your scores over time.
          We&apos;ll email you a link — there&apos;s no password. Practice works the same without signing in.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <SignInForm />
      </CardContent>
    </Card>
  );
}

/** Practice this device made before signing in, offered to the account in one press. */
function ClaimCard({ email }: { email: string }) {
  const queryClient = useQueryClient();
  const claimable = useQuery({ queryKey: CLAIMABLE_KEY, queryFn: fetchClaimable });
  const claim = useMutation({
    mutationFn: claimDevice,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: PROGRESS_KEY });
      await queryClient.invalidateQueries({ queryKey: CLAIMABLE_KEY });
    },
  });
  const c = claimable.data;
  if (claim.isSuccess) {
    const n = claim.data.roleplays + claim.data.recordings;
    return (
      <Alert variant="info">
        <AlertDescription>
          Added {plural(n, 'session', 'sessions')} from this device to your progress.
        </AlertDescription>
      </Alert>
    );
  }
  if (!c || c.roleplays + c.recordings === 0) return null;
  const parts = [
    c.roleplays ? plural(c.roleplays, 'role-play', 'role-plays') : null,
    c.recordings ? plural(c.recordings, 'call analysis', 'call analyses') : null,
  ].filter(Boolean);
  return (
    <Card role="region" aria-labelledby="claim-title">
      <CardHeader className="pb-3">
        <CardTitle id="claim-title" className="flex items-center gap-2">
          <Smartphone className="size-5 text-brand-600" aria-hidden="true" />
          Practice on this device
        </CardTitle>
        <CardDescription>
          This device has {parts.join(' and ')} from before you signed in. Add{' '}
          {c.roleplays + c.recordings === 1 ? 'it' : 'them'} to the progress of {email}?
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-2">
        {claim.isError && (
          <Alert variant="destructive">
            <AlertDescription>{errorMessage(claim.error)}</AlertDescription>
          </Alert>
        )}
        <Button onClick={() => claim.mutate()} disabled={claim.isPending}>
          Add to my progress
        </Button>
      </CardContent>
    </Card>
  );
}

function AccountBar({ email }: { email: string }) {
  const queryClient = useQueryClient();
  // Signed out: nothing of the account is asked for again (or kept in memory).
  const done = () => {
    queryClient.removeQueries({ queryKey: PROGRESS_KEY });
    queryClient.removeQueries({ queryKey: CLAIMABLE_KEY });
    queryClient.setQueryData(ACCOUNT_KEY, { account: null });
  };
  const out = useMutation({ mutationFn: signOut, onSuccess: done });
  const everywhere = useMutation({ mutationFn: signOutEverywhere, onSuccess: done });
  const error = out.error ?? everywhere.error;
  return (
    <div className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
      <span className="mr-auto">
        Signed in as <strong className="text-slate-900">{email}</strong>
      </span>
      <Button asChild variant="outline" size="sm" className="min-h-11">
        <Link href="/teams">
          <Users aria-hidden="true" />
          Teams
        </Link>
      </Button>
      <Button
        variant="outline"
        size="sm"
        className="min-h-11"
        onClick={() => out.mutate()}
        disabled={out.isPending}
      >
        <LogOut aria-hidden="true" />
        Sign out
      </Button>
      <Button
        variant="ghost"
        size="sm"
        className="min-h-11"
        onClick={() => everywhere.mutate()}
        disabled={everywhere.isPending}
      >
        Sign out everywhere
      </Button>
      {error && (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(error)}</AlertDescription>
        </Alert>
      )}
    </div>
  );
}

function Progress({ view }: { view: ProgressView }) {
  const scored = view.items.filter((i) => Object.values(i.scores).some((s) => typeof s === 'number'));
  return (
    <div className="space-y-6">
      {view.weakest && (
        <Card role="region" aria-labelledby="weakest-title">
          <CardHeader>
            <CardTitle id="weakest-title" className="flex items-center gap-2">
              <Target className="size-5 text-brand-600" aria-hidden="true" />
              Work on: {view.weakest.title}
            </CardTitle>
            <CardDescription>
              Your lowest average score: {view.weakest.average}/10 over{' '}
              {plural(view.weakest.calls, 'call', 'calls')}.
            </CardDescription>
          </CardHeader>
        </Card>
      )}

      {scored.length > 0 && (
        <Card role="region" aria-labelledby="sections-title">
          <CardHeader className="pb-3">
            <CardTitle id="sections-title" className="flex items-center gap-2">
              <BarChart3 className="size-5 text-brand-600" aria-hidden="true" />
              Scores by section
            </CardTitle>
            <CardDescription>
              Each coached call, oldest to newest. Locked sections count once unlocked.
            </CardDescription>
          </CardHeader>
          <CardContent>
            <ChartGrid charts={sectionCharts(view.items)} />
          </CardContent>
        </Card>
      )}

      {view.items.some((i) => i.talkRatio !== null) && (
        <Card role="region" aria-labelledby="metrics-title">
          <CardHeader className="pb-3">
            <CardTitle id="metrics-title">How you talk</CardTitle>
            <CardDescription>Measured from each call&apos;s transcript.</CardDescription>
          </CardHeader>
          <CardContent>
            <ChartGrid charts={metricCharts(view.items)} />
          </CardContent>
        </Card>
      )}

      <Card role="region" aria-labelledby="all-practice-title">
        <CardHeader className="pb-3">
          <CardTitle id="all-practice-title" className="flex items-center gap-2">
            <History className="size-5 text-brand-600" aria-hidden="true" />
            All your practice
          </CardTitle>
          {view.truncated && <CardDescription>Showing your newest {view.items.length}.</CardDescription>}
        </CardHeader>
        <CardContent>
          {view.items.length === 0 ? (
            <p className="text-sm text-slate-600">
              Nothing here yet. Role-plays and call analyses you do while signed in show up here, from any
              device.{' '}
              <Link href="/" className="font-medium text-brand-700 underline">
                Practise a role-play
              </Link>
            </p>
          ) : (
            <ul className="divide-y divide-slate-200" data-testid="progress-list">
              {view.items.map((item) => (
                <li key={`${item.kind}-${item.id}`} className="py-2.5">
                  <Link href={resultsUrl(item)} className="block min-h-11 text-sm hover:underline">
                    <span className="font-medium text-brand-800">{practiceName(item)}</span>
                    <span className="text-slate-600"> · {formatWhen(item.at)}</span>
                    <span className="text-slate-600">
                      {' · '}
                      {item.overall !== null
                        ? `Overall ${item.overall}/10`
                        : item.coached
                          ? 'Overall score after unlock'
                          : 'No coaching yet'}
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
        </CardContent>
      </Card>
    </div>
  );
}

/** My progress: a signed-in rep's practice from every device; signed out, the way to sign in. */
export function ProgressPage() {
  useDocumentTitle('My progress');
  const account = useQuery({ queryKey: ACCOUNT_KEY, queryFn: fetchAccount });
  const email = account.data?.account?.email ?? null;
  const progress = useQuery({ queryKey: PROGRESS_KEY, queryFn: fetchProgress, enabled: Boolean(email) });

  return (
    <div className="space-y-6">
      <h1 className="text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">My progress</h1>
      {account.isPending ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : account.isError ? (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(account.error)}</AlertDescription>
        </Alert>
      ) : !email ? (
        <SignedOut />
      ) : (
        <>
          <AccountBar email={email} />
          <ClaimCard email={email} />
          {progress.isError ? (
            <Alert variant="destructive">
              <AlertDescription>{errorMessage(progress.error)}</AlertDescription>
            </Alert>
          ) : progress.data ? (
            <Progress view={progress.data} />
          ) : (
            <p className="text-sm text-slate-500">Loading…</p>
          )}
        </>
      )}
    </div>
  );
}
