import { workerData } from 'node:worker_threads';
import type { Config } from '../env';
import { selectCoach } from '../providers/coach';
import type { CoachInput, CoachResult } from '../providers/coach/types';
import { runWorker } from './worker-main';

/** A coaching worker thread: the same coach the registry chose, built once per thread. */
const coach = selectCoach((workerData as { config: Config }).config).then((chosen) => chosen.engine);

runWorker<CoachInput, CoachResult>(async (input, signal) => (await coach).coach(input, { signal }));
