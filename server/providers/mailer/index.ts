import type { Config } from '../../env';
import type { Database } from '../../db/client';
import type { EngineInfo } from '../types';
import type { Mailer } from './types';
import { OutboxMailer } from './outbox';
import { SmtpMailer, describeSmtpUrl } from './smtp';

/** SMTP when SMTP_URL is set, else the database outbox. */
export async function selectMailer(
  config: Config,
  database: Database,
): Promise<{ engine: Mailer; info: EngineInfo }> {
  if (config.SMTP_URL) {
    // Not verified at boot: a mail server that is down now is retried by the email job.
    const engine = new SmtpMailer(config.SMTP_URL);
    return {
      engine,
      info: {
        capability: 'email',
        engine: 'smtp',
        label: engine.label,
        reason: `SMTP_URL is set: emails are sent through ${describeSmtpUrl(config.SMTP_URL)} from ${config.SMTP_FROM}`,
        quality: 'enhanced',
        ok: true,
      },
    };
  }
  return {
    engine: new OutboxMailer(database),
    info: {
      capability: 'email',
      engine: 'outbox',
      label: 'Database outbox',
      reason: config.isDev
        ? 'SMTP_URL is not set: emails are stored in the database and listed at /outbox'
        : 'SMTP_URL is not set: emails are stored in the database (listed at /outbox when NODE_ENV=development)',
      quality: 'basic',
      upgradeHint: 'Set SMTP_URL (and SMTP_FROM) to deliver the summary emails.',
      ok: true,
    },
  };
}
