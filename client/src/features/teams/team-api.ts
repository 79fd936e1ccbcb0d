import type {
  CallKind,
  InvitePreview,
  MyComments,
  MyTeams,
  NewInvite,
  TeamCallView,
  TeamComment,
  TeamFilter,
  TeamPage,
  TeamRepPage,
  TeamSummary,
} from '@core/teams';
import { apiJson, apiRequest } from '@client/lib/request';

/** The filter as a query string ('' when empty), in a fixed order so cache keys match. */
export function filterQuery(filter: TeamFilter): string {
  const params = new URLSearchParams();
  if (filter.stage) params.set('stage', filter.stage);
  if (filter.from) params.set('from', filter.from);
  if (filter.to) params.set('to', filter.to);
  const q = params.toString();
  return q ? `?${q}` : '';
}

const team = (id: string) => `/api/teams/${encodeURIComponent(id)}`;

export const fetchMyTeams = () => apiJson<MyTeams>('GET', '/api/teams');
export const createTeam = (name: string) => apiJson<TeamSummary>('POST', '/api/teams', { name });
export const deleteTeam = (id: string) => apiRequest('DELETE', team(id));
export const leaveTeam = (id: string) => apiRequest('POST', `${team(id)}/leave`);
export const previewInvite = (token: string) =>
  apiJson<InvitePreview>('POST', '/api/teams/invite', { token });
export const joinTeam = (token: string) =>
  apiJson<TeamSummary>('POST', '/api/teams/join', { token, agree: true });
export const createInvite = (id: string) => apiJson<NewInvite>('POST', `${team(id)}/invites`);
export const revokeInvite = (id: string, inviteId: string) =>
  apiRequest('DELETE', `${team(id)}/invites/${encodeURIComponent(inviteId)}`);
export const fetchTeamPage = (id: string, filter: TeamFilter) =>
  apiJson<TeamPage>('GET', `${team(id)}${filterQuery(filter)}`);
export const fetchRepPage = (id: string, repId: string, filter: TeamFilter) =>
  apiJson<TeamRepPage>('GET', `${team(id)}/reps/${encodeURIComponent(repId)}${filterQuery(filter)}`);
export const fetchTeamCall = (id: string, kind: CallKind, callId: string) =>
  apiJson<TeamCallView>('GET', `${team(id)}/calls/${kind}/${encodeURIComponent(callId)}`);
export const addComment = (id: string, kind: CallKind, callId: string, line: number, text: string) =>
  apiJson<TeamComment>('POST', `${team(id)}/calls/${kind}/${encodeURIComponent(callId)}/comments`, {
    line,
    text,
  });
export const deleteComment = (id: string, commentId: string) =>
  apiRequest('DELETE', `${team(id)}/comments/${encodeURIComponent(commentId)}`);
export const fetchMyComments = (kind: CallKind, callId: string) =>
  apiJson<MyComments>('GET', `/api/account/comments/${kind}/${encodeURIComponent(callId)}`);
export const csvUrl = (id: string, filter: TeamFilter) => `${team(id)}/export.csv${filterQuery(filter)}`;

export const MY_TEAMS_KEY = ['/api/teams'] as const;
export const teamKey = (id: string, filter: TeamFilter = {}) =>
  ['/api/teams', id, filterQuery(filter)] as const;
export const repKey = (id: string, repId: string, filter: TeamFilter) =>
  ['/api/teams', id, 'reps', repId, filterQuery(filter)] as const;
export const callKey = (id: string, kind: CallKind, callId: string) =>
  ['/api/teams', id, 'calls', kind, callId] as const;
export const myCommentsKey = (kind: CallKind, callId: string) =>
  ['/api/account/comments', kind, callId] as const;

/** Where an invite link lands; the token rides in the fragment, so it never reaches logs. */
export function inviteUrl(token: string): string {
  return `${window.location.origin}/join#invite=${token}`;
}

/** An invite token kept while the rep signs in (the sign-in link opens a new page). */
const PENDING_INVITE = 'doorstep.pendingInvite';
export function rememberInvite(token: string): void {
  try {
    window.localStorage.setItem(PENDING_INVITE, token);
  } catch {
    // storage off: the rep opens the invite link again after signing in
  }
}
export function pendingInvite(): string | null {
  try {
    return window.localStorage.getItem(PENDING_INVITE);
  } catch {
    return null;
  }
}
export function forgetInvite(): void {
  try {
    window.localStorage.removeItem(PENDING_INVITE);
  } catch {
    // nothing kept
  }
}
