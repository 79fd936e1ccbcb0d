import { z } from 'zod';
import { SECTION_KEYS, type SectionKey } from './coaching-format';
import { STAGES } from './stages';
import { storableText } from './text';
import { SIGN_IN_TOKEN_PATTERN, type ProgressItem } from './accounts';

/**
 * Teams: a manager's team, invite links, a rep's consent to share practice with the team's
 * managers, the manager's team page and comments pinned to a transcript line (docs/api.md,
 * "Teams"). The shapes that cross between server and client.
 */

export const TEAM_NAME_MAX = 80;
export const COMMENT_MAX = 1000;
/** Days an invite link works for (a manager can revoke it sooner). */
export const INVITE_DAYS = 14;
/** Most calls one rep's page lists (the newest). */
export const TEAM_REP_MAX_CALLS = 500;

export const INVITE_INVALID_MESSAGE =
  'This invite link has expired or was turned off. Ask your manager for a new one.';

export const createTeamSchema = z
  .object({
    name: storableText()
      .trim()
      .min(1, 'Give the team a name.')
      .max(TEAM_NAME_MAX, `A team name is at most ${TEAM_NAME_MAX} characters.`),
  })
  .strict();

export const inviteTokenSchema = z
  .object({ token: z.string().regex(SIGN_IN_TOKEN_PATTERN, INVITE_INVALID_MESSAGE) })
  .strict();

/** Joining needs the rep's explicit agreement, sent as `agree: true`. */
export const joinTeamSchema = z
  .object({
    token: z.string().regex(SIGN_IN_TOKEN_PATTERN, INVITE_INVALID_MESSAGE),
    agree: z.literal(true, { error: 'Tick the box to agree to share your practice with this team.' }),
  })
  .strict();

export const commentSchema = z
  .object({
    line: z.number().int().min(0),
    text: storableText()
      .trim()
      .min(1, 'Write a comment first.')
      .max(COMMENT_MAX, `A comment is at most ${COMMENT_MAX} characters.`),
  })
  .strict();

/** The team page's filters, from its query string: a trade and a date range (YYYY-MM-DD, inclusive). */
export const teamFilterSchema = z.object({
  stage: z.enum(STAGES, { error: `trade must be one of ${STAGES.join(', ')}` }).optional(),
  from: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'from must be a date, YYYY-MM-DD')
    .refine((s) => !Number.isNaN(Date.parse(s)), 'from must be a real date')
    .optional(),
  to: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, 'to must be a date, YYYY-MM-DD')
    .refine((s) => !Number.isNaN(Date.parse(s)), 'to must be a real date')
    .optional(),
});
export type TeamFilter = z.infer<typeof teamFilterSchema>;

export type CallKind = 'roleplay' | 'audio';

export interface TeamSummary {
  id: string;
  name: string;
  role: 'manager' | 'rep';
  /** Reps in the team (managers see this; 0 for a rep's own listing). */
  reps: number;
}

export interface MyTeams {
  teams: TeamSummary[];
}

export interface InviteView {
  id: string;
  createdAt: string;
  expiresAt: string;
}

/** A new invite: the token exists only in this answer (its hash is stored). */
export interface NewInvite extends InviteView {
  token: string;
}

export interface InvitePreview {
  team: { name: string };
  managers: string[];
  /** Already in this team, and how. */
  member: 'manager' | 'rep' | null;
}

export type SectionAverages = Partial<Record<SectionKey, number | null>>;

export interface TeamRepRow {
  id: string;
  email: string;
  joinedAt: string;
  calls: number;
  /** Mean of the section scores over the rep's scored calls, one decimal; null before any. */
  overall: number | null;
  sections: SectionAverages;
  lastAt: string | null;
  /** Mean score per week (the week's Monday, YYYY-MM-DD), oldest first, at most 12 weeks. */
  weekly: { week: string; average: number }[];
}

export interface TeamPage {
  team: { id: string; name: string };
  filter: TeamFilter;
  reps: TeamRepRow[];
  calls: number;
  /** The team's mean per section over every rep's scored calls in the filter. */
  averages: SectionAverages;
  /** Sections from weakest to strongest (only those scored). */
  weakest: { key: SectionKey; title: string; average: number; scores: number }[];
  invites: InviteView[];
}

export interface TeamRepPage {
  team: { id: string; name: string };
  rep: { id: string; email: string; joinedAt: string };
  filter: TeamFilter;
  /** Newest first, at most TEAM_REP_MAX_CALLS. */
  items: ProgressItem[];
  truncated: boolean;
}

export interface TranscriptLine {
  n: number;
  /** rep | other */
  speaker: 'rep' | 'other';
  text: string;
}

export interface TeamComment {
  id: string;
  line: number;
  quote: string;
  text: string;
  author: string | null;
  createdAt: string;
  /** The team it was written in (the rep's view of comments). */
  team: string;
}

export interface TeamCallView {
  team: { id: string; name: string };
  rep: { id: string; email: string };
  kind: CallKind;
  id: string;
  stage: string;
  at: string;
  fileName: string | null;
  lines: TranscriptLine[];
  /** The coaching as the rep may see it (gated sections locked until the call was unlocked). */
  coaching: {
    summary: string;
    best: { title: string; score: number | null; content: string } | null;
    sections: { key: SectionKey; title: string; score: number | null; content: string; locked?: true }[];
  } | null;
  comments: TeamComment[];
}

export interface MyComments {
  comments: TeamComment[];
}

export const SECTION_ORDER: readonly SectionKey[] = SECTION_KEYS;

/**
 * A spreadsheet-safe CSV cell: quoted when needed, and text that a spreadsheet would read as a
 * formula (starting with = + - @, a tab or a carriage return) is prefixed with ' so it stays text.
 */
export function csvCell(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return Number.isFinite(value) ? String(value) : '';
  let text = value;
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) || text !== value ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(cells: (string | number | null | undefined)[]): string {
  return cells.map(csvCell).join(',');
}
