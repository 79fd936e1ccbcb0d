import { parseCoaching, type CoachingDocument } from '../../../core/coaching-format';
import type { InsertFeedback } from '../../../core/schemas';
import { personaFor } from '../../../core/stages';
import { finalEntries } from '../../../core/transcript';
import { coachTranscript } from '../coaching/service';
import { rolePlayContext } from '../coaching/context';
import type { AppContext } from '../../context';
import { renderCoachingSummaryEmail } from '../../email/coaching-summary';
import { keyMetrics } from '../../email/key-metrics';
import { badRequest, notFound } from '../../errors';
import { defineJob, enqueue, requeueJob, PermanentJobError, type JobRun } from '../../jobs/queue';
import { PermanentMailError } from '../../providers/mailer/smtp';
import type { Db } from '../../db/client';
import {
  feedbackAwaitingDelivery,
  getFeedback,
  getSessionForSummary,
  roleplaySessionExists,
  type FeedbackRow,
  type SummarySession,
} from './data';
import { createFeedbackWithJob, markFeedbackFailed, markFeedbackQueued, markFeedbackSent } from './mutations';
import { cleanEmail, cleanName } from './sanitize';
import { z } from 'zod';
import { UUID_PATTERN } from '../../../core/ids';

export const FEEDBACK_EMAIL_JOB = 'feedback-email';
/** One email job per submission, ever: the queue ignores a second enqueue with the same key. */
export const feedbackEmailDedupeKey = (feedbackId: string) => `feedback-email:${feedbackId}`;
/** With the queue's backoff (1 s doubling to a 60 s cap) this rides out about 25 minutes of outage. */
export const FEEDBACK_EMAIL_MAX_ATTEMPTS = 30;

export interface FeedbackResponse {
  id: string;
  sessionId: string | null;
  name: string;
  email: string;
  submittedAt: string;
}

export function toFeedbackResponse(row: FeedbackRow): FeedbackResponse {
  return {
    id: row.id,
    sessionId: row.sessionId,
    name: row.name,
    email: row.email,
    submittedAt: row.submittedAt.toISOString(),
  };
}

/**
 * Neutralises and stores a submission (validated by the route against insertFeedbackSchema),
 * and queues its summary email in the same transaction.
 */
export async function submitFeedback(ctx: AppContext, input: InsertFeedback): Promise<FeedbackResponse> {
  const name = cleanName(input.name);
  if (!name) throw badRequest('Name is required.', 'invalid_request');
  const email = cleanEmail(input.email);
  const sessionId = input.sessionId ?? null;
  const db = ctx.database.db;
  if (sessionId && !(await roleplaySessionExists(db, sessionId))) throw notFound('Session');
  const row = await createFeedbackWithJob(
    db,
    { sessionId, name, email },
    { kind: feedbackEmailJob, dedupeKeyOf: feedbackEmailDedupeKey },
  );
  ctx.wakeWorker();
  return toFeedbackResponse(row);
}

/** The app link in emails: PUBLIC_URL, else this server's local address. */
export function appUrl(ctx: Pick<AppContext, 'config'>): string {
  const base = ctx.config.PUBLIC_URL ?? `http://localhost:${ctx.config.PORT || 5000}`;
  return base.endsWith('/') ? base : `${base}/`;
}

/** The domain part of SMTP_FROM, for Message-IDs. */
function senderDomain(from: string): string {
  const m = from.match(/@([A-Za-z0-9.-]+)>?\s*$/);
  return m ? m[1].toLowerCase() : 'doorstep.local';
}

/**
 * The same Message-ID for every attempt at one submission's email, so a resend after a crash
 * between "sent" and "marked sent" is recognisable (and collapsed by mail systems that dedupe).
 */
export function feedbackMessageId(feedbackId: string, from: string): string {
  return `<feedback.${feedbackId}@${senderDomain(from)}>`;
}

/** The session's coaching; coached now when a submission arrives before any coaching was stored. */
async function coachingFor(
  ctx: AppContext,
  session: SummarySession,
  signal: AbortSignal,
): Promise<{ doc: CoachingDocument | null; metrics: unknown }> {
  const stored = parseCoaching(session.coaching);
  if (stored) return { doc: stored, metrics: session.metrics };
  if (!finalEntries(session.transcript).length) return { doc: null, metrics: session.metrics };
  const result = await coachTranscript(
    ctx.providers.get('coach'),
    {
      stage: session.stage,
      transcript: session.transcript,
      durationSec: session.duration && /^\d+$/.test(session.duration) ? Number(session.duration) : undefined,
      personaName: personaFor(session.stage)?.name,
      context: rolePlayContext(session.engines),
    },
    { signal },
  );
  return { doc: parseCoaching(result.coaching), metrics: result.metrics };
}

/**
 * Sends one submission's summary email. Safe to run again: a row already marked sent is
 * skipped, the Message-ID is stable, and the outbox keeps one row per submission.
 */
export async function sendFeedbackEmail(
  ctx: AppContext,
  feedbackId: string,
  signal: AbortSignal,
): Promise<'sent' | 'skipped'> {
  const db = ctx.database.db;
  const row = await getFeedback(db, feedbackId);
  if (!row || row.emailStatus === 'sent') return 'skipped';

  const session = row.sessionId ? await getSessionForSummary(db, row.sessionId) : null;
  const persona = session ? personaFor(session.stage) : undefined;
  const coached = session ? await coachingFor(ctx, session, signal) : null;
  const email = renderCoachingSummaryEmail({
    name: row.name,
    stage: session?.stage ?? null,
    personaName: persona?.name ?? null,
    doc: coached?.doc ?? null,
    metrics: session
      ? keyMetrics(session.transcript, {
          duration: session.duration,
          personaName: persona?.name ?? 'Homeowner',
          stored: coached?.metrics,
        })
      : [],
    appUrl: appUrl(ctx),
    ...(session ? { sessionUrl: `${appUrl(ctx)}?session=${encodeURIComponent(session.id)}` } : {}),
  });

  const mailer = ctx.providers.get('mailer');
  const messageId = feedbackMessageId(row.id, ctx.config.SMTP_FROM);
  if (signal.aborted) throw new Error('Worker is stopping');
  let result: { messageId: string };
  try {
    result = await mailer.send({
      to: row.email,
      from: ctx.config.SMTP_FROM,
      subject: email.subject,
      text: email.text,
      html: email.html,
      messageId,
      feedbackId: row.id,
    });
  } catch (err) {
    if (err instanceof PermanentMailError) throw new PermanentJobError(err.message);
    throw err;
  }
  // Written straight after the send result; the only at-least-once window is a crash between the two.
  await markFeedbackSent(db, row.id, result.messageId || messageId);
  return 'sent';
}

/** Sends one submission's summary email; retried through mail outages, marked failed at the end. */
export const feedbackEmailJob = defineJob({
  name: FEEDBACK_EMAIL_JOB,
  schema: z.object({ feedbackId: z.string().regex(UUID_PATTERN, 'not a feedback id') }),
  leaseMs: 120_000,
  maxAttempts: FEEDBACK_EMAIL_MAX_ATTEMPTS,
  handle: async ({ feedbackId }, { deps: ctx, signal }: JobRun<AppContext>) => {
    await sendFeedbackEmail(ctx, feedbackId, signal);
  },
  onFinalFailure: async ({ feedbackId }, _error, ctx: AppContext) => {
    await markFeedbackFailed(ctx.database.db, feedbackId);
  },
});

/**
 * At boot: every stored submission whose email is unsent and has no live job gets one again,
 * so an outage longer than the retry budget, or a job lost with a database restore, still ends
 * in delivery. Returns how many were queued.
 */
export async function redriveUnsentFeedback(db: Db): Promise<number> {
  const pending = await feedbackAwaitingDelivery(db, feedbackEmailDedupeKey);
  for (const p of pending) {
    if (p.jobStatus === null) {
      await enqueue(db, feedbackEmailJob, { feedbackId: p.id }, { dedupeKey: feedbackEmailDedupeKey(p.id) });
    } else {
      await requeueJob(db, feedbackEmailDedupeKey(p.id));
    }
    await markFeedbackQueued(db, p.id);
  }
  return pending.length;
}
