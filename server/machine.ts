import os from 'node:os';

/** Cores this process may use: sizes worker pools and the live-call thresholds. */
export function cpuCores(): number {
  return Math.max(1, os.availableParallelism());
}
