import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  smallint,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TranscriptEntry } from '../../core/transcript';
import type { StoredCoaching } from '../../core/coaching-document';
import { SECTION_KEYS } from '../../core/coaching-format';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** One section's score in a stored coaching document (an integer 0-10), or null. */
const sectionScore = (key: string) =>
  `(jsonb_path_query_first(coaching, '$.sections[*] ? (@.key == "${key}").score ? (@.type() == "number" && @ >= 0 && @ <= 10)'))::smallint`;

/**
 * The six section scores of a row's coaching, in SECTION_KEYS order (core/coaching-format.ts),
 * kept by the database from the coaching column: the team page averages thousands of calls
 * without reading their documents. Null entries: not scored (or a legacy text document).
 */
const sectionScores = () =>
  smallint('section_scores')
    .array()
    .generatedAlwaysAs(sql.raw(`array[${SECTION_KEYS.map(sectionScore).join(', ')}]`));

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  username: text('username').notNull().unique(),
  password: text('password').notNull(),
});

/**
 * A rep who signed in by an emailed link (no password). Optional: practice works without one.
 * `email` is stored lower-cased and trimmed; it is the account's only identity.
 */
export const accounts = pgTable('accounts', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  createdAt: createdAt(),
});

/**
 * Emailed sign-in links: only the SHA-256 of the token is kept, so a copy of the table signs
 * nobody in. Single use (`used_at` set by the one statement that accepts it), 15 minutes.
 */
export const signInLinks = pgTable(
  'sign_in_links',
  {
    tokenHash: text('token_hash').primaryKey(),
    email: text('email').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('sign_in_links_expires_idx').on(t.expiresAt)],
);

/** A signed-in browser: the SHA-256 of its cookie's random id, never the id itself. */
export const accountSessions = pgTable(
  'account_sessions',
  {
    idHash: text('id_hash').primaryKey(),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('account_sessions_account_idx').on(t.accountId)],
);

/** A role-play session. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    stage: text('stage').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    duration: text('duration'),
    transcript: jsonb('transcript')
      .$type<TranscriptEntry[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The coaching document (core/coaching-document.ts); older rows hold `{legacyText}`. */
    coaching: jsonb('coaching').$type<StoredCoaching>(),
    /** Which coach engine wrote the coaching, and why (e.g. the LLM fell back to the rubric). */
    coachingEngine: text('coaching_engine'),
    metrics: jsonb('metrics'),
    /** Engines that served the live call (speech-to-text, brain, voice). */
    engines: jsonb('engines'),
    /**
     * A new random version at every transcript save: a coaching job carries the version it was
     * queued for and stores nothing when the transcript has changed since.
     */
    transcriptVersion: text('transcript_version'),
    /** When a live call on this server started for the session (its save is awaited by coaching). */
    callStartedAt: timestamp('call_started_at', { withTimezone: true }),
    /** The signed-in rep it belongs to (made while signed in, or claimed from the device after). */
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** SHA-256 of the device cookie of the browser that made it: what a later claim is checked against. */
    deviceKey: text('device_key'),
    sectionScores: sectionScores(),
  },
  (t) => [
    // The account's rows by time, with what the team page reads: an index-only scan there.
    index('sessions_account_idx').on(t.accountId, t.startedAt, t.id, t.stage, t.sectionScores),
    index('sessions_device_idx').on(t.deviceKey),
  ],
);

/** An uploaded call recording and its processing state. */
export const audioSessions = pgTable(
  'audio_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    fileName: text('file_name').notNull(),
    stage: text('stage').notNull(),
    uploadedAt: timestamp('uploaded_at', { withTimezone: true }).notNull().defaultNow(),
    transcript: jsonb('transcript')
      .$type<TranscriptEntry[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    /** The coaching document (core/coaching-document.ts); older rows hold `{legacyText}`. */
    coaching: jsonb('coaching').$type<StoredCoaching>(),
    coachingEngine: text('coaching_engine'),
    metrics: jsonb('metrics'),
    /** uploaded | transcribing | transcribed | failed */
    status: text('status').notNull().default('uploaded'),
    /** Percent of the whole processing done (every step, weighted by its expected time), 0-100. */
    progress: integer('progress').notNull().default(0),
    /** The processing step under way (core/processing.ts), null before it starts and once done. */
    step: text('step'),
    /** When the current processing run started, and how long it is expected to take (ms). */
    processingStartedAt: timestamp('processing_started_at', { withTimezone: true }),
    expectedMs: integer('expected_ms'),
    /** Waiting its turn until then: its client's hourly minutes of audio are spent (AUDIO_MINUTES_PER_HOUR). */
    waitsUntil: timestamp('waits_until', { withTimezone: true }),
    /** A new random version at every transcript change (transcription, speaker swap); see sessions. */
    transcriptVersion: text('transcript_version'),
    error: text('error'),
    /** Random storage key; the user's file name is data only, never a path. */
    storageKey: text('storage_key').notNull(),
    mimeType: text('mime_type'),
    sizeBytes: integer('size_bytes').notNull().default(0),
    durationMs: integer('duration_ms'),
    channels: integer('channels'),
    /** How speakers were told apart: stereo | turns | single */
    attribution: text('attribution'),
    speakersSwapped: boolean('speakers_swapped').notNull().default(false),
    sttEngine: text('stt_engine'),
    realTimeFactor: real('real_time_factor'),
    /** The signed-in rep it belongs to; see sessions. */
    accountId: uuid('account_id').references(() => accounts.id, { onDelete: 'set null' }),
    /** SHA-256 of the uploading browser's device cookie; see sessions. */
    deviceKey: text('device_key'),
    /** See sessions. */
    sectionScores: sectionScores(),
  },
  (t) => [
    index('audio_sessions_status_idx').on(t.status),
    index('audio_sessions_account_idx').on(t.accountId, t.uploadedAt, t.id, t.stage, t.sectionScores),
    index('audio_sessions_device_idx').on(t.deviceKey),
  ],
);

export const feedback = pgTable('feedback', {
  id: uuid('id').primaryKey().defaultRandom(),
  sessionId: uuid('session_id').references(() => sessions.id, { onDelete: 'set null' }),
  name: text('name').notNull(),
  email: text('email').notNull(),
  submittedAt: timestamp('submitted_at', { withTimezone: true }).notNull().defaultNow(),
  /** queued | sent | failed */
  emailStatus: text('email_status').notNull().default('queued'),
  emailSentAt: timestamp('email_sent_at', { withTimezone: true }),
  emailMessageId: text('email_message_id'),
});

/** Emails captured by the coaching gate. */
export const leads = pgTable(
  'leads',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    sessionId: uuid('session_id'),
    /** roleplay | audio */
    sessionKind: text('session_kind').notNull().default('roleplay'),
    email: text('email').notNull(),
    name: text('name'),
    consent: boolean('consent').notNull().default(false),
    /** builtin | hubspot */
    source: text('source').notNull().default('builtin'),
    createdAt: createdAt(),
  },
  (t) => [index('leads_session_idx').on(t.sessionId)],
);

/** Emails kept when no SMTP server is configured, viewable at /outbox in development. */
export const outbox = pgTable('outbox', {
  id: uuid('id').primaryKey().defaultRandom(),
  feedbackId: uuid('feedback_id'),
  toAddress: text('to_address').notNull(),
  fromAddress: text('from_address').notNull(),
  subject: text('subject').notNull(),
  text: text('text').notNull(),
  html: text('html').notNull(),
  createdAt: createdAt(),
});

/** Durable background jobs (transcription, coaching, email), claimed with FOR UPDATE SKIP LOCKED. */
export const jobs = pgTable(
  'jobs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    /** queued | running | done | failed */
    status: text('status').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(5),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    lockedBy: text('locked_by'),
    lastError: text('last_error'),
    /** At most one live job per key (e.g. one transcription per upload). */
    dedupeKey: text('dedupe_key'),
    createdAt: createdAt(),
    finishedAt: timestamp('finished_at', { withTimezone: true }),
    /**
     * Whose work this is (a pseudonym of the client address that asked for it), for the queue's
     * fair share: per-owner caps and round-robin claiming. Null for the server's own jobs.
     */
    ownerKey: text('owner_key'),
    /** When the job was last claimed (round-robin serves the owner served longest ago first). */
    startedAt: timestamp('started_at', { withTimezone: true }),
    /** What the job costs its owner's hourly budget (a recording's length in ms), once known. */
    cost: integer('cost'),
    /** Results of the job's named steps that finished, so a retried run does not redo them. */
    steps: jsonb('steps')
      .$type<Record<string, unknown>>()
      .notNull()
      .default(sql`'{}'::jsonb`),
  },
  (t) => [
    index('jobs_claim_idx').on(t.status, t.runAt),
    uniqueIndex('jobs_dedupe_idx').on(t.dedupeKey),
    index('jobs_owner_idx').on(t.ownerKey, t.status),
  ],
);

/*
 * Per-address limits shared by every process on one PostgreSQL database
 * (server/limits/pg-store.ts). Counters only: the migration creates them UNLOGGED (no WAL; a
 * database crash empties them, which forgets allowances rather than data).
 */

/** One slot a client address holds (a call), taken by one process until released or its lease ends. */
export const limitSlots = pgTable(
  'limit_slots',
  {
    key: text('key').notNull(),
    /** 0 .. max-1: the unique (key, slot) pair is what keeps concurrent takers under the cap. */
    slot: integer('slot').notNull(),
    /** The process holding it; it renews the lease while alive. */
    holder: text('holder').notNull(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.key, t.slot] })],
);

/** Events counted in a sliding window (wrong operator tokens), one row each. */
export const limitEvents = pgTable(
  'limit_events',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    key: text('key').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull(),
    /** When the event leaves the longest window it was counted in (swept after). */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('limit_events_key_idx').on(t.key, t.at), index('limit_events_expires_idx').on(t.expiresAt)],
);

/** Requests to a rate-limited route per client address in a fixed window (@fastify/rate-limit). */
export const limitCounters = pgTable('limit_counters', {
  key: text('key').primaryKey(),
  hits: integer('hits').notNull(),
  resetsAt: timestamp('resets_at', { withTimezone: true }).notNull(),
});

/**
 * A manager's team. Reps join by an invite link and, while they are members, share their
 * practice (scores, transcripts, coaching) with the team's managers; leaving ends that at once.
 */
export const teams = pgTable('teams', {
  id: uuid('id').primaryKey().defaultRandom(),
  name: text('name').notNull(),
  createdBy: uuid('created_by')
    .notNull()
    .references(() => accounts.id, { onDelete: 'cascade' }),
  createdAt: createdAt(),
});

/** Who is in a team: `manager` (sees the reps' practice) or `rep` (agreed to share it). */
export const teamMembers = pgTable(
  'team_members',
  {
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    accountId: uuid('account_id')
      .notNull()
      .references(() => accounts.id, { onDelete: 'cascade' }),
    /** manager | rep */
    role: text('role').notNull(),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.teamId, t.accountId] }),
    index('team_members_account_idx').on(t.accountId),
  ],
);

/**
 * Invite links: only the SHA-256 of the token is kept. Usable by many reps until it expires or
 * a manager revokes it.
 */
export const teamInvites = pgTable(
  'team_invites',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    tokenHash: text('token_hash').notNull().unique(),
    createdBy: uuid('created_by').references(() => accounts.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('team_invites_team_idx').on(t.teamId)],
);

/**
 * A manager's comment pinned to one line of a rep's call. `quote` keeps the line as it read
 * when the comment was written. The rep sees it on that call's results.
 */
export const teamComments = pgTable(
  'team_comments',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    teamId: uuid('team_id')
      .notNull()
      .references(() => teams.id, { onDelete: 'cascade' }),
    /** roleplay | audio */
    sessionKind: text('session_kind').notNull(),
    sessionId: uuid('session_id').notNull(),
    /** The line's position in the call's transcript as shown (0-based). */
    line: integer('line').notNull(),
    quote: text('quote').notNull(),
    authorId: uuid('author_id').references(() => accounts.id, { onDelete: 'set null' }),
    body: text('body').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('team_comments_session_idx').on(t.sessionId, t.sessionKind)],
);
