import { useQuery } from '@tanstack/react-query';
import { MessageSquare } from 'lucide-react';
import type { CallKind } from '@core/teams';
import { Card, CardContent, CardHeader, CardTitle } from '@client/components/ui/card';
import { ACCOUNT_KEY, fetchAccount } from '@client/features/progress/account-api';
import { shortDate } from '@client/features/progress/progress-data';
import { fetchMyComments, myCommentsKey } from './team-api';

/**
 * Comments a team manager pinned to lines of this call, shown to the signed-in rep who made it.
 * Nothing at all for anyone else (signed out, or not the call's owner): the public results are
 * unchanged.
 */
export function TeamCommentsCard({ kind, sessionId }: { kind: CallKind; sessionId: string | null }) {
  const account = useQuery({ queryKey: ACCOUNT_KEY, queryFn: fetchAccount, enabled: Boolean(sessionId) });
  const signedIn = Boolean(account.data?.account);
  const comments = useQuery({
    queryKey: myCommentsKey(kind, sessionId ?? ''),
    queryFn: () => fetchMyComments(kind, sessionId!),
    enabled: signedIn && Boolean(sessionId),
    retry: false,
  });
  const list = comments.data?.comments ?? [];
  if (!list.length) return null;
  return (
    <Card role="region" aria-labelledby="team-comments-title">
      <CardHeader className="pb-3">
        <CardTitle id="team-comments-title" className="flex items-center gap-2">
          <MessageSquare className="size-5 text-brand-600" aria-hidden="true" />
          Comments from your manager
        </CardTitle>
      </CardHeader>
      <CardContent>
        <ul className="space-y-3" data-testid="my-comments">
          {list.map((c) => (
            <li key={c.id} className="space-y-1 rounded-md border border-slate-200 p-3">
              <blockquote className="border-l-2 border-slate-300 pl-2 text-sm break-words text-slate-600">
                “{c.quote}”
              </blockquote>
              <p className="text-sm break-words text-slate-900">{c.text}</p>
              <p className="text-xs break-words text-slate-500">
                {c.author ?? 'A manager'} · {c.team} · {shortDate(c.createdAt)}
              </p>
            </li>
          ))}
        </ul>
      </CardContent>
    </Card>
  );
}
