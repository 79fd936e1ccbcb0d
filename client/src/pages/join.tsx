import { useEffect, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link } from 'wouter';
import { ShieldCheck } from 'lucide-react';
import { SIGN_IN_TOKEN_PATTERN } from '@core/accounts';
import { Card, CardContent, CardDescription, CardHeader } from '@client/components/ui/card';
import { Button } from '@client/components/ui/button';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { errorMessage } from '@client/lib/request';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { ACCOUNT_KEY, fetchAccount } from '@client/features/progress/account-api';
import { SignInForm } from '@client/features/progress/sign-in-form';
import {
  forgetInvite,
  joinTeam,
  MY_TEAMS_KEY,
  pendingInvite,
  previewInvite,
  rememberInvite,
} from '@client/features/teams/team-api';

/** The invite's token: from the link's fragment (never sent with the page), or kept across sign-in. */
function inviteToken(): string | null {
  const m = window.location.hash.match(/invite=([^&]+)/);
  const token = m?.[1] ?? pendingInvite();
  return token && SIGN_IN_TOKEN_PATTERN.test(token) ? token : null;
}

function Consent({ token, email }: { token: string; email: string }) {
  const [agreed, setAgreed] = useState(false);
  const queryClient = useQueryClient();
  const preview = useQuery({ queryKey: ['/api/teams/invite', token], queryFn: () => previewInvite(token) });
  const join = useMutation({
    mutationFn: () => joinTeam(token),
    onSuccess: async () => {
      forgetInvite();
      window.history.replaceState(null, '', '/join');
      await queryClient.invalidateQueries({ queryKey: MY_TEAMS_KEY });
    },
  });
  if (preview.isError) {
    forgetInvite();
    return (
      <Alert variant="destructive">
        <AlertDescription>{errorMessage(preview.error)}</AlertDescription>
      </Alert>
    );
  }
  if (!preview.data) return <p className="text-sm text-slate-500">Loading…</p>;
  const { team, managers, member } = preview.data;
  if (join.isSuccess || member === 'rep') {
    return (
      <div className="space-y-3" role="status">
        <p className="font-semibold text-slate-900">You&apos;re in {team.name}.</p>
        <p className="text-sm text-slate-700">
          Its managers can see your practice. You can leave at any time on the{' '}
          <Link href="/teams" className="font-medium text-brand-700 underline">
            Teams
          </Link>{' '}
          page.
        </p>
        <Button asChild className="min-h-11">
          <Link href="/">Practise a role-play</Link>
        </Button>
      </div>
    );
  }
  if (member === 'manager') {
    return (
      <p className="text-sm text-slate-700">
        You manage {team.name}.{' '}
        <Link href="/teams" className="font-medium text-brand-700 underline">
          Go to your teams
        </Link>
      </p>
    );
  }
  return (
    <div className="space-y-4">
      <p className="text-lg font-semibold text-slate-900">Join {team.name}?</p>
      <div className="space-y-2 text-sm text-slate-700">
        <p>
          If you join, <strong>{managers.join(', ')}</strong> will see your practice while you&apos;re in the
          team:
        </p>
        <ul className="list-disc space-y-1 pl-5">
          <li>every role-play and call analysis on your account — past and future</li>
          <li>their scores, transcripts and coaching</li>
          <li>your email address ({email})</li>
        </ul>
        <p>
          Managers can leave comments on your calls. You can leave the team at any time, and they stop seeing
          your practice straight away.
        </p>
      </div>
      <label className="flex min-h-11 items-start gap-3 text-sm text-slate-900">
        <input
          type="checkbox"
          className="mt-0.5 size-5 shrink-0 accent-brand-600"
          checked={agreed}
          onChange={(e) => setAgreed(e.target.checked)}
        />
        I agree to share my practice with this team&apos;s managers.
      </label>
      {join.isError && (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(join.error)}</AlertDescription>
        </Alert>
      )}
      <div className="flex flex-wrap gap-2">
        <Button size="lg" onClick={() => join.mutate()} disabled={!agreed || join.isPending}>
          Join team
        </Button>
        <Button asChild variant="outline" size="lg">
          <Link
            href="/"
            onClick={() => {
              forgetInvite();
            }}
          >
            Not now
          </Link>
        </Button>
      </div>
    </div>
  );
}

/** Where an invite link lands: sign in if needed, then a clear choice to share practice with the team. */
export function JoinPage() {
  useDocumentTitle('Join a team');
  const [token] = useState(inviteToken);
  const account = useQuery({ queryKey: ACCOUNT_KEY, queryFn: fetchAccount });
  const email = account.data?.account?.email ?? null;
  // Kept while the rep signs in (the emailed link opens a new page); cleared once used.
  useEffect(() => {
    if (token && !email) rememberInvite(token);
  }, [token, email]);

  return (
    <div className="mx-auto max-w-lg">
      <Card>
        <CardHeader>
          <h1 className="flex items-center gap-2 text-xl font-semibold tracking-tight text-slate-900">
            <ShieldCheck className="size-5 text-brand-600" aria-hidden="true" />
            Team invite
          </h1>
          {!email && token && (
            <CardDescription>Sign in first. We&apos;ll bring you back here to decide.</CardDescription>
          )}
        </CardHeader>
        <CardContent>
          {!token ? (
            <Alert variant="destructive">
              <AlertDescription>
                This invite link is incomplete. Ask your manager for a new one.
              </AlertDescription>
            </Alert>
          ) : account.isPending ? (
            <p className="text-sm text-slate-500">Loading…</p>
          ) : !email ? (
            <SignInForm />
          ) : (
            <Consent token={token} email={email} />
          )}
        </CardContent>
      </Card>
    </div>
  );
}
