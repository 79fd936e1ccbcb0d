import { and, asc, desc, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/client';
import {
  accounts,
  audioSessions,
  leads,
  sessions,
  teamComments,
  teamInvites,
  teamMembers,
  teams,
} from '../../db/schema';
import { GATED_SECTIONS, SECTION_KEYS } from '../../../core/coaching-format';
import type { CallKind, TeamFilter } from '../../../core/teams';
import type { OwnedPractice } from '../accounts/data';

export interface Membership {
  teamId: string;
  name: string;
  role: 'manager' | 'rep';
}

/** The account's place in a team, or null when it has none. */
export async function findMembership(db: Db, teamId: string, accountId: string): Promise<Membership | null> {
  const rows = await db
    .select({ teamId: teams.id, name: teams.name, role: teamMembers.role })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.accountId, accountId)))
    .limit(1);
  const row = rows[0];
  return row ? { ...row, role: row.role === 'manager' ? 'manager' : 'rep' } : null;
}

/** Every team the account is in, with its rep count. */
export async function listTeamsOf(db: Db, accountId: string) {
  return db
    .select({
      id: teams.id,
      name: teams.name,
      role: teamMembers.role,
      reps: sql<number>`(select count(*)::int from ${teamMembers} r where r.team_id = ${teams.id} and r.role = 'rep')`,
    })
    .from(teamMembers)
    .innerJoin(teams, eq(teams.id, teamMembers.teamId))
    .where(eq(teamMembers.accountId, accountId))
    .orderBy(asc(teams.createdAt));
}

/** A new team with its creator as its manager (one transaction). */
export async function insertTeam(
  db: Db,
  name: string,
  accountId: string,
): Promise<{ id: string; name: string }> {
  return db.transaction(async (tx) => {
    const [team] = await tx
      .insert(teams)
      .values({ name, createdBy: accountId })
      .returning({ id: teams.id, name: teams.name });
    await tx.insert(teamMembers).values({ teamId: team.id, accountId, role: 'manager' });
    return team;
  });
}

export async function deleteTeam(db: Db, teamId: string): Promise<void> {
  await db.delete(teams).where(eq(teams.id, teamId));
}

export async function insertInvite(
  db: Db,
  values: { teamId: string; tokenHash: string; createdBy: string; expiresAt: Date },
) {
  const [row] = await db.insert(teamInvites).values(values).returning();
  return row;
}

/** Invites still usable (not revoked, not expired), newest first. */
export async function listLiveInvites(db: Db, teamId: string) {
  return db
    .select({ id: teamInvites.id, createdAt: teamInvites.createdAt, expiresAt: teamInvites.expiresAt })
    .from(teamInvites)
    .where(
      and(
        eq(teamInvites.teamId, teamId),
        isNull(teamInvites.revokedAt),
        gt(teamInvites.expiresAt, sql`now()`),
      ),
    )
    .orderBy(desc(teamInvites.createdAt));
}

/** Turns an invite off; true when it was this team's and live. */
export async function revokeInvite(db: Db, teamId: string, inviteId: string): Promise<boolean> {
  const rows = await db
    .update(teamInvites)
    .set({ revokedAt: sql`now()` })
    .where(and(eq(teamInvites.id, inviteId), eq(teamInvites.teamId, teamId), isNull(teamInvites.revokedAt)))
    .returning({ id: teamInvites.id });
  return rows.length > 0;
}

/** The team a live invite (by its token's hash) opens, or null. */
export async function findInviteTeam(
  db: Db,
  tokenHash: string,
): Promise<{ id: string; name: string } | null> {
  const rows = await db
    .select({ id: teams.id, name: teams.name })
    .from(teamInvites)
    .innerJoin(teams, eq(teams.id, teamInvites.teamId))
    .where(
      and(
        eq(teamInvites.tokenHash, tokenHash),
        isNull(teamInvites.revokedAt),
        gt(teamInvites.expiresAt, sql`now()`),
      ),
    )
    .limit(1);
  return rows[0] ?? null;
}

export async function managerEmails(db: Db, teamId: string): Promise<string[]> {
  const rows = await db
    .select({ email: accounts.email })
    .from(teamMembers)
    .innerJoin(accounts, eq(accounts.id, teamMembers.accountId))
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, 'manager')))
    .orderBy(asc(teamMembers.joinedAt));
  return rows.map((r) => r.email);
}

/** Adds a rep; an account already in the team keeps its place. */
export async function insertRep(db: Db, teamId: string, accountId: string): Promise<void> {
  await db.insert(teamMembers).values({ teamId, accountId, role: 'rep' }).onConflictDoNothing();
}

/** Removes a rep from a team: from this statement on, the team's pages no longer show their practice. */
export async function deleteRep(db: Db, teamId: string, accountId: string): Promise<boolean> {
  const rows = await db
    .delete(teamMembers)
    .where(
      and(eq(teamMembers.teamId, teamId), eq(teamMembers.accountId, accountId), eq(teamMembers.role, 'rep')),
    )
    .returning({ accountId: teamMembers.accountId });
  return rows.length > 0;
}

/** A current rep of the team, or null. */
export async function findRep(db: Db, teamId: string, repId: string) {
  const rows = await db
    .select({ id: accounts.id, email: accounts.email, joinedAt: teamMembers.joinedAt })
    .from(teamMembers)
    .innerJoin(accounts, eq(accounts.id, teamMembers.accountId))
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.accountId, repId), eq(teamMembers.role, 'rep')))
    .limit(1);
  return rows[0] ?? null;
}

export async function listReps(db: Db, teamId: string) {
  return db
    .select({ id: accounts.id, email: accounts.email, joinedAt: teamMembers.joinedAt })
    .from(teamMembers)
    .innerJoin(accounts, eq(accounts.id, teamMembers.accountId))
    .where(and(eq(teamMembers.teamId, teamId), eq(teamMembers.role, 'rep')))
    .orderBy(asc(accounts.email));
}

/** Date-range bounds of a filter, as UTC instants: `from` inclusive, `to` through its whole day. */
function bounds(filter: TeamFilter): { from: string | null; until: string | null } {
  const until = filter.to ? new Date(Date.parse(`${filter.to}T00:00:00Z`) + 86_400_000).toISOString() : null;
  return { from: filter.from ? `${filter.from}T00:00:00Z` : null, until };
}

function filterSql(filter: TeamFilter, stage: SQL, at: SQL): SQL {
  const { from, until } = bounds(filter);
  const parts: SQL[] = [sql`true`];
  if (filter.stage) parts.push(sql`${stage} = ${filter.stage}`);
  if (from) parts.push(sql`${at} >= ${from}::timestamptz`);
  if (until) parts.push(sql`${at} < ${until}::timestamptz`);
  return sql.join(parts, sql` and `);
}

const rowsOf = (result: unknown): any[] => ((result as any).rows ?? result) as any[];

/** `section_scores[i]` as the rep sees it: a gated section only once the call was unlocked. */
const visibleScores = sql.raw(
  SECTION_KEYS.map(
    (key, i) =>
      `${GATED_SECTIONS.includes(key) ? `case when unlocked then sc[${i + 1}] end` : `sc[${i + 1}]`} as s${i + 1}`,
  ).join(', '),
);
const S = SECTION_KEYS.map((_, i) => `s${i + 1}`);
const sectionAggregates = sql.raw(
  [
    ...S.map((s) => `avg(${s})::float8 as avg_${s}, count(${s})::int as n_${s}`),
    `sum(${S.map((s) => `coalesce(${s}, 0)`).join(' + ')})::float8 as total`,
    `sum(num_nonnulls(${S.join(', ')}))::int as scored`,
  ].join(', '),
);

export interface NumbersRow {
  /** null: the whole team. */
  accountId: string | null;
  /** The week's Monday (YYYY-MM-DD); null: every week. */
  week: string | null;
  calls: number;
  lastAt: string | null;
  /** Per section (SECTION_KEYS order): the mean and how many scores it is over. */
  sections: { average: number | null; n: number }[];
  /** Mean of every visible score. */
  average: number | null;
}

/**
 * The team's current reps' calls in the filter, in one pass: per rep, per rep and week, and
 * over the team, the number of calls, the newest and the mean of each section. Scores come from
 * `section_scores`, which the database keeps from each coaching document, so no document is read.
 */
export async function teamNumbers(db: Db, teamId: string, filter: TeamFilter): Promise<NumbersRow[]> {
  const result = await db.execute(sql`
    with reps as (
      select account_id from ${teamMembers} where team_id = ${teamId} and role = 'rep'
    ), calls as (
      select s.account_id, s.started_at as at, s.section_scores as sc,
          exists (select 1 from ${leads} l where l.session_id = s.id and l.session_kind = 'roleplay') as unlocked
        from ${sessions} s
        where s.account_id in (select account_id from reps) and ${filterSql(filter, sql`s.stage`, sql`s.started_at`)}
      union all
      select a.account_id, a.uploaded_at as at, a.section_scores as sc,
          exists (select 1 from ${leads} l where l.session_id = a.id and l.session_kind = 'audio') as unlocked
        from ${audioSessions} a
        where a.account_id in (select account_id from reps) and ${filterSql(filter, sql`a.stage`, sql`a.uploaded_at`)}
    ), v as (
      select account_id, at, date_trunc('week', at at time zone 'UTC')::date as week, ${visibleScores} from calls
    )
    select account_id, to_char(week, 'YYYY-MM-DD') as week,
        grouping(account_id) as no_rep, grouping(week) as no_week,
        count(*)::int as calls, max(at) as last_at, ${sectionAggregates}
      from v
      group by grouping sets ((account_id), (account_id, week), ())`);
  return rowsOf(result).map((r) => {
    const scored = Number(r.scored ?? 0);
    return {
      accountId: Number(r.no_rep) ? null : String(r.account_id),
      week: Number(r.no_week) ? null : String(r.week),
      calls: Number(r.calls),
      lastAt: r.last_at ? new Date(r.last_at).toISOString() : null,
      sections: S.map((s) => ({
        average: r[`avg_${s}`] === null ? null : Number(r[`avg_${s}`]),
        n: Number(r[`n_${s}`]),
      })),
      average: scored ? Number(r.total) / scored : null,
    };
  });
}

/** One rep's calls in the filter, newest first, at most `limit` of each kind. */
export async function listRepCalls(
  db: Db,
  accountId: string,
  filter: TeamFilter,
  limit: number,
): Promise<OwnedPractice[]> {
  const roleplays = await db
    .select({
      id: sessions.id,
      stage: sessions.stage,
      at: sessions.startedAt,
      coaching: sessions.coaching,
      metrics: sessions.metrics,
      unlocked: sql<boolean>`exists (select 1 from ${leads} where ${and(
        eq(leads.sessionId, sessions.id),
        eq(leads.sessionKind, 'roleplay'),
      )})`,
    })
    .from(sessions)
    .where(
      and(
        eq(sessions.accountId, accountId),
        filterSql(filter, sql`${sessions.stage}`, sql`${sessions.startedAt}`),
      ),
    )
    .orderBy(desc(sessions.startedAt))
    .limit(limit);
  const recordings = await db
    .select({
      id: audioSessions.id,
      stage: audioSessions.stage,
      at: audioSessions.uploadedAt,
      fileName: audioSessions.fileName,
      coaching: audioSessions.coaching,
      metrics: audioSessions.metrics,
      unlocked: sql<boolean>`exists (select 1 from ${leads} where ${and(
        eq(leads.sessionId, audioSessions.id),
        eq(leads.sessionKind, 'audio'),
      )})`,
    })
    .from(audioSessions)
    .where(
      and(
        eq(audioSessions.accountId, accountId),
        filterSql(filter, sql`${audioSessions.stage}`, sql`${audioSessions.uploadedAt}`),
      ),
    )
    .orderBy(desc(audioSessions.uploadedAt))
    .limit(limit);
  return [
    ...roleplays.map((r) => ({
      ...r,
      kind: 'roleplay' as const,
      fileName: null,
      unlocked: Boolean(r.unlocked),
    })),
    ...recordings.map((r) => ({ ...r, kind: 'audio' as const, unlocked: Boolean(r.unlocked) })),
  ].sort((a, b) => b.at.getTime() - a.at.getTime());
}

export interface CsvCall {
  email: string;
  kind: CallKind;
  stage: string;
  at: Date;
  fileName: string | null;
  /** Section scores as the rep sees them (SECTION_KEYS order; gated ones null until unlocked). */
  scores: (number | null)[];
  talkRatio: number | null;
  questions: number | null;
}

const numberAt = (column: SQL, key: string, inner?: string) => {
  const path = inner ? sql`${column}->${key}->${inner}` : sql`${column}->${key}`;
  return sql`case when jsonb_typeof(${path}) = 'number' then (${path})::text::float8 end`;
};

/**
 * Every current rep's calls in the filter for the CSV, by rep then newest first: one query that
 * reads `section_scores` and two numbers of the metrics, never a whole coaching document.
 */
export async function listTeamCalls(db: Db, teamId: string, filter: TeamFilter): Promise<CsvCall[]> {
  const result = await db.execute(sql`
    with reps as (
      select m.account_id, a.email from ${teamMembers} m join ${accounts} a on a.id = m.account_id
        where m.team_id = ${teamId} and m.role = 'rep'
    )
    select r.email, c.* from (
      select s.account_id, 'roleplay' as kind, s.stage, s.started_at as at, null as file_name,
          s.section_scores as sc, ${numberAt(sql`s.metrics`, 'talkRatioWordsPercent')} as talk,
          ${numberAt(sql`s.metrics`, 'questions', 'total')} as questions,
          exists (select 1 from ${leads} l where l.session_id = s.id and l.session_kind = 'roleplay') as unlocked
        from ${sessions} s
        where s.account_id in (select account_id from reps) and ${filterSql(filter, sql`s.stage`, sql`s.started_at`)}
      union all
      select a.account_id, 'audio', a.stage, a.uploaded_at, a.file_name,
          a.section_scores, ${numberAt(sql`a.metrics`, 'talkRatioWordsPercent')},
          ${numberAt(sql`a.metrics`, 'questions', 'total')},
          exists (select 1 from ${leads} l where l.session_id = a.id and l.session_kind = 'audio')
        from ${audioSessions} a
        where a.account_id in (select account_id from reps) and ${filterSql(filter, sql`a.stage`, sql`a.uploaded_at`)}
    ) c join reps r on r.account_id = c.account_id
    order by r.email, c.at desc`);
  return rowsOf(result).map((r) => {
    const sc = Array.isArray(r.sc) ? r.sc : [];
    return {
      email: String(r.email),
      kind: r.kind === 'audio' ? 'audio' : 'roleplay',
      stage: String(r.stage),
      at: new Date(r.at),
      fileName: r.file_name ?? null,
      scores: SECTION_KEYS.map((key, i) => {
        const v = sc[i];
        if (typeof v !== 'number' || (!r.unlocked && GATED_SECTIONS.includes(key))) return null;
        return v;
      }),
      talkRatio: r.talk === null ? null : Number(r.talk),
      questions: r.questions === null ? null : Number(r.questions),
    };
  });
}

export interface CallRecord {
  kind: CallKind;
  id: string;
  accountId: string | null;
  stage: string;
  at: Date;
  fileName: string | null;
  transcript: unknown;
  speakersSwapped: boolean;
  coaching: unknown;
  unlocked: boolean;
}

/** A role-play or recording by id, with its owner and gate state. */
export async function findCall(db: Db, kind: CallKind, id: string): Promise<CallRecord | null> {
  if (kind === 'roleplay') {
    const rows = await db
      .select({
        id: sessions.id,
        accountId: sessions.accountId,
        stage: sessions.stage,
        at: sessions.startedAt,
        transcript: sessions.transcript,
        coaching: sessions.coaching,
        unlocked: sql<boolean>`exists (select 1 from ${leads} where ${and(
          eq(leads.sessionId, sessions.id),
          eq(leads.sessionKind, 'roleplay'),
        )})`,
      })
      .from(sessions)
      .where(eq(sessions.id, id))
      .limit(1);
    const r = rows[0];
    return r ? { ...r, kind, fileName: null, speakersSwapped: false, unlocked: Boolean(r.unlocked) } : null;
  }
  const rows = await db
    .select({
      id: audioSessions.id,
      accountId: audioSessions.accountId,
      stage: audioSessions.stage,
      at: audioSessions.uploadedAt,
      fileName: audioSessions.fileName,
      transcript: audioSessions.transcript,
      speakersSwapped: audioSessions.speakersSwapped,
      coaching: audioSessions.coaching,
      unlocked: sql<boolean>`exists (select 1 from ${leads} where ${and(
        eq(leads.sessionId, audioSessions.id),
        eq(leads.sessionKind, 'audio'),
      )})`,
    })
    .from(audioSessions)
    .where(eq(audioSessions.id, id))
    .limit(1);
  const r = rows[0];
  return r ? { ...r, kind, unlocked: Boolean(r.unlocked) } : null;
}

export async function insertComment(
  db: Db,
  values: {
    teamId: string;
    sessionKind: CallKind;
    sessionId: string;
    line: number;
    quote: string;
    authorId: string;
    body: string;
  },
) {
  const [row] = await db.insert(teamComments).values(values).returning();
  return row;
}

/** Comments on one call, oldest first; only a team's own when `teamId` is given. */
export async function listComments(db: Db, kind: CallKind, sessionId: string, teamId?: string) {
  return db
    .select({
      id: teamComments.id,
      line: teamComments.line,
      quote: teamComments.quote,
      text: teamComments.body,
      author: accounts.email,
      createdAt: teamComments.createdAt,
      team: teams.name,
    })
    .from(teamComments)
    .innerJoin(teams, eq(teams.id, teamComments.teamId))
    .leftJoin(accounts, eq(accounts.id, teamComments.authorId))
    .where(
      and(
        eq(teamComments.sessionId, sessionId),
        eq(teamComments.sessionKind, kind),
        teamId ? eq(teamComments.teamId, teamId) : undefined,
      ),
    )
    .orderBy(asc(teamComments.line), asc(teamComments.createdAt));
}

/** Deletes a comment the account wrote in the team; true when there was one. */
export async function deleteComment(
  db: Db,
  teamId: string,
  commentId: string,
  authorId: string,
): Promise<boolean> {
  const rows = await db
    .delete(teamComments)
    .where(
      and(
        eq(teamComments.id, commentId),
        eq(teamComments.teamId, teamId),
        eq(teamComments.authorId, authorId),
      ),
    )
    .returning({ id: teamComments.id });
  return rows.length > 0;
}
