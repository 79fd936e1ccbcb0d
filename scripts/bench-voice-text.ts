/**
 * npm run bench:voice -- --text — calls whose speech runs in the rep's browser (the device
 * engine): the server gets each rep turn as `user-text` and answers in text (`input` and
 * `output` "text"), so a call costs it only the homeowner's words. N calls run at once against
 * the real server (a separate process), each like a rep: wait for the opening line, then
 * BENCH_TURNS turns, each sent a think time after the homeowner's previous reply finished.
 *
 * Prints per level: reply latency (turn sent -> first homeowner text, and -> the whole reply)
 * p50/p95 as the client saw it, the server's own figure (turn-metrics), failures, turns the
 * server refused as too fast, the server's event-loop delay (p99 and max over the level, read
 * from /metrics), server CPU (the whole process and its main thread, per turn) and memory; then
 * the highest level whose p95 to the first text stayed within 100 ms.
 *
 * BENCH_TEXT_LEVELS=50,100,200,500,800  BENCH_TURNS=5  BENCH_THINK_MS=2000  (defaults);
 * BENCH_TURN_EVERY_MS=2000: every call sends a turn every 2 s whether or not the homeowner has
 *   answered (open loop: the most a client may send, not the pace of a rep who waits to read);
 * BENCH_MAX_TEXT_CALLS: the server's MAX_TEXT_CALLS (default: the highest level, so the cap is
 *   not what is measured); BENCH_TREE=DIR runs that checkout's server instead (before/after);
 * BENCH_DATABASE_URL=postgres://... to store sessions in PostgreSQL instead of embedded PGlite.
 */
import fs from 'node:fs';
import path from 'node:path';
import { VoiceCallClient } from '../server/test-support/call-client';
import {
  createSession,
  fmt,
  loadNow,
  machine,
  measured,
  numberList,
  percentile,
  printTable,
  processUsage,
  sleep,
  withBenchServer,
} from './lib/bench';

const LEVELS = numberList('BENCH_TEXT_LEVELS', '50,100,200,500,800');
const TURNS = Number(process.env.BENCH_TURNS ?? 5);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 2000);
/** Open loop: a turn every this many ms regardless of replies (0 = wait for each reply, then think). */
const TURN_EVERY_MS = Number(process.env.BENCH_TURN_EVERY_MS ?? 0);
const TREE = process.env.BENCH_TREE ? path.resolve(process.env.BENCH_TREE) : undefined;
/** Lets the bench read the server's event-loop delay from /metrics (production mode). */
const METRICS_TOKEN = 'bench-metrics-token-0123456789abcdefghijklmnopqrstuv';
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

interface CallResult {
  turns: TurnResult[];
  /** Turns the server refused as sent too fast (`too-fast`), the call going on. */
  refused: number;
}

/**
 * The server's event-loop delay since the previous call, in ms (prom-client resets its
 * histogram on each scrape): what every other request and call waited on this process.
 */
async function loopDelay(base: string): Promise<{ p99: number; max: number }> {
  const res = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await res.text();
  const read = (name: string) => {
    const m = new RegExp(`^doorstep_nodejs_eventloop_lag_${name}_seconds(?:\\{[^}]*\\})? (\\S+)$`, 'm').exec(
      text,
    );
    return m ? Number(m[1]) * 1000 : NaN;
  };
  return { p99: read('p99'), max: read('max') };
}

/** CPU seconds of the server process's main thread (its event loop). */
function mainThreadCpu(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) / 100;
}

/** One turn: send it, wait for the homeowner's first text and final reply. */
async function turn(call: VoiceCallClient, text: string): Promise<TurnResult | 'refused'> {
  const from = call.received.length;
  const sentAt = Date.now();
  call.sendJson({ type: 'user-text', text });
  const first = await call.waitFor(
    (r) =>
      'event' in r &&
      ((r.event.type === 'transcript' && r.event.role === 'assistant') ||
        (r.event.type === 'error' && r.event.code === 'too-fast')),
    { from, timeoutMs: REPLY_TIMEOUT_MS },
  );
  if ('event' in first && first.event.type === 'error') return 'refused';
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
  return { firstTextMs: first.at - sentAt, wholeReplyMs: final.at - sentAt, serverMs };
}

async function runCall(baseUrl: string, index: number, startDelayMs: number): Promise<CallResult> {
  await sleep(startDelayMs);
  const stage = STAGES[index % STAGES.length];
  const session = await createSession(baseUrl, stage);
  const call = await VoiceCallClient.connect(baseUrl);
  const results: TurnResult[] = [];
  let refused = 0;
  try {
    call.sendJson({ type: 'start', stage, sessionId: session.id, input: 'text', output: 'text' });
    await call.waitForEvent('ready');
    await call.waitForEvent('transcript', (e) => e.role === 'assistant' && e.transcriptType === 'final', {
      timeoutMs: REPLY_TIMEOUT_MS,
    });
    const pending: Promise<void>[] = [];
    const started = Date.now();
    for (let t = 0; t < TURNS; t++) {
      const line = REP_LINES[(index + t) % REP_LINES.length];
      if (TURN_EVERY_MS > 0) {
        // Open loop: on the clock, answered or not (the replies are measured as they come).
        await sleep(Math.max(0, started + (t + 1) * TURN_EVERY_MS - Date.now()));
        pending.push(
          turn(call, line).then((r) => {
            if (r === 'refused') refused++;
            else results.push(r);
          }),
        );
      } else {
        // A rep reads the reply and answers: think time with jitter, so calls do not move in step.
        await sleep(THINK_MS * (0.5 + Math.random()));
        const r = await turn(call, line);
        if (r === 'refused') refused++;
        else results.push(r);
      }
      // The homeowner may end the call (a goodbye, or pressure): then this rep is done.
      if (call.events.some((e) => e.type === 'ended')) break;
    }
    await Promise.all(pending);
  } finally {
    if (!call.closed) {
      call.stop();
      await call.waitForEvent('ended', () => true, { timeoutMs: 10_000 }).catch(() => undefined);
      call.close();
    }
  }
  return { turns: results, refused };
}

export async function main(): Promise<void> {
  const pace =
    TURN_EVERY_MS > 0 ? `a turn every ${TURN_EVERY_MS} ms (open loop)` : `think time ${THINK_MS} ms ±50%`;
  console.log(
    `Text-call benchmark on ${machine()}; ${TURNS} turns per call, ${pace}${TREE ? `; server from ${TREE}` : ''}`,
  );
  const env = {
    // PostgreSQL (BENCH_DATABASE_URL) as a deployment for hundreds of calls would use; else PGlite.
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    // The benchmark looks for the limit, so the text-call cap must not be it (unless asked).
    MAX_TEXT_CALLS: process.env.BENCH_MAX_TEXT_CALLS ?? String(Math.max(...LEVELS)),
    METRICS_TOKEN,
  };
  const rows: (string | number)[][] = [];
  let best: number | null = null;
  await withBenchServer(
    'doorstep-bench-text-',
    env,
    async (server) => {
      for (const level of LEVELS) {
        // Calls join over a few seconds, as reps would, not in one burst.
        const rampMs = Math.min(10_000, level * 20);
        let failed = 0;
        await loopDelay(server.url);
        const mainBefore = mainThreadCpu(server.pid!);
        const run = await measured(
          () => processUsage(server.pid!),
          () =>
            Promise.all(
              Array.from({ length: level }, (_, i) =>
                runCall(server.url, i, Math.round((i / level) * rampMs)).catch((err) => {
                  failed++;
                  if (failed <= 3)
                    console.log(`call ${i} failed: ${err instanceof Error ? err.message : String(err)}`);
                  return { turns: [], refused: 0 } as CallResult;
                }),
              ),
            ),
        );
        const mainCpuSec = mainThreadCpu(server.pid!) - mainBefore;
        const loop = await loopDelay(server.url);
        const { wallSec, peakRss } = run;
        const turns = run.result.flatMap((c) => c.turns);
        const refused = run.result.reduce((n, c) => n + c.refused, 0);
        const first = turns.map((t) => t.firstTextMs);
        const whole = turns.map((t) => t.wholeReplyMs);
        const srv = turns.map((t) => t.serverMs).filter(Number.isFinite);
        const cpuPct = (run.cpuSec / wallSec) * 100;
        // Server CPU per answered turn (connects and session saves included): independent of how
        // busy the rest of the machine is, unlike the latencies.
        const cpuMsPerTurn = turns.length ? (run.cpuSec * 1000) / turns.length : NaN;
        const mainMsPerTurn = turns.length ? (mainCpuSec * 1000) / turns.length : NaN;
        const p95 = percentile(first, 95);
        if (failed === 0 && p95 <= TARGET_P95_MS) best = Math.max(best ?? 0, level);
        rows.push([
          level,
          turns.length,
          refused,
          failed,
          fmt(percentile(first, 50)),
          fmt(p95),
          fmt(percentile(whole, 95)),
          fmt(percentile(srv, 95)),
          fmt(loop.p99),
          fmt(loop.max),
          fmt(cpuPct),
          cpuMsPerTurn.toFixed(1),
          mainMsPerTurn.toFixed(2),
          fmt(peakRss),
          loadNow(),
        ]);
        console.log(
          `\n${level} concurrent text call(s): ${turns.length} turns (${refused} refused as too fast), ${failed} failed calls, ${wallSec.toFixed(0)} s` +
            `\n  turn sent -> first homeowner text: p50 ${fmt(percentile(first, 50))} ms, p95 ${fmt(p95)} ms` +
            `\n  turn sent -> whole reply: p95 ${fmt(percentile(whole, 95))} ms; server's own figure p95 ${fmt(percentile(srv, 95))} ms` +
            `\n  server event-loop delay p99 ${fmt(loop.p99)} ms, max ${fmt(loop.max)} ms` +
            `\n  server CPU ${fmt(cpuPct)}% of one core (${cpuMsPerTurn.toFixed(1)} ms a turn, main thread ${mainMsPerTurn.toFixed(2)} ms), peak RSS ${fmt(peakRss)} MB, machine load ${loadNow()}`,
        );
      }
    },
    TREE,
  );
  printTable(
    [
      'calls',
      'turns',
      'refused',
      'failed calls',
      'first text p50 ms',
      'first text p95 ms',
      'whole reply p95 ms',
      'server p95 ms',
      'loop p99 ms',
      'loop max ms',
      'server CPU %',
      'CPU ms/turn',
      'main thread ms/turn',
      'peak RSS MB',
      'load',
    ],
    rows,
  );
  console.log(
    best === null
      ? `\nNo level kept p95 within ${TARGET_P95_MS} ms.`
      : `\nHighest level with p95 to the first text within ${TARGET_P95_MS} ms: ${best} concurrent calls.`,
  );
}
