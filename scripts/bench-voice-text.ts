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

async function runCall(baseUrl: string, index: number, startDelayMs: number): Promise<TurnResult[]> {
  await sleep(startDelayMs);
  const stage = STAGES[index % STAGES.length];
  const session = await createSession(baseUrl, stage);
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
  console.log(`Text-call benchmark on ${machine()}; ${TURNS} turns per call, think time ${THINK_MS} ms ±50%`);
  const env = {
    // PostgreSQL (BENCH_DATABASE_URL) as a deployment for hundreds of calls would use; else PGlite.
    ...(process.env.BENCH_DATABASE_URL ? { DATABASE_URL: process.env.BENCH_DATABASE_URL } : {}),
    // The benchmark looks for the limit, so the text-call cap must not be it.
    MAX_TEXT_CALLS: String(Math.max(...LEVELS)),
  };
  const rows: (string | number)[][] = [];
  let best: number | null = null;
  await withBenchServer('doorstep-bench-text-', env, async (server) => {
    for (const level of LEVELS) {
      // Calls join over a few seconds, as reps would, not in one burst.
      const rampMs = Math.min(10_000, level * 20);
      let failed = 0;
      const run = await measured(
        () => processUsage(server.pid!),
        () =>
          Promise.all(
            Array.from({ length: level }, (_, i) =>
              runCall(server.url, i, Math.round((i / level) * rampMs)).catch((err) => {
                failed++;
                if (failed <= 3)
                  console.log(`call ${i} failed: ${err instanceof Error ? err.message : String(err)}`);
                return [] as TurnResult[];
              }),
            ),
          ),
      );
      const { wallSec, peakRss } = run;
      const turns = run.result.flat();
      const first = turns.map((t) => t.firstTextMs);
      const whole = turns.map((t) => t.wholeReplyMs);
      const srv = turns.map((t) => t.serverMs).filter(Number.isFinite);
      const cpuPct = (run.cpuSec / wallSec) * 100;
      // Server CPU per answered turn (connects and session saves included): independent of how
      // busy the rest of the machine is, unlike the latencies.
      const cpuMsPerTurn = turns.length ? (run.cpuSec * 1000) / turns.length : NaN;
      const p95 = percentile(first, 95);
      if (failed === 0 && p95 <= TARGET_P95_MS) best = Math.max(best ?? 0, level);
      rows.push([
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
        loadNow(),
      ]);
      console.log(
        `\n${level} concurrent text call(s): ${turns.length} turns, ${failed} failed calls, ${wallSec.toFixed(0)} s` +
          `\n  turn sent -> first homeowner text: p50 ${fmt(percentile(first, 50))} ms, p95 ${fmt(p95)} ms` +
          `\n  turn sent -> whole reply: p95 ${fmt(percentile(whole, 95))} ms; server's own figure p95 ${fmt(percentile(srv, 95))} ms` +
          `\n  server CPU ${fmt(cpuPct)}% of one core (${cpuMsPerTurn.toFixed(1)} ms a turn), peak RSS ${fmt(peakRss)} MB, machine load ${loadNow()}`,
      );
    }
  });
  printTable(
    [
      'calls',
      'turns',
      'failed calls',
      'first text p50 ms',
      'first text p95 ms',
      'whole reply p95 ms',
      'server p95 ms',
      'server CPU %',
      'CPU ms/turn',
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
