import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedDir } from '../../server/test-support/harness';
import { ServerProcess, tempDataDir } from './server-process';

/** What the voice benchmarks share: settings, statistics, process usage, the server, printing. */

/** A comma-separated list of numbers from the environment ("1,5,20"), else the default. */
export function numberList(name: string, fallback: string): number[] {
  return (process.env[name] ?? fallback).split(',').map(Number);
}

/** Nearest-rank percentile; NaN for no values. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** A whole number for a table cell; '-' where there was nothing to measure. */
export const fmt = (n: number) => (Number.isFinite(n) ? String(Math.round(n)) : '-');

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** "N cores (model), load a b c": the machine a run was measured on. */
export function machine(): string {
  const load = os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
  return `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), load ${load}`;
}

export const loadNow = () => os.loadavg()[0].toFixed(1);

export interface Usage {
  cpuSec: number;
  rssMb: number;
}

/** CPU seconds and RSS of one process. */
export function processUsage(pid: number): Usage {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    cpuSec: (Number(f[11]) + Number(f[12])) / 100,
    rssMb: (Number(f[21]) * 4096) / 1024 / 1024,
  };
}

/** CPU seconds and RSS of a process and all its live descendants (plus reaped children's CPU). */
export function treeUsage(rootPid: number): Usage {
  const tick = 100; // USER_HZ on Linux
  const page = 4096;
  const procs = new Map<number, { ppid: number; cpu: number; rss: number }>();
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const ppid = Number(fields[1]);
      const cpu = Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14]);
      const rss = Number(fields[21]) * page;
      procs.set(Number(entry), { ppid, cpu, rss });
    } catch {
      // The process exited while being read.
    }
  }
  let cpu = 0;
  let rss = 0;
  const stack = [rootPid];
  while (stack.length) {
    const pid = stack.pop()!;
    const p = procs.get(pid);
    if (!p) continue;
    cpu += p.cpu;
    rss += p.rss;
    for (const [child, info] of procs) if (info.ppid === pid) stack.push(child);
  }
  return { cpuSec: cpu / tick, rssMb: rss / 1024 / 1024 };
}

/** Runs `work` while sampling `usage` every 500 ms: wall time, CPU used and peak RSS. */
export async function measured<T>(
  usage: () => Usage,
  work: () => Promise<T>,
): Promise<{ result: T; wallSec: number; cpuSec: number; peakRss: number }> {
  const before = usage();
  let peakRss = before.rssMb;
  const sampler = setInterval(() => (peakRss = Math.max(peakRss, usage().rssMb)), 500);
  const t0 = Date.now();
  try {
    const result = await work();
    const wallSec = (Date.now() - t0) / 1000;
    return { result, wallSec, cpuSec: usage().cpuSec - before.cpuSec, peakRss };
  } finally {
    clearInterval(sampler);
  }
}

/**
 * The real server as a separate web process for a benchmark, on a throwaway data folder, with
 * the voice rate limit and the per-client call and connection caps off (every simulated rep
 * connects from one address); `run` gets it started and it is stopped and cleaned up after.
 */
export async function withBenchServer<T>(
  prefix: string,
  env: Record<string, string>,
  run: (server: ServerProcess) => Promise<T>,
  /** Another checkout whose server runs instead (before/after comparisons). */
  root?: string,
): Promise<T> {
  const dataDir = tempDataDir(prefix);
  const server = await ServerProcess.create(
    {
      DATA_DIR: dataDir,
      MODELS_DIR: process.env.MODELS_DIR ?? path.join(sharedDir, 'models'),
      ROLES: 'web',
      RATE_LIMIT_VOICE: '0',
      MAX_CALLS_PER_CLIENT: '0',
      MAX_CONNECTIONS_PER_CLIENT: '0',
      ...env,
    },
    root,
  );
  await server.start();
  try {
    return await run(server);
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A role-play session to attach a call to. */
export async function createSession(baseUrl: string, stage: string): Promise<{ id: string }> {
  return fetch(`${baseUrl}/api/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ stage }),
  }).then((r) => r.json() as Promise<{ id: string }>);
}

/** A markdown table (for docs/benchmarks.md) under a blank line. */
export function printTable(header: string[], rows: (string | number)[][]): void {
  console.log(`\n| ${header.join(' | ')} |`);
  console.log(`|${header.map(() => '---').join('|')}|`);
  for (const r of rows) console.log(`| ${r.join(' | ')} |`);
}

/**
 * CPU seconds used by a process tree while it runs, split by program name (`node`,
 * `sphinx-live`, `espeak-live`, ...): each process's own user+system time, sampled by `sample()`
 * (call it every few hundred ms, so a child that exits between samples loses at most that much).
 */
export class ProcessCpuSplit {
  private readonly seen = new Map<number, { name: string; first: number; last: number }>();

  constructor(private readonly rootPid: number) {
    this.reset();
  }

  sample(): void {
    const procs = new Map<number, { ppid: number; name: string; cpu: number }>();
    for (const entry of fs.readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      try {
        const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
        const name = stat.slice(stat.indexOf('(') + 1, stat.lastIndexOf(')'));
        const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        procs.set(Number(entry), { ppid: Number(f[1]), name, cpu: (Number(f[11]) + Number(f[12])) / 100 });
      } catch {
        // Exited while being read.
      }
    }
    const stack = [this.rootPid];
    while (stack.length) {
      const pid = stack.pop()!;
      const p = procs.get(pid);
      if (!p) continue;
      const known = this.seen.get(pid);
      // A process first seen mid-run started after the previous sample: all its CPU is new.
      // The name as of now: a child is seen under its launcher's name until it has exec'd.
      if (known) Object.assign(known, { last: p.cpu, name: p.name });
      else this.seen.set(pid, { name: p.name, first: 0, last: p.cpu });
      for (const [child, info] of procs) if (info.ppid === pid) stack.push(child);
    }
  }

  /** CPU seconds per program name since construction (or the last `reset`). */
  byName(): Map<string, number> {
    const out = new Map<string, number>();
    for (const p of this.seen.values()) out.set(p.name, (out.get(p.name) ?? 0) + p.last - p.first);
    return out;
  }

  /** Starts counting afresh from now. */
  reset(): void {
    this.sample();
    for (const p of this.seen.values()) p.first = p.last;
  }
}
