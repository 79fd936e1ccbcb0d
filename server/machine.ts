import os from 'node:os';

/** Cores this process may use: sizes worker pools and the live-call thresholds. */
export function cpuCores(): number {
  return Math.max(1, os.availableParallelism());
}

/** What one live call may hold at most: a warm decoder (~100 MB), its buffers and synthesis. */
export const LIVE_CALL_MEMORY_MB = 128;

/** What one text call (typed turns, or speech in the browser) may hold: its socket and transcript. */
export const TEXT_CALL_MEMORY_MB = 2;

/**
 * Default cap on calls whose speech runs in the browser (MAX_TEXT_CALLS): they cost the server
 * only the homeowner's words (about 2 ms of CPU a turn, docs/benchmarks.md), so 250 per core,
 * within half the free memory at TEXT_CALL_MEMORY_MB each. At least 2.
 */
export function defaultMaxTextCalls(cores = cpuCores(), freeBytes = os.freemem()): number {
  const byCpu = 250 * cores;
  const byMemory = Math.floor((freeBytes * 0.5) / (TEXT_CALL_MEMORY_MB * 1024 * 1024));
  return Math.max(2, Math.min(byCpu, byMemory));
}

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
