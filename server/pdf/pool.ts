import { cpuCores } from '../machine';
import type { ReportInput } from './report';
import { WorkerPool } from '../workers/pool';

/**
 * Coaching reports rendered on worker threads: laying out and deflating a long call's PDF takes
 * tens of milliseconds of CPU, which on the request thread would stall every other request and
 * live call. Threads start on the first download; a full queue answers 503 with Retry-After.
 */
export class PdfRenderer {
  readonly pool: WorkerPool<ReportInput, Uint8Array>;

  constructor(opts: { size?: number; maxQueue?: number } = {}) {
    const size = opts.size ?? cpuCores();
    this.pool = new WorkerPool<ReportInput, Uint8Array>({
      file: new URL('./worker.ts', import.meta.url),
      size,
      maxQueue: opts.maxQueue ?? size * 4,
      what: 'report',
    });
  }

  async render(input: ReportInput, opts: { signal?: AbortSignal } = {}): Promise<Buffer> {
    // The worker's Buffer arrives as a plain Uint8Array (structured clone); wrap it without copying.
    const bytes = await this.pool.run(input, opts);
    return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}
