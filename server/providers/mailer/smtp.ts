import nodemailer, { type Transporter } from 'nodemailer';
import type { Mailer, MailMessage } from './types';

/** A send failure that retrying will not fix (the server refused the recipient or message for good). */
export class PermanentMailError extends Error {}

/** Where the SMTP server is, without any credentials, for logs and /api/health. */
export function describeSmtpUrl(smtpUrl: string): string {
  const url = new URL(smtpUrl);
  return `${url.protocol}//${url.hostname}${url.port ? ':' + url.port : ''}`;
}

export function parseSmtpUrl(smtpUrl: string): URL {
  let url: URL;
  try {
    url = new URL(smtpUrl);
  } catch {
    throw new Error(
      'SMTP_URL is not a valid URL; use smtp://user:pass@host:587 or smtps://user:pass@host:465',
    );
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') {
    throw new Error(`SMTP_URL must start with smtp:// or smtps:// (got ${url.protocol}//)`);
  }
  return url;
}

/** 5xx replies are permanent (RFC 5321); connection errors and 4xx replies are worth retrying. */
function isPermanent(err: unknown): boolean {
  const code = (err as { responseCode?: unknown }).responseCode;
  return typeof code === 'number' && code >= 500 && code < 600;
}

/** Sends through any SMTP server with nodemailer. */
export class SmtpMailer implements Mailer {
  readonly id = 'smtp';
  readonly label: string;
  private readonly transport: Transporter;

  constructor(smtpUrl: string) {
    parseSmtpUrl(smtpUrl);
    this.label = `SMTP (${describeSmtpUrl(smtpUrl)})`;
    // Short timeouts: a dead server should fail the attempt quickly and let the job back off.
    this.transport = nodemailer.createTransport(smtpUrl, {
      connectionTimeout: 15_000,
      greetingTimeout: 15_000,
      socketTimeout: 60_000,
    } as object);
  }

  async send(message: MailMessage): Promise<{ messageId: string }> {
    try {
      const info = await this.transport.sendMail({
        from: message.from,
        to: message.to,
        subject: message.subject,
        text: message.text,
        html: message.html,
        messageId: message.messageId,
        // Lets a receiving system recognise a resend of the same submission.
        headers: message.feedbackId ? { 'X-Doorstep-Feedback-Id': message.feedbackId } : undefined,
      });
      return { messageId: info.messageId ?? message.messageId ?? '' };
    } catch (err) {
      const text = err instanceof Error ? err.message : String(err);
      if (isPermanent(err)) throw new PermanentMailError(text);
      throw err instanceof Error ? err : new Error(text);
    }
  }

  async close(): Promise<void> {
    this.transport.close();
  }
}
