import type { AppContext } from '../context';
import type { JobDefinition } from './queue';
import { feedbackEmailJob } from '../domain/feedback/service';
import { transcribeAudioJob } from '../domain/audio/service';
import { purgeRecordingsJob } from '../domain/audio/retention';

/** Every durable job kind this app runs. Each domain contributes its definitions here. */
export function jobDefinitions(ctx: AppContext): JobDefinition[] {
  return [feedbackEmailJob(ctx), transcribeAudioJob(ctx), purgeRecordingsJob(ctx)];
}
