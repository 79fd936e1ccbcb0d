import type { Config } from '../../env';
import type { Database } from '../../db/client';
import type { EngineInfo } from '../types';
import type { Mailer } from './types';

/** SMTP when SMTP_URL is set, else the database outbox. */
export async function selectMailer(
  _config: Config,
  _database: Database,
): Promise<{ engine: Mailer; info: EngineInfo }> {
  throw new Error('No mailer is built yet');
}
