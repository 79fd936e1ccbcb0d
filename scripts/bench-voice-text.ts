/**
 * npm run bench:voice -- --text — calls whose speech runs in the rep's browser (the device
 * engine): the server gets each rep turn as `user-text` and answers in text (`input` and
 * `output` "text"), so a call costs it only the homeowner's words. N calls run at once against
 * the real server (a separate process), each like a rep: wait for the opening line, then
 * BENCH_TURNS turns, each sent a think time after the homeowner's previous reply finished.
 *
 * Prints per level: reply latency (turn sent -> first homeowner text, and -> the whole reply)
 * p50/p95 as the client saw it, the server's own figure (turn-metrics), failures, server CPU
 * and memory; then the highest level whose p95 to the first text stayed within 100 ms.
 *
 * BENCH_TEXT_LEVELS=50,100,200,500,800  BENCH_TURNS=5  BENCH_THINK_MS=2000  (defaults);
 * BENCH_DATABASE_URL=postgres://... to store sessions in PostgreSQL instead of embedded PGlite.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sharedDir } from '../server/test-support/harness';
import { VoiceCallClient } from '../server/voice/call-client';
import { ServerProcess, tempDataDir } from './lib/server-process';

const LEVELS = (process.env.BENCH_TEXT_LEVELS ?? '50,100,200,500,800').split(',').map(Number);
const TURNS = Number(process.env.BENCH_TURNS ?? 5);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 2000);
const TARGET_P95_MS = 100;
const REPLY_TIMEOUT_MS = 20_000;
const STAGES = ['General', 'Windows', 'HVAC', 'Roofing', 'Flooring'] as const;

/** What reps say, in the order a call goes (the scripted homeowner answers each). */
const REP_LINES = [
  "Hi, I'm Sam with Bright Home. Thanks for making the time today.",
  "What's been bothering you most about the house lately?",
  'How long have you been in the home, and how old is the system?',
  'What budget did you have in mind for this?',
  'Who else would be part of the decision?',
  'When would you like the work finished?',
  'Have you had any other quotes so far?',
  'Could we set up a time for a proper look, maybe Saturday morning?',
];

interface TurnResult {
  firstTextMs: number;
  wholeReplyMs: number;
  serverMs: number;
}

function percentile(values: number[], p: number): number {
  if (!values.length) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

const fmt = (n: number) => (Number.isFinite(n) ? String(Math.round(n)) : '-');

/** CPU seconds and RSS of the server process (text calls start no helper processes). */
function usage(pid: number): { cpuSec: number; rssMb: number } {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return {
    cpuSec: (Number(f[11]) + Number(f[12])) / 100,
    rssMb: (Number(f[21]) * 4096) / 1024 / 1024,
  };
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function runCall(baseUrl: string, index: number, startDelayMs: number): Promise<TurnResult[]> {
  await sleep(startDelayMs);
  const stage = STAGES[index % STAGES.length];
  const session = await fetch(`${baseUrl}/api/sessions`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ stage }),
  }).then((r) => r.json() as Promise<{ id: string }>);
  const call = await VoiceCallClient.connect(baseUrl);
  const results: TurnResult[] = [];
  try {
    call.sendJson({ type: 'start', stage, sessionId: session.id, input: 'text', output: 'text' });
    await call.waitForEvent('ready');
    await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
      timeoutMs: REPLY_TIMEOUT_MS,
    });
    for (let t = 0; t < TURNS; t++) {
      // A rep reads the reply and answers: think time with jitter, so calls do not move in step.
      await sleep(THINK_MS * (0.5 + Math.random()));
      const from = call.received.length;
      const sentAt = Date.now();
      call.sendJson({ type: 'user-text', text: REP_LINES[(index + t) % REP_LINES.length] });
      const first = await call.waitFor(
        (r) => 'event' in r && r.event.type === 'transcript' && r.event.role === 'assistant',
        { from, timeoutMs: REPLY_TIMEOUT_MS },
      );
      const final = await call.waitFor(
        (r) =>
          'event' in r &&
          r.event.type === 'transcript' &&
          r.event.role === 'assistant' &&
          r.event.transcriptType === 'final',
        { from, timeoutMs: REPLY_TIMEOUT_MS },
      );
      const metrics = call.received.slice(from).find((r) => 'event' in r && r.event.type === 'turn-metrics');
      const serverMs =
        metrics && 'event' in metrics && metrics.event.type === 'turn-metrics'
          ? metrics.event.speechEndToAudioMs
          : NaN;
      results.push({ firstTextMs: first.at - sentAt, wholeReplyMs: final.at - sentAt, serverMs });
      // The homeowner may end the call (a goodbye, or pressure): then this rep is done.
      if (call.events.some((e) => e.type === 'ended')) break;
    }
  } finally {
    if (!call.closed) {
      call.stop();
      await call.waitForEvent('ended', () => true, { timeoutMs: 10_000 }).catch(() => undefined);
      call.close();
    }
  }
  return results;
}

export async function main(): Promise<void> {
  console.log(
    `Text-call benchmark on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'cpu'}), load ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}; ${TURNS} turns per call, think time ${THINK_MS} ms ±50%`,
  );
  const dataDir = tempDataDir('doorstep-bench-text-');
  const server = await ServerProcess.create({
    DATA_DIR: dataDir,
    // PostgreSQL (BENCH_DATABASE_URL) as a deployment for hundreds of calls would use; else PGlite.
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    MODELS_DIR: process.env.MODELS_DIR ?? path.join(sharedDir, 'models'),
    ROLES: 'web',
    // Every simulated rep connects from this one address.
    RATE_LIMIT_VOICE: '0',
    // The benchmark looks for the limit, so the text-call cap must not be it.
    MAX_TEXT_CALLS: String(Math.max(...LEVELS)),
  });
  await server.start();
  const rows: string[] = [];
  let best: number | null = null;
  try {
    for (const level of LEVELS) {
      const before = usage(server.pid!);
      let peakRss = before.rssMb;
      const sampler = setInterval(() => (peakRss = Math.max(peakRss, usage(server.pid!).rssMb)), 500);
      const t0 = Date.now();
      // Calls join over a few seconds, as reps would, not in one burst.
      const rampMs = Math.min(10_000, level * 20);
      let failed = 0;
      const perCall = await Promise.all(
        Array.from({ length: level }, (_, i) =>
          runCall(server.url, i, Math.round((i / level) * rampMs)).catch((err) => {
            failed++;
            if (failed <= 3)
              console.log(`call ${i} failed: ${err instanceof Error ? err.message : String(err)}`);
            return [] as TurnResult[];
          }),
        ),
      );
      clearInterval(sampler);
      const wallSec = (Date.now() - t0) / 1000;
      const after = usage(server.pid!);
      const turns = perCall.flat();
      const first = turns.map((t) => t.firstTextMs);
      const whole = turns.map((t) => t.wholeReplyMs);
      const srv = turns.map((t) => t.serverMs).filter(Number.isFinite);
      const cpuPct = ((after.cpuSec - before.cpuSec) / wallSec) * 100;
      // Server CPU per answered turn (connects and session saves included): independent of how
      // busy the rest of the machine is, unlike the latencies.
      const cpuMsPerTurn = turns.length ? ((after.cpuSec - before.cpuSec) * 1000) / turns.length : NaN;
      const p95 = percentile(first, 95);
      if (failed === 0 && p95 <= TARGET_P95_MS) best = Math.max(best ?? 0, level);
      const row = [
        level,
        turns.length,
        failed,
        fmt(percentile(first, 50)),
        fmt(p95),
        fmt(percentile(whole, 95)),
        fmt(percentile(srv, 95)),
        fmt(cpuPct),
        cpuMsPerTurn.toFixed(1),
        fmt(peakRss),
        os.loadavg()[0].toFixed(1),
      ];
      rows.push(`| ${row.join(' | ')} |`);
      console.log(
        `\n${level} concurrent text call(s): ${turns.length} turns, ${failed} failed calls, ${wallSec.toFixed(0)} s` +
          `\n  turn sent -> first homeowner text: p50 ${fmt(percentile(first, 50))} ms, p95 ${fmt(p95)} ms` +
          `\n  turn sent -> whole reply: p95 ${fmt(percentile(whole, 95))} ms; server's own figure p95 ${fmt(percentile(srv, 95))} ms` +
          `\n  server CPU ${fmt(cpuPct)}% of one core (${cpuMsPerTurn.toFixed(1)} ms a turn), peak RSS ${fmt(peakRss)} MB, machine load ${os.loadavg()[0].toFixed(1)}`,
      );
    }
  } finally {
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    '\n| calls | turns | failed calls | first text p50 ms | first text p95 ms | whole reply p95 ms | server p95 ms | server CPU % | CPU ms/turn | peak RSS MB | load |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of rows) console.log(r);
  console.log(
    best === null
      ? `\nNo level kept p95 within ${TARGET_P95_MS} ms.`
      : `\nHighest level with p95 to the first text within ${TARGET_P95_MS} ms: ${best} concurrent calls.`,
  );
}
