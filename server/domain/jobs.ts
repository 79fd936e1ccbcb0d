import type { AppContext } from '../context';
import type { JobDefinition } from '../jobs/queue';
import { feedbackEmailJob } from './feedback/service';
import { transcribeAudioJob } from './audio/service';
import { purgeRecordingsJob } from './audio/retention';

/**
 * Every durable job kind this app runs. Job definitions live with their domain module; the queue
 * (server/jobs/) knows nothing of the domain, and app.ts registers this list with the worker.
 */
export function jobDefinitions(ctx: AppContext): JobDefinition[] {
  return [feedbackEmailJob(ctx), transcribeAudioJob(ctx), purgeRecordingsJob(ctx)];
}
