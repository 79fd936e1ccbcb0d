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
 * Main-thread CPU one answered text turn costs the server, in ms: measured 1.1-1.9 ms at
 * 100-400 calls with bench:voice -- --text (docs/benchmarks.md), rounded up to leave room for
 * slower machines and longer replies.
 */
export const TEXT_TURN_MAIN_MS = 2;
/** Share of the event loop all text calls together may take at their fastest allowed pace. */
export const TEXT_CALL_LOOP_BUDGET = 0.25;

/**
 * Default cap on calls whose speech runs in the browser (MAX_TEXT_CALLS). Their turns run on
 * the one event loop every request and call shares, whatever the number of cores, so the cap
 * is what keeps that loop free: every call sending a turn each `turnIntervalMs` (the
 * TURN_INTERVAL_MS pace, the most a client may send; 1 s assumed when the pace is off) at
 * TEXT_TURN_MAIN_MS each stays within TEXT_CALL_LOOP_BUDGET of it (250 calls at the default
 * 2 s), and within half the free memory at TEXT_CALL_MEMORY_MB each. At least 2.
 */
export function defaultMaxTextCalls(freeBytes = os.freemem(), turnIntervalMs = 2000): number {
  const interval = turnIntervalMs > 0 ? turnIntervalMs : 1000;
  const byLoop = Math.floor((TEXT_CALL_LOOP_BUDGET * interval) / TEXT_TURN_MAIN_MS);
  const byMemory = Math.floor((freeBytes * 0.5) / (TEXT_CALL_MEMORY_MB * 1024 * 1024));
  return Math.max(2, Math.min(byLoop, byMemory));
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
