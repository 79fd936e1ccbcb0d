import { storedDocument } from '../../../core/coaching-document';
import type { CoachingDocument } from '../../../core/coaching-format';
import type { InsertFeedback } from '../../../core/schemas';
import { personaFor } from '../../../core/stages';
import { finalEntries } from '../../../core/transcript';
import { ensureCoaching } from '../coaching/service';
import type { AppContext } from '../../context';
import { renderCoachingSummaryEmail } from '../../email/coaching-summary';
import { keyMetrics } from '../../email/key-metrics';
import { badRequest, HttpError, notFound } from '../../errors';
import { defineJob, enqueue, requeueJob, PermanentJobError, type JobRun } from '../../jobs/queue';
import { PermanentMailError } from '../../providers/mailer/smtp';
import type { Db } from '../../db/client';
import {
  feedbackAwaitingDelivery,
  getFeedback,
  getSessionForSummary,
  lockRecipient,
  recipientKey,
  roleplaySessionCoached,
  summariesTo,
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

/** Summaries of one session one address may be sent: the first, and one resend. */
export const MAX_SUMMARIES_PER_ADDRESS = 2;

/**
 * Neutralises and stores a submission (validated by the route against insertFeedbackSchema),
 * and queues its summary email in the same transaction. The form is not a way to mail anyone
 * anything: the session must be coached (the email carries its summary), one address gets one
 * session's summary once (a resend is asked for explicitly, once), and at most
 * FEEDBACK_PER_RECIPIENT_PER_DAY summaries a day (counted in the database, so across every
 * process and client address).
 */
export async function submitFeedback(ctx: AppContext, input: InsertFeedback): Promise<FeedbackResponse> {
  const name = cleanName(input.name);
  if (!name) throw badRequest('Name is required.', 'invalid_request');
  const email = cleanEmail(input.email);
  const sessionId = input.sessionId;
  const db = ctx.database.db;
  const coached = await roleplaySessionCoached(db, sessionId);
  if (coached === null) throw notFound('Session');
  if (!coached) {
    throw new HttpError(
      409,
      'not_coached',
      "This call has no coaching yet. Get the call's coaching first; the email sends its summary.",
    );
  }
  const key = recipientKey(email);
  const perDay = ctx.config.FEEDBACK_PER_RECIPIENT_PER_DAY;
  const row = await createFeedbackWithJob(
    db,
    { sessionId, name, email },
    { kind: feedbackEmailJob, dedupeKeyOf: feedbackEmailDedupeKey },
    async (tx) => {
      await lockRecipient(tx, key);
      const sent = await summariesTo(tx, key, sessionId);
      if (sent.forSession >= MAX_SUMMARIES_PER_ADDRESS) {
        throw new HttpError(
          429,
          'already_sent',
          "This call's summary has already been sent to that address twice. Check your inbox and spam folder.",
        );
      }
      if (sent.forSession > 0 && !input.resend) {
        throw new HttpError(
          409,
          'already_sent',
          "This call's summary has already been sent to that address. Check your inbox and spam folder.",
        );
      }
      if (perDay > 0 && sent.lastDay >= perDay) {
        const dayEnds = (sent.oldestInDay?.getTime() ?? Date.now()) + 24 * 3600_000;
        const retryAfter = Math.max(60, Math.ceil((dayEnds - Date.now()) / 1000));
        throw new HttpError(
          429,
          'recipient_limit',
          `That address has been sent ${perDay} summaries in the last day, the most allowed. Please try again in ${Math.ceil(retryAfter / 3600)} hours.`,
          { 'retry-after': String(retryAfter) },
        );
      }
    },
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

/**
 * The session's coaching document: the stored one, or coached now (and stored) when the
 * submission arrives before the session's coaching job has run.
 */
async function coachingFor(
  ctx: AppContext,
  session: SummarySession,
  signal: AbortSignal,
): Promise<{ doc: CoachingDocument | null; metrics: unknown }> {
  const stored = storedDocument(session.coaching);
  if (stored || !finalEntries(session.transcript).some((e) => e.transcript.trim())) {
    return { doc: stored, metrics: session.metrics };
  }
  const coached = await ensureCoaching(ctx, 'roleplay', session.id, { signal });
  return { doc: storedDocument(coached.coaching), metrics: coached.metrics };
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
