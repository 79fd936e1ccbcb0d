import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useLocation } from 'wouter';
import { Users } from 'lucide-react';
import { TEAM_NAME_MAX, type TeamSummary } from '@core/teams';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Button } from '@client/components/ui/button';
import { Input } from '@client/components/ui/input';
import { Label } from '@client/components/ui/label';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { errorMessage } from '@client/lib/request';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { ACCOUNT_KEY, fetchAccount } from '@client/features/progress/account-api';
import { SignInForm } from '@client/features/progress/sign-in-form';
import { createTeam, fetchMyTeams, leaveTeam, MY_TEAMS_KEY } from '@client/features/teams/team-api';

function CreateTeam() {
  const [name, setName] = useState('');
  const [, navigate] = useLocation();
  const queryClient = useQueryClient();
  const create = useMutation({
    mutationFn: createTeam,
    onSuccess: async (team) => {
      await queryClient.invalidateQueries({ queryKey: MY_TEAMS_KEY });
      navigate(`/teams/${team.id}`);
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (name.trim()) create.mutate(name.trim());
  };
  return (
    <Card role="region" aria-labelledby="create-team-title">
      <CardHeader className="pb-3">
        <CardTitle id="create-team-title">Start a team</CardTitle>
        <CardDescription>
          You&apos;ll get an invite link to share. Reps who join can choose to share their practice with you.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex-1 space-y-1.5">
            <Label htmlFor="team-name">Team name</Label>
            <Input
              id="team-name"
              value={name}
              maxLength={TEAM_NAME_MAX}
              onChange={(e) => setName(e.target.value)}
              autoComplete="off"
            />
          </div>
          <Button type="submit" className="min-h-11" disabled={create.isPending || !name.trim()}>
            Create team
          </Button>
        </form>
        {create.isError && (
          <Alert variant="destructive" className="mt-3">
            <AlertDescription>{errorMessage(create.error)}</AlertDescription>
          </Alert>
        )}
      </CardContent>
    </Card>
  );
}

/** A team the rep shares with, and the way out of it. */
function RepTeam({ team }: { team: TeamSummary }) {
  const [confirming, setConfirming] = useState(false);
  const queryClient = useQueryClient();
  const leave = useMutation({
    mutationFn: () => leaveTeam(team.id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: MY_TEAMS_KEY }),
  });
  return (
    <li className="space-y-2 py-3">
      <p className="text-sm">
        <span className="font-medium text-slate-900">{team.name}</span>
        <span className="text-slate-600"> · its managers see your practice</span>
      </p>
      {confirming ? (
        <div className="space-y-2 rounded-md border border-slate-200 bg-slate-50 p-3 text-sm">
          <p>Leave {team.name}? Its managers stop seeing your practice straight away.</p>
          <div className="flex flex-wrap gap-2">
            <Button
              variant="destructive"
              className="min-h-11"
              onClick={() => leave.mutate()}
              disabled={leave.isPending}
            >
              Leave team
            </Button>
            <Button variant="outline" className="min-h-11" onClick={() => setConfirming(false)}>
              Stay
            </Button>
          </div>
        </div>
      ) : (
        <Button variant="outline" size="sm" className="min-h-11" onClick={() => setConfirming(true)}>
          Leave
        </Button>
      )}
      {leave.isError && (
        <Alert variant="destructive">
          <AlertDescription>{errorMessage(leave.error)}</AlertDescription>
        </Alert>
      )}
    </li>
  );
}

function plural(n: number, one: string, many: string): string {
  return `${n} ${n === 1 ? one : many}`;
}

function MyTeamsList() {
  const teams = useQuery({ queryKey: MY_TEAMS_KEY, queryFn: fetchMyTeams });
  if (teams.isError) {
    return (
      <Alert variant="destructive">
        <AlertDescription>{errorMessage(teams.error)}</AlertDescription>
      </Alert>
    );
  }
  if (!teams.data) return <p className="text-sm text-slate-500">Loading…</p>;
  const managed = teams.data.teams.filter((t) => t.role === 'manager');
  const joined = teams.data.teams.filter((t) => t.role === 'rep');
  return (
    <div className="space-y-6">
      {managed.length > 0 && (
        <Card role="region" aria-labelledby="managed-title">
          <CardHeader className="pb-3">
            <CardTitle id="managed-title">Teams you manage</CardTitle>
          </CardHeader>
          <CardContent>
            <ul className="divide-y divide-slate-200">
              {managed.map((team) => (
                <li key={team.id} className="py-2.5">
                  <Link
                    href={`/teams/${team.id}`}
                    className="flex min-h-11 items-center text-sm hover:underline"
                  >
                    <span className="font-medium text-brand-800">{team.name}</span>
                    <span className="text-slate-600">&nbsp;· {plural(team.reps, 'rep', 'reps')}</span>
                  </Link>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
      {joined.length > 0 && (
        <Card role="region" aria-labelledby="joined-title">
          <CardHeader className="pb-3">
            <CardTitle id="joined-title">Teams you&apos;re in</CardTitle>
            <CardDescription>You can leave at any time.</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="divide-y divide-slate-200">
              {joined.map((team) => (
                <RepTeam key={team.id} team={team} />
              ))}
            </ul>
          </CardContent>
        </Card>
      )}
      <CreateTeam />
    </div>
  );
}

/** Teams: the ones you manage and the ones you share practice with; signed out, the way to sign in. */
export function TeamsPage() {
  useDocumentTitle('Teams');
  const account = useQuery({ queryKey: ACCOUNT_KEY, queryFn: fetchAccount });
  return (
    <div className="space-y-6">
      <h1 className="flex items-center gap-2 text-2xl font-bold tracking-tight text-slate-900 sm:text-3xl">
        <Users className="size-6 text-brand-600" aria-hidden="true" />
        Teams
      </h1>
      {account.isPending ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : !account.data?.account ? (
        <Card className="mx-auto max-w-lg">
          <CardHeader>
            <CardTitle>Sign in to use teams</CardTitle>
            <CardDescription>We&apos;ll email you a link — there&apos;s no password.</CardDescription>
          </CardHeader>
          <CardContent>
            <SignInForm />
          </CardContent>
        </Card>
      ) : (
        <MyTeamsList />
      )}
    </div>
  );
}
