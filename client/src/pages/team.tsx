import { useState, type FormEvent } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Link, useParams } from 'wouter';
import { ArrowLeft, Download, Link2, MessageSquare, Target } from 'lucide-react';
import { SECTION_KEYS, SECTION_TITLES } from '@core/coaching-format';
import {
  COMMENT_MAX,
  type CallKind,
  type NewInvite,
  type TeamCallView,
  type TeamPage as TeamView,
} from '@core/teams';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@client/components/ui/card';
import { Button } from '@client/components/ui/button';
import { Badge } from '@client/components/ui/badge';
import { Alert, AlertDescription } from '@client/components/ui/alert';
import { errorMessage } from '@client/lib/request';
import { useDocumentTitle } from '@client/lib/use-document-title';
import { FormattedText } from '@client/features/coaching/formatted-text';
import { ChartGrid } from '@client/features/progress/progress-charts';
import { practiceName, sectionCharts, shortDate } from '@client/features/progress/progress-data';
import {
  addComment,
  callKey,
  createInvite,
  csvUrl,
  fetchRepPage,
  fetchTeamCall,
  fetchTeamPage,
  filterQuery,
  inviteUrl,
  repKey,
  revokeInvite,
  teamKey,
} from '@client/features/teams/team-api';
import { TeamFilters, useTeamFilter } from '@client/features/teams/team-filters';

function Problem({ error }: { error: unknown }) {
  return (
    <Alert variant="destructive">
      <AlertDescription>{errorMessage(error)}</AlertDescription>
    </Alert>
  );
}

function BackLink({ href, children }: { href: string; children: string }) {
  return (
    <Link
      href={href}
      className="inline-flex min-h-11 items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
    >
      <ArrowLeft className="size-4" aria-hidden="true" />
      {children}
    </Link>
  );
}

const score = (n: number | null | undefined) => (typeof n === 'number' ? `${n}/10` : '–');

function InviteCard({ team }: { team: TeamView }) {
  const queryClient = useQueryClient();
  const [made, setMade] = useState<NewInvite | null>(null);
  const [copied, setCopied] = useState(false);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['/api/teams', team.team.id] });
  const create = useMutation({
    mutationFn: () => createInvite(team.team.id),
    onSuccess: async (invite) => {
      setMade(invite);
      setCopied(false);
      await refresh();
    },
  });
  const revoke = useMutation({
    mutationFn: (inviteId: string) => revokeInvite(team.team.id, inviteId),
    onSuccess: async (_r, inviteId) => {
      if (made?.id === inviteId) setMade(null);
      await refresh();
    },
  });
  const url = made ? inviteUrl(made.token) : null;
  return (
    <Card role="region" aria-labelledby="invite-title">
      <CardHeader className="pb-3">
        <CardTitle id="invite-title" className="flex items-center gap-2">
          <Link2 className="size-5 text-brand-600" aria-hidden="true" />
          Invite reps
        </CardTitle>
        <CardDescription>
          Send the link to your reps. Each one signs in and agrees before you see their practice. Links work
          for 14 days.
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-3">
        {url && (
          <div className="space-y-2">
            <label htmlFor="invite-link" className="text-sm font-medium text-slate-800">
              New invite link (shown once)
            </label>
            <input
              id="invite-link"
              readOnly
              value={url}
              onFocus={(e) => e.currentTarget.select()}
              className="h-11 w-full rounded-md border border-slate-300 bg-slate-50 px-3 font-mono text-xs text-slate-800"
            />
            <Button
              variant="outline"
              className="min-h-11"
              onClick={() => {
                void navigator.clipboard?.writeText(url).then(() => setCopied(true));
              }}
            >
              {copied ? 'Copied' : 'Copy link'}
            </Button>
          </div>
        )}
        <Button className="min-h-11" onClick={() => create.mutate()} disabled={create.isPending}>
          Make an invite link
        </Button>
        {create.isError && <Problem error={create.error} />}
        {team.invites.length > 0 && (
          <ul className="divide-y divide-slate-200 text-sm" aria-label="Links that work now">
            {team.invites.map((invite) => (
              <li key={invite.id} className="flex flex-wrap items-center justify-between gap-2 py-2">
                <span className="text-slate-700">
                  Link made {shortDate(invite.createdAt)} · works until {shortDate(invite.expiresAt)}
                </span>
                <Button
                  variant="ghost"
                  size="sm"
                  className="min-h-11"
                  onClick={() => revoke.mutate(invite.id)}
                  disabled={revoke.isPending}
                >
                  Turn off
                </Button>
              </li>
            ))}
          </ul>
        )}
        {revoke.isError && <Problem error={revoke.error} />}
      </CardContent>
    </Card>
  );
}

function TeamNumbers({ view }: { view: TeamView }) {
  const weakest = view.weakest.slice(0, 2);
  return (
    <Card role="region" aria-labelledby="team-average-title">
      <CardHeader className="pb-3">
        <CardTitle id="team-average-title" className="flex items-center gap-2">
          <Target className="size-5 text-brand-600" aria-hidden="true" />
          Team average by section
        </CardTitle>
        <CardDescription>
          {view.calls === 0
            ? 'No calls match these filters yet.'
            : `Over ${view.calls} ${view.calls === 1 ? 'call' : 'calls'}. Locked sections count once the rep unlocks them.`}
        </CardDescription>
      </CardHeader>
      <CardContent className="space-y-4">
        {weakest.length > 0 && (
          <p className="text-sm text-slate-800" data-testid="team-weakest">
            Weakest: <strong>{weakest.map((w) => `${w.title} (${w.average}/10)`).join(', ')}</strong>
          </p>
        )}
        <dl className="grid grid-cols-1 gap-2 sm:grid-cols-2">
          {SECTION_KEYS.map((key) => {
            const value = view.averages[key];
            return (
              <div key={key} className="flex items-center gap-3">
                <dt className="w-40 shrink-0 text-sm text-slate-700">{SECTION_TITLES[key]}</dt>
                <dd className="flex flex-1 items-center gap-2">
                  <span className="h-2 flex-1 overflow-hidden rounded bg-slate-100" aria-hidden="true">
                    <span
                      className="block h-full rounded bg-brand-500"
                      style={{ width: `${typeof value === 'number' ? value * 10 : 0}%` }}
                    />
                  </span>
                  <span className="w-12 text-right text-sm font-medium text-slate-900">{score(value)}</span>
                </dd>
              </div>
            );
          })}
        </dl>
      </CardContent>
    </Card>
  );
}

function RepList({ view, search }: { view: TeamView; search: string }) {
  return (
    <Card role="region" aria-labelledby="reps-title">
      <CardHeader className="pb-3">
        <CardTitle id="reps-title">Reps</CardTitle>
      </CardHeader>
      <CardContent>
        {view.reps.length === 0 ? (
          <p className="text-sm text-slate-600">No reps yet. Share an invite link to add them.</p>
        ) : (
          <ul className="divide-y divide-slate-200" data-testid="team-reps">
            {view.reps.map((rep) => {
              const low = SECTION_KEYS.filter((k) => typeof rep.sections[k] === 'number').sort(
                (a, b) => (rep.sections[a] as number) - (rep.sections[b] as number),
              )[0];
              return (
                <li key={rep.id} className="py-2.5">
                  <Link
                    href={`/teams/${view.team.id}/reps/${rep.id}${search}`}
                    className="block min-h-11 hover:underline"
                  >
                    <span className="block break-all font-medium text-brand-800">{rep.email}</span>
                    <span className="block text-sm text-slate-600">
                      {rep.calls} {rep.calls === 1 ? 'call' : 'calls'} · average {score(rep.overall)}
                      {rep.lastAt ? ` · last ${shortDate(rep.lastAt)}` : ''}
                      {low ? ` · work on ${SECTION_TITLES[low]}` : ''}
                    </span>
                    {rep.weekly.length > 1 && (
                      <span className="block text-xs text-slate-500">
                        Weekly average: {rep.weekly.map((w) => w.average).join(' → ')}
                      </span>
                    )}
                  </Link>
                </li>
              );
            })}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** The manager's team page. */
export function TeamPage() {
  const { teamId = '' } = useParams<{ teamId: string }>();
  const [filter, setFilter] = useTeamFilter();
  const team = useQuery({ queryKey: teamKey(teamId, filter), queryFn: () => fetchTeamPage(teamId, filter) });
  useDocumentTitle(team.data?.team.name ?? 'Team');
  const search = filterQuery(filter);
  return (
    <div className="space-y-6">
      <BackLink href="/teams">Teams</BackLink>
      <h1 className="text-2xl font-bold tracking-tight break-words text-slate-900 sm:text-3xl">
        {team.data?.team.name ?? 'Team'}
      </h1>
      {team.isError ? (
        <Problem error={team.error} />
      ) : !team.data ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : (
        <>
          <Card>
            <CardContent className="space-y-3 pt-6">
              <TeamFilters filter={filter} onChange={setFilter} />
              <Button asChild variant="outline" className="min-h-11">
                <a href={csvUrl(teamId, filter)} download>
                  <Download aria-hidden="true" />
                  Download CSV
                </a>
              </Button>
            </CardContent>
          </Card>
          <TeamNumbers view={team.data} />
          <RepList view={team.data} search={search} />
          <InviteCard team={team.data} />
        </>
      )}
    </div>
  );
}

/** One rep's calls and scores over time, for the manager. */
export function TeamRepPage() {
  const { teamId = '', repId = '' } = useParams<{ teamId: string; repId: string }>();
  const [filter, setFilter] = useTeamFilter();
  const rep = useQuery({
    queryKey: repKey(teamId, repId, filter),
    queryFn: () => fetchRepPage(teamId, repId, filter),
  });
  useDocumentTitle(rep.data?.rep.email ?? 'Rep');
  const search = filterQuery(filter);
  return (
    <div className="space-y-6">
      <BackLink href={`/teams/${teamId}${search}`}>{rep.data?.team.name ?? 'Team'}</BackLink>
      <h1 className="text-2xl font-bold tracking-tight break-all text-slate-900 sm:text-3xl">
        {rep.data?.rep.email ?? 'Rep'}
      </h1>
      {rep.isError ? (
        <Problem error={rep.error} />
      ) : !rep.data ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : (
        <>
          <Card>
            <CardContent className="pt-6">
              <TeamFilters filter={filter} onChange={setFilter} />
            </CardContent>
          </Card>
          {rep.data.items.some((i) => i.coached) && (
            <Card role="region" aria-labelledby="rep-sections-title">
              <CardHeader className="pb-3">
                <CardTitle id="rep-sections-title">Scores by section</CardTitle>
                <CardDescription>Each coached call, oldest to newest.</CardDescription>
              </CardHeader>
              <CardContent>
                <ChartGrid charts={sectionCharts(rep.data.items)} />
              </CardContent>
            </Card>
          )}
          <Card role="region" aria-labelledby="rep-calls-title">
            <CardHeader className="pb-3">
              <CardTitle id="rep-calls-title">Calls</CardTitle>
              {rep.data.truncated && (
                <CardDescription>Showing the newest {rep.data.items.length}.</CardDescription>
              )}
            </CardHeader>
            <CardContent>
              {rep.data.items.length === 0 ? (
                <p className="text-sm text-slate-600">No calls match these filters.</p>
              ) : (
                <ul className="divide-y divide-slate-200" data-testid="rep-calls">
                  {rep.data.items.map((item) => (
                    <li key={`${item.kind}-${item.id}`} className="py-2.5">
                      <Link
                        href={`/teams/${teamId}/calls/${item.kind}/${item.id}`}
                        className="block min-h-11 text-sm hover:underline"
                      >
                        <span className="font-medium break-all text-brand-800">{practiceName(item)}</span>
                        <span className="text-slate-600"> · {shortDate(item.at)}</span>
                        <span className="text-slate-600">
                          {' · '}
                          {item.overall !== null
                            ? `Overall ${item.overall}/10`
                            : item.coached
                              ? 'Some sections locked'
                              : 'No coaching yet'}
                        </span>
                      </Link>
                    </li>
                  ))}
                </ul>
              )}
            </CardContent>
          </Card>
        </>
      )}
    </div>
  );
}

function CommentForm({ view, line, onDone }: { view: TeamCallView; line: number; onDone: () => void }) {
  const [text, setText] = useState('');
  const queryClient = useQueryClient();
  const add = useMutation({
    mutationFn: () => addComment(view.team.id, view.kind, view.id, line, text.trim()),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: callKey(view.team.id, view.kind, view.id) });
      onDone();
    },
  });
  const submit = (event: FormEvent) => {
    event.preventDefault();
    if (text.trim()) add.mutate();
  };
  const id = `comment-${line}`;
  return (
    <form onSubmit={submit} className="mt-2 space-y-2">
      <label htmlFor={id} className="sr-only">
        Comment on this line
      </label>
      <textarea
        id={id}
        value={text}
        maxLength={COMMENT_MAX}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        className="w-full rounded-md border border-slate-300 p-2 text-sm"
        placeholder="What should they try here?"
        autoFocus
      />
      {add.isError && <Problem error={add.error} />}
      <div className="flex gap-2">
        <Button type="submit" size="sm" className="min-h-11" disabled={!text.trim() || add.isPending}>
          Save comment
        </Button>
        <Button type="button" variant="ghost" size="sm" className="min-h-11" onClick={onDone}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

function Transcript({ view }: { view: TeamCallView }) {
  const [open, setOpen] = useState<number | null>(null);
  const other = view.kind === 'audio' ? 'Customer' : 'Homeowner';
  return (
    <Card role="region" aria-labelledby="call-transcript-title">
      <CardHeader className="pb-3">
        <CardTitle id="call-transcript-title">Transcript</CardTitle>
        <CardDescription>
          Comment on a line and the rep sees it with this call&apos;s results.
        </CardDescription>
      </CardHeader>
      <CardContent>
        {view.lines.length === 0 ? (
          <p className="text-sm text-slate-600">No transcript.</p>
        ) : (
          <ol className="space-y-3" data-testid="call-lines">
            {view.lines.map((line) => {
              const comments = view.comments.filter((c) => c.line === line.n);
              return (
                <li key={line.n} className="rounded-md border border-slate-100 p-2.5" data-line={line.n}>
                  <p className="text-xs font-semibold text-slate-500 uppercase">
                    {line.speaker === 'rep' ? 'Rep' : other}
                  </p>
                  <p className="text-sm break-words text-slate-900">{line.text}</p>
                  {comments.map((c) => (
                    <div
                      key={c.id}
                      className="mt-2 rounded-md bg-amber-50 p-2 text-sm text-slate-900"
                      data-testid="line-comment"
                    >
                      <p className="break-words">{c.text}</p>
                      <p className="text-xs text-slate-600">
                        {c.author ?? 'A manager'} · {shortDate(c.createdAt)}
                      </p>
                    </div>
                  ))}
                  {open === line.n ? (
                    <CommentForm view={view} line={line.n} onDone={() => setOpen(null)} />
                  ) : (
                    <Button
                      variant="ghost"
                      size="sm"
                      className="mt-1 min-h-11"
                      onClick={() => setOpen(line.n)}
                      aria-label={`Comment on line ${line.n + 1}`}
                    >
                      <MessageSquare aria-hidden="true" />
                      Comment
                    </Button>
                  )}
                </li>
              );
            })}
          </ol>
        )}
      </CardContent>
    </Card>
  );
}

function Coaching({ view }: { view: TeamCallView }) {
  const doc = view.coaching;
  return (
    <Card role="region" aria-labelledby="call-coaching-title">
      <CardHeader className="pb-3">
        <CardTitle id="call-coaching-title">Coaching</CardTitle>
      </CardHeader>
      <CardContent className="space-y-4">
        {!doc ? (
          <p className="text-sm text-slate-600">No coaching yet.</p>
        ) : (
          <>
            <FormattedText content={doc.summary} />
            {doc.sections.map((s) => (
              <section key={s.key} className="space-y-1 border-t border-slate-100 pt-3">
                <h3 className="text-sm font-semibold text-slate-900">
                  {s.title}{' '}
                  <span className="font-normal text-slate-600">· {s.locked ? 'Locked' : score(s.score)}</span>
                </h3>
                {s.locked ? (
                  <p className="text-sm text-slate-600">The rep hasn&apos;t unlocked this section.</p>
                ) : (
                  <FormattedText content={s.content} />
                )}
              </section>
            ))}
          </>
        )}
      </CardContent>
    </Card>
  );
}

/** A rep's call, read-only, for the manager: transcript with comments, and coaching. */
export function TeamCallPage() {
  const {
    teamId = '',
    kind = 'roleplay',
    callId = '',
  } = useParams<{ teamId: string; kind: string; callId: string }>();
  const callKind: CallKind = kind === 'audio' ? 'audio' : 'roleplay';
  const call = useQuery({
    queryKey: callKey(teamId, callKind, callId),
    queryFn: () => fetchTeamCall(teamId, callKind, callId),
  });
  useDocumentTitle('Call');
  const v = call.data;
  return (
    <div className="space-y-6">
      <BackLink href={v ? `/teams/${teamId}/reps/${v.rep.id}` : `/teams/${teamId}`}>
        {v?.rep.email ?? 'Back'}
      </BackLink>
      {call.isError ? (
        <Problem error={call.error} />
      ) : !v ? (
        <p className="text-sm text-slate-500">Loading…</p>
      ) : (
        <>
          <div className="space-y-1">
            <h1 className="text-2xl font-bold tracking-tight break-all text-slate-900 sm:text-3xl">
              {practiceName(v)}
            </h1>
            <p className="flex flex-wrap items-center gap-2 text-sm text-slate-600">
              <span className="break-all">{v.rep.email}</span>
              <span>· {shortDate(v.at)}</span>
              <Badge variant="secondary">Read-only</Badge>
            </p>
          </div>
          <Transcript view={v} />
          <Coaching view={v} />
        </>
      )}
    </div>
  );
}
