import { workerData } from 'node:worker_threads';
import { conversationMetrics } from '../../understanding/metrics';
import type { Config } from '../../env';
import { selectCoach } from './index';
import type { CoachInput, CoachResult } from './types';
import { runWorker } from '../../workers/worker-main';

/** A coaching worker thread: the same coach the registry chose, built once per thread. */
const coach = selectCoach((workerData as { config: Config }).config).then((chosen) => chosen.engine);

/**
 * The answer carries the conversation metrics measured here, as coachTranscript would measure
 * them, so the request thread does not redo that work (PooledCoach.measuresMetrics).
 */
runWorker<CoachInput, CoachResult>(async (input, signal) => {
  const engine = await coach;
  const result = await engine.coach(input, { signal });
  if (engine.measuresMetrics && result.metrics) return result;
  return { ...result, metrics: conversationMetrics(input.transcript, { durationSec: input.durationSec }) };
});
