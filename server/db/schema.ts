import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  real,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import type { TranscriptEntry } from '../../core/transcript';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  username: text('username').notNull().unique(),
  password: text('password').notNull(),
});

/** A role-play session. */
export const sessions = pgTable('sessions', {
  id: uuid('id').primaryKey().defaultRandom(),
  stage: text('stage').notNull(),
  startedAt: timestamp('started_at', { withTimezone: true }).notNull().defaultNow(),
  endedAt: timestamp('ended_at', { withTimezone: true }),
  duration: text('duration'),
  transcript: jsonb('transcript')
    .$type<TranscriptEntry[]>()
    .notNull()
    .default(sql`'[]'::jsonb`),
  coaching: text('coaching'),
  /** Which coach engine wrote the coaching, and why (e.g. the LLM fell back to the rubric). */
  coachingEngine: text('coaching_engine'),
  metrics: jsonb('metrics'),
  /** Engines that served the live call (speech-to-text, brain, voice). */
  engines: jsonb('engines'),
});

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
    coaching: text('coaching'),
    coachingEngine: text('coaching_engine'),
    metrics: jsonb('metrics'),
    /** uploaded | transcribing | transcribed | failed */
    status: text('status').notNull().default('uploaded'),
    /** Percent of audio transcribed, 0-100. */
    progress: integer('progress').notNull().default(0),
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
  },
  (t) => [index('audio_sessions_status_idx').on(t.status)],
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
  },
  (t) => [index('jobs_claim_idx').on(t.status, t.runAt), uniqueIndex('jobs_dedupe_idx').on(t.dedupeKey)],
);
