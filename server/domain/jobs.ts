import type { AppContext } from '../context';
import type { JobKind } from '../jobs/queue';
import { feedbackEmailJob } from './feedback/service';
import { transcribeAudioJob } from './audio/transcription';
import { purgeRecordingsJob } from './audio/retention';
import { coachJob } from './coaching/job';

/**
 * Every durable job kind this app runs. Each kind (name, payload schema, handler) is defined with
 * its domain module; the queue (server/jobs/) knows nothing of the domain, and app.ts registers
 * this list with the worker, handing each handler the app context.
 */
// Payload types differ per kind; each kind's own definition keeps its handler typed.
export const jobKinds: readonly JobKind<any, AppContext>[] = [
  feedbackEmailJob,
  transcribeAudioJob,
  coachJob,
  purgeRecordingsJob,
];
