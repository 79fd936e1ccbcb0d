import type { Database } from '../../db/client';
import { insertOutboxMessage } from './outbox-store';
import type { Mailer, MailMessage } from './types';

/** Keeps emails in the database (listed at /outbox in development) when no SMTP server is configured. */
export class OutboxMailer implements Mailer {
  readonly id = 'outbox';
  readonly label = 'Database outbox';

  constructor(private readonly database: Database) {}

  async send(message: MailMessage): Promise<{ messageId: string }> {
    const row = await insertOutboxMessage(this.database.db, {
      feedbackId: message.feedbackId ?? null,
      toAddress: message.to,
      fromAddress: message.from,
      subject: message.subject,
      text: message.text,
      html: message.html,
    });
    return { messageId: message.messageId ?? `<outbox.${row.id}@doorstep.local>` };
  }
}
