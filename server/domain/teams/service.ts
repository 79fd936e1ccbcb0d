import { SECTION_KEYS, SECTION_TITLES } from '../../../core/coaching-format';
import { gateDocument, storedDocument } from '../../../core/coaching-document';
import { isUuid } from '../../../core/ids';
import { finalEntries, type TranscriptEntry } from '../../../core/transcript';
import {
  csvRow,
  INVITE_DAYS,
  INVITE_INVALID_MESSAGE,
  TEAM_REP_MAX_CALLS,
  type CallKind,
  type InvitePreview,
  type MyComments,
  type MyTeams,
  type NewInvite,
  type SectionAverages,
  type TeamCallView,
  type TeamComment,
  type TeamFilter,
  type TeamPage,
  type TeamRepPage,
  type TeamRepRow,
  type TranscriptLine,
} from '../../../core/teams';
import type { AppContext } from '../../context';
import { HttpError, notFound } from '../../errors';
import { applySwap } from '../../transcription/attribution';
import type { SignedIn } from '../accounts/data';
import { progressItem } from '../accounts/service';
import { hashSecret, randomToken } from '../accounts/tokens';
import {
  deleteComment,
  deleteRep,
  deleteTeam,
  findCall,
  findInviteTeam,
  findMembership,
  findRep,
  insertComment,
  insertInvite,
  insertRep,
  insertTeam,
  listComments,
  listLiveInvites,
  listRepCalls,
  listReps,
  listTeamCalls,
  listTeamsOf,
  managerEmails,
  revokeInvite,
  teamNumbers,
  type Membership,
  type NumbersRow,
} from './data';

/**
 * Who may see what (docs/SECURITY.md, "Teams"): a team's pages answer its managers only; a rep's
 * practice shows there only while the rep is a member; anyone else gets the same 404 whether or
 * not the team, rep, call or invite exists.
 */
const teamNotFound = () => notFound('Team');
const inviteInvalid = () => new HttpError(404, 'invite_invalid', INVITE_INVALID_MESSAGE);

const round1 = (n: number) => Math.round(n * 10) / 10;

/** The team, when the account manages it; otherwise the same 404 as for a team that does not exist. */
export async function requireManager(
  ctx: AppContext,
  account: SignedIn,
  teamId: string,
): Promise<Membership> {
  if (!isUuid(teamId)) throw teamNotFound();
  const m = await findMembership(ctx.database.db, teamId, account.accountId);
  if (!m || m.role !== 'manager') throw teamNotFound();
  return m;
}

export async function myTeams(ctx: AppContext, account: SignedIn): Promise<MyTeams> {
  const rows = await listTeamsOf(ctx.database.db, account.accountId);
  return {
    teams: rows.map((r) => ({
      id: r.id,
      name: r.name,
      role: r.role === 'manager' ? 'manager' : 'rep',
      // A rep is not told who else is in the team.
      reps: r.role === 'manager' ? Number(r.reps) : 0,
    })),
  };
}

export async function createTeam(ctx: AppContext, account: SignedIn, name: string) {
  const team = await insertTeam(ctx.database.db, name, account.accountId);
  return { id: team.id, name: team.name, role: 'manager' as const, reps: 0 };
}

export async function removeTeam(ctx: AppContext, account: SignedIn, teamId: string): Promise<void> {
  await requireManager(ctx, account, teamId);
  await deleteTeam(ctx.database.db, teamId);
}

/** A new invite link's token: shown once, stored only as its hash. */
export async function createInvite(ctx: AppContext, account: SignedIn, teamId: string): Promise<NewInvite> {
  await requireManager(ctx, account, teamId);
  const token = randomToken();
  const row = await insertInvite(ctx.database.db, {
    teamId,
    tokenHash: hashSecret(token),
    createdBy: account.accountId,
    expiresAt: new Date(Date.now() + INVITE_DAYS * 86_400_000),
  });
  return {
    id: row.id,
    createdAt: row.createdAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    token,
  };
}

export async function turnOffInvite(
  ctx: AppContext,
  account: SignedIn,
  teamId: string,
  inviteId: string,
): Promise<void> {
  await requireManager(ctx, account, teamId);
  if (!isUuid(inviteId) || !(await revokeInvite(ctx.database.db, teamId, inviteId))) {
    throw notFound('Invite');
  }
}

/** What an invite link opens, for the consent screen; nothing when it is not live. */
export async function previewInvite(
  ctx: AppContext,
  account: SignedIn,
  token: string,
): Promise<InvitePreview> {
  const db = ctx.database.db;
  const team = await findInviteTeam(db, hashSecret(token));
  if (!team) throw inviteInvalid();
  const m = await findMembership(db, team.id, account.accountId);
  return { team: { name: team.name }, managers: await managerEmails(db, team.id), member: m?.role ?? null };
}

/** Joins a team as a rep, after agreeing to share practice with its managers. */
export async function joinTeam(ctx: AppContext, account: SignedIn, token: string) {
  const db = ctx.database.db;
  const team = await findInviteTeam(db, hashSecret(token));
  if (!team) throw inviteInvalid();
  const m = await findMembership(db, team.id, account.accountId);
  if (m?.role === 'manager') {
    throw new HttpError(409, 'already_manager', 'You manage this team, so you can’t join it as a rep.');
  }
  await insertRep(db, team.id, account.accountId);
  return { id: team.id, name: team.name, role: 'rep' as const, reps: 0 };
}

/** Leaves a team: the team's managers stop seeing the rep's practice from this moment. */
export async function leaveTeam(ctx: AppContext, account: SignedIn, teamId: string): Promise<void> {
  if (!isUuid(teamId) || !(await deleteRep(ctx.database.db, teamId, account.accountId))) throw teamNotFound();
}

export function parseFilter(filter: TeamFilter): TeamFilter {
  if (filter.from && filter.to && filter.from > filter.to) {
    throw new HttpError(400, 'bad_request', 'The start date is after the end date.');
  }
  return filter;
}

function averagesOf(row: NumbersRow | undefined): SectionAverages {
  const out: SectionAverages = {};
  SECTION_KEYS.forEach((key, i) => {
    const average = row?.sections[i]?.average;
    out[key] = typeof average === 'number' ? round1(average) : null;
  });
  return out;
}

/** The manager's team page: every current rep's numbers and the team's per section, in the filter. */
export async function teamPage(
  ctx: AppContext,
  account: SignedIn,
  teamId: string,
  filter: TeamFilter,
): Promise<TeamPage> {
  const team = await requireManager(ctx, account, teamId);
  const db = ctx.database.db;
  const [reps, numbers, invites] = await Promise.all([
    listReps(db, teamId),
    teamNumbers(db, teamId, filter),
    listLiveInvites(db, teamId),
  ]);
  const rows: TeamRepRow[] = reps.map((rep) => {
    const mine = numbers.filter((n) => n.accountId === rep.id);
    const all = mine.find((n) => n.week === null);
    return {
      id: rep.id,
      email: rep.email,
      joinedAt: rep.joinedAt.toISOString(),
      calls: all?.calls ?? 0,
      overall: typeof all?.average === 'number' ? round1(all.average) : null,
      sections: averagesOf(all),
      lastAt: all?.lastAt ?? null,
      weekly: mine
        .flatMap((n) =>
          n.week !== null && typeof n.average === 'number'
            ? [{ week: n.week, average: round1(n.average) }]
            : [],
        )
        .sort((a, b) => a.week.localeCompare(b.week))
        .slice(-12),
    };
  });
  const whole = numbers.find((n) => n.accountId === null && n.week === null);
  const weakest = SECTION_KEYS.flatMap((key, i) => {
    const s = whole?.sections[i];
    return s && typeof s.average === 'number' && s.n > 0
      ? [{ key, title: SECTION_TITLES[key], average: round1(s.average), scores: s.n }]
      : [];
  }).sort((a, b) => a.average - b.average || SECTION_KEYS.indexOf(a.key) - SECTION_KEYS.indexOf(b.key));
  return {
    team: { id: team.teamId, name: team.name },
    filter,
    reps: rows,
    calls: rows.reduce((n, r) => n + r.calls, 0),
    averages: averagesOf(whole),
    weakest,
    invites: invites.map((i) => ({
      id: i.id,
      createdAt: i.createdAt.toISOString(),
      expiresAt: i.expiresAt.toISOString(),
    })),
  };
}

async function requireRep(ctx: AppContext, teamId: string, repId: string) {
  if (!isUuid(repId)) throw notFound('Rep');
  const rep = await findRep(ctx.database.db, teamId, repId);
  if (!rep) throw notFound('Rep');
  return rep;
}

/** One rep's calls with their scores, for the manager. */
export async function repPage(
  ctx: AppContext,
  account: SignedIn,
  teamId: string,
  repId: string,
  filter: TeamFilter,
): Promise<TeamRepPage> {
  const team = await requireManager(ctx, account, teamId);
  const rep = await requireRep(ctx, teamId, repId);
  const rows = await listRepCalls(ctx.database.db, rep.id, filter, TEAM_REP_MAX_CALLS + 1);
  return {
    team: { id: team.teamId, name: team.name },
    rep: { id: rep.id, email: rep.email, joinedAt: rep.joinedAt.toISOString() },
    filter,
    items: rows.slice(0, TEAM_REP_MAX_CALLS).map(progressItem),
    truncated: rows.length > TEAM_REP_MAX_CALLS,
  };
}

/** The transcript's lines as the call's pages number them: final entries with words, in order. */
export function transcriptLines(transcript: unknown, swapped: boolean): TranscriptLine[] {
  const entries = Array.isArray(transcript) ? (transcript as TranscriptEntry[]) : [];
  return finalEntries(applySwap(entries, swapped))
    .filter((e) => typeof e.transcript === 'string' && e.transcript.trim())
    .map((e, n) => ({ n, speaker: e.role === 'user' ? 'rep' : 'other', text: e.transcript.trim() }));
}

function commentView(c: Awaited<ReturnType<typeof listComments>>[number]): TeamComment {
  return {
    id: c.id,
    line: c.line,
    quote: c.quote,
    text: c.text,
    author: c.author ?? null,
    createdAt: c.createdAt.toISOString(),
    team: c.team,
  };
}

const isKind = (kind: string): kind is CallKind => kind === 'roleplay' || kind === 'audio';

/** A call of a current rep of the team, or the same 404 as for one that does not exist. */
async function requireTeamCall(ctx: AppContext, teamId: string, kind: string, callId: string) {
  if (!isKind(kind) || !isUuid(callId)) throw notFound('Call');
  const call = await findCall(ctx.database.db, kind, callId);
  if (!call?.accountId) throw notFound('Call');
  const rep = await findRep(ctx.database.db, teamId, call.accountId);
  if (!rep) throw notFound('Call');
  return { call, rep };
}

/** A rep's call, read-only, with its transcript lines, its coaching and the team's comments. */
export async function teamCall(
  ctx: AppContext,
  account: SignedIn,
  teamId: string,
  kind: string,
  callId: string,
): Promise<TeamCallView> {
  const team = await requireManager(ctx, account, teamId);
  const { call, rep } = await requireTeamCall(ctx, teamId, kind, callId);
  const doc = storedDocument(call.coaching);
  const comments = await listComments(ctx.database.db, call.kind, call.id, teamId);
  return {
    team: { id: team.teamId, name: team.name },
    rep: { id: rep.id, email: rep.email },
    kind: call.kind,
    id: call.id,
    stage: call.stage,
    at: call.at.toISOString(),
    fileName: call.fileName,
    lines: transcriptLines(call.transcript, call.speakersSwapped),
    coaching: doc ? gateDocument(doc, call.unlocked) : null,
    comments: comments.map(commentView),
  };
}

/** A manager's comment pinned to one transcript line of a rep's call. */
export async function addComment(
  ctx: AppContext,
  account: SignedIn,
  teamId: string,
  kind: string,
  callId: string,
  input: { line: number; text: string },
): Promise<TeamComment> {
  const team = await requireManager(ctx, account, teamId);
  const { call } = await requireTeamCall(ctx, teamId, kind, callId);
  const line = transcriptLines(call.transcript, call.speakersSwapped)[input.line];
  if (!line) throw new HttpError(400, 'bad_request', 'That line is not in this call’s transcript.');
  const row = await insertComment(ctx.database.db, {
    teamId,
    sessionKind: call.kind,
    sessionId: call.id,
    line: input.line,
    quote: line.text.slice(0, 500),
    authorId: account.accountId,
    body: input.text,
  });
  return {
    id: row.id,
    line: row.line,
    quote: row.quote,
    text: row.body,
    author: account.email,
    createdAt: row.createdAt.toISOString(),
    team: team.name,
  };
}

export async function removeComment(
  ctx: AppContext,
  account: SignedIn,
  teamId: string,
  commentId: string,
): Promise<void> {
  await requireManager(ctx, account, teamId);
  if (!isUuid(commentId) || !(await deleteComment(ctx.database.db, teamId, commentId, account.accountId))) {
    throw notFound('Comment');
  }
}

/** Comments on the signed-in rep's own call (from every team that wrote them); 404 for anyone else's. */
export async function myComments(
  ctx: AppContext,
  account: SignedIn,
  kind: string,
  callId: string,
): Promise<MyComments> {
  if (!isKind(kind) || !isUuid(callId)) throw notFound('Call');
  const call = await findCall(ctx.database.db, kind, callId);
  if (!call || call.accountId !== account.accountId) throw notFound('Call');
  const comments = await listComments(ctx.database.db, kind, callId);
  return { comments: comments.map(commentView) };
}

export const CSV_HEADER = [
  'Rep',
  'Kind',
  'Trade',
  'Date',
  'File',
  'Overall',
  ...SECTION_KEYS.map((k) => SECTION_TITLES[k]),
  'Talk share %',
  'Questions',
];

/** The team's calls in the filter as CSV (formula-safe cells), one row per call, by rep then newest first. */
export async function teamCsv(
  ctx: AppContext,
  account: SignedIn,
  teamId: string,
  filter: TeamFilter,
): Promise<{ name: string; csv: string }> {
  const team = await requireManager(ctx, account, teamId);
  const rows = await listTeamCalls(ctx.database.db, teamId, filter);
  const lines = [csvRow(CSV_HEADER)];
  for (const row of rows) {
    const known = row.scores.filter((v): v is number => v !== null);
    const overall =
      known.length === SECTION_KEYS.length ? round1(known.reduce((a, b) => a + b, 0) / known.length) : null;
    lines.push(
      csvRow([
        row.email,
        row.kind === 'roleplay' ? 'Role-play' : 'Call analysis',
        row.stage,
        row.at.toISOString(),
        row.fileName,
        overall,
        ...row.scores,
        row.talkRatio,
        row.questions,
      ]),
    );
  }
  return { name: team.name, csv: `${lines.join('\r\n')}\r\n` };
}
