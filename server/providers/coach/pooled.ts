import type { Config } from '../../env';
import { cpuCores } from '../../machine';
import { selectCoach } from './index';
import type { Coach, CoachInput, CoachResult } from './types';
import type { EngineInfo } from '../types';
import { WorkerPool } from '../../workers/pool';

/**
 * The chosen coach, run on worker threads: scoring a long transcript is CPU work that would
 * otherwise stall every request and live call sharing the event loop. One thread per core;
 * a model loaded in-process (LLM_GGUF_PATH) gets one thread so it is loaded once.
 */
export class PooledCoach implements Coach {
  readonly id: string;
  readonly label: string;
  readonly pool: WorkerPool<CoachInput, CoachResult>;
  /** The worker measures the conversation metrics (worker.ts), off the event loop. */
  readonly measuresMetrics = true;

  constructor(config: Config, inner: { id: string; label: string }) {
    this.id = inner.id;
    this.label = inner.label;
    const size = config.LLM_GGUF_PATH && !config.LLM_BASE_URL ? 1 : cpuCores();
    this.pool = new WorkerPool<CoachInput, CoachResult>({
      file: new URL('./worker.ts', import.meta.url),
      workerData: { config },
      size,
      maxQueue: config.COACH_QUEUE_MAX || size * 4,
      what: 'coaching',
    });
  }

  /** Starts every thread and loads the coach's language models, so the first requests do not pay for it. */
  warm(): void {
    const input: CoachInput = {
      stage: 'General',
      transcript: [
        { role: 'user', transcript: 'Hi, I am here about the windows.', timestamp: 0 },
        { role: 'assistant', transcript: 'Come on in.', timestamp: 1000 },
      ],
    };
    for (let i = 0; i < this.pool.size; i++) void this.pool.run(input).catch(() => undefined);
  }

  coach(input: CoachInput, opts: { signal?: AbortSignal } = {}): Promise<CoachResult> {
    return this.pool.run(input, opts);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** The registry's coach selection, with the engine moved onto worker threads. */
export async function selectPooledCoach(config: Config): Promise<{ engine: Coach; info: EngineInfo }> {
  const chosen = await selectCoach(config);
  const engine = new PooledCoach(config, chosen.engine);
  // Tests start many servers and coach in few of them; a served app warms its threads at boot.
  if (config.NODE_ENV !== 'test') engine.warm();
  return { engine, info: chosen.info };
}
