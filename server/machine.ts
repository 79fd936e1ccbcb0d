import os from 'node:os';

/** Cores this process may use: sizes worker pools and the live-call thresholds. */
export function cpuCores(): number {
  return Math.max(1, os.availableParallelism());
}

/** What one live call may hold at most: a warm decoder (~100 MB), its buffers and synthesis. */
export const LIVE_CALL_MEMORY_MB = 128;

/**
 * Default server-wide cap on live calls (MAX_LIVE_CALLS): 10 per core (beyond 2 per core calls
 * already get a lighter recogniser search; much further and replies lag for everyone), and no
 * more than half the free memory at boot allows at LIVE_CALL_MEMORY_MB each. At least 2.
 */
export function defaultMaxLiveCalls(cores = cpuCores(), freeBytes = os.freemem()): number {
  const byCpu = 10 * cores;
  const byMemory = Math.floor((freeBytes * 0.5) / (LIVE_CALL_MEMORY_MB * 1024 * 1024));
  return Math.max(2, Math.min(byCpu, byMemory));
}
