/**
 * Judges the scripted homeowner on rep scripts (scripts/homeowner-scripts/*.json): every line is
 * sent as one rep turn and the replies are scored (docs/benchmarks.md, "Homeowner").
 *
 *   npm run eval:homeowner                 # the tuning set
 *   npm run eval:homeowner -- --held-out   # the held-out set
 *   npm run eval:homeowner -- --all --verbose
 *   npm run eval:homeowner -- --dir path/to/scripts
 *
 * By default each script is one call over the real call socket (/api/voice) in text mode, on a
 * server started in this process with the built-in homeowner: typed turns in, the homeowner's
 * final transcript out, and the call's `ended` event. `--direct` drives the brain directly,
 * through the same streamed reply() and end signal the call session uses; `--url` runs the
 * calls against a server that is already running.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { MAX_CONTROL_PER_SEC, MAX_USER_TEXT_CHARS } from '../core/voice-protocol';
import { scriptedBrain } from '../server/providers/brain/scripted';
import type { BrainTurn } from '../server/providers/brain/types';
import { startTestServer } from '../server/test-support/harness';
import { VoiceCallClient } from '../server/test-support/call-client';
import {
  loadScripts,
  p95,
  scoreCall,
  type CallRecord,
  type RepScript,
  type ScriptScore,
} from './lib/homeowner-judge';

const args = process.argv.slice(2);
const verbose = args.includes('--verbose');
const base = join(import.meta.dirname, 'homeowner-scripts');
const dirArg = args.indexOf('--dir');
const dirs =
  dirArg >= 0 && args[dirArg + 1]
    ? [args[dirArg + 1]]
    : args.includes('--all')
      ? [base, join(base, 'held-out')]
      : args.includes('--held-out')
        ? [join(base, 'held-out')]
        : [base];

function seedOf(name: string): number {
  let h = 2166136261;
  for (const c of name) h = Math.imul(h ^ c.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** CPU time per reply in direct mode: less at the mercy of a busy machine than wall time. */
const cpuMs: number[] = [];

async function runDirect(script: RepScript): Promise<CallRecord> {
  const conv = scriptedBrain.startConversation({ stage: script.stage, seed: seedOf(script.name) });
  const opening = conv.opening();
  const history: BrainTurn[] = [{ role: 'assistant', text: opening }];
  const record: CallRecord = { script, opening, turns: [], ended: null };
  for (const line of script.lines) {
    history.push({ role: 'user', text: line.text });
    const start = performance.now();
    const cpuStart = process.cpuUsage();
    let reply = '';
    for await (const piece of conv.reply(history)) reply += piece;
    const ms = performance.now() - start;
    const cpu = process.cpuUsage(cpuStart);
    cpuMs.push((cpu.user + cpu.system) / 1000);
    reply = reply.trim();
    history.push({ role: 'assistant', text: reply });
    record.turns.push({ rep: line.text, tags: line.tags, reply, ms });
    const end = conv.endCall ?? (conv.finished ? 'homeowner' : null);
    if (end) {
      record.ended = end;
      break;
    }
  }
  return record;
}

/** One call over the socket: typed turns, text replies; the call's own `ended` says how it ended. */
async function runSocket(baseUrl: string, script: RepScript): Promise<CallRecord> {
  const call = await VoiceCallClient.connect(baseUrl);
  try {
    call.sendJson({ type: 'start', stage: script.stage, input: 'text', output: 'text' });
    await call.waitForEvent('ready');
    const isFinal = (e: { role: string; transcriptType: string }) =>
      e.role === 'assistant' && e.transcriptType === 'final';
    const opening = (await call.waitForEvent('transcript', isFinal, { timeoutMs: 30_000 })).transcript;
    const record: CallRecord = { script, opening, turns: [], ended: null };
    let lastSent = 0;
    for (const line of script.lines) {
      // Two control messages a turn (the text and a ping), at half the socket's flood limit.
      const gap = (4 * 1000) / MAX_CONTROL_PER_SEC - (Date.now() - lastSent);
      if (gap > 0) await new Promise((r) => setTimeout(r, gap));
      lastSent = Date.now();
      const mark = call.received.length;
      const start = performance.now();
      call.sendJson({ type: 'user-text', text: line.text.slice(0, MAX_USER_TEXT_CHARS) });
      const reply = await call.waitForEvent('transcript', isFinal, { from: mark, timeoutMs: 30_000 });
      const ms = performance.now() - start;
      record.turns.push({ rep: line.text, tags: line.tags, reply: reply.transcript, ms });
      // The server handles messages in order: a pong means the call goes on; an ended call
      // says so first.
      call.sendJson({ type: 'ping' });
      const next = await call
        .waitFor((r) => 'event' in r && (r.event.type === 'pong' || r.event.type === 'ended'), {
          from: mark,
          timeoutMs: 10_000,
        })
        .catch(() => null);
      const ended = next && 'event' in next && next.event.type === 'ended' ? next.event : null;
      if (ended || call.closed) {
        const reason = ended && 'reason' in ended ? ended.reason : null;
        if (reason !== 'customer-ended-call' && reason !== 'homeowner-ended-call')
          throw new Error(
            `${script.name}: the call ended unexpectedly (${reason ?? 'closed'}): ${JSON.stringify(call.events.filter((e) => e.type === 'error'))}`,
          );
        record.ended = reason === 'customer-ended-call' ? 'goodbye' : 'homeowner';
        break;
      }
    }
    return record;
  } finally {
    if (!call.closed) call.terminate();
  }
}

function pct(n: number, d: number): string {
  return d === 0 ? '-' : `${((100 * n) / d).toFixed(1)}%`;
}

function printTable(scores: ScriptScore[]): void {
  const rows = scores.map((s) => [
    s.name,
    s.stage,
    s.style,
    `${s.answered}/${s.turns}`,
    `${s.repeated}/${s.sentences}`,
    `${s.onTopic}/${s.questions}`,
    `${s.goodbyesAnswered}/${s.goodbyes}`,
    s.pushy ? (s.pushyEnded ? 'ended' : 'NOT ENDED') : '-',
    String(s.offTopicAgreements),
    String(s.contradictions.length),
    p95(s.latencies).toFixed(2),
  ]);
  const head = [
    'script',
    'stage',
    'style',
    'answered',
    'repeats',
    'on-topic',
    'goodbyes',
    'pushy',
    'offtopic-agree',
    'contradict',
    'p95 ms',
  ];
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i].length)));
  const line = (r: string[]) => r.map((c, i) => c.padEnd(widths[i])).join('  ');
  console.log(line(head));
  for (const r of rows) console.log(line(r));
}

async function main(): Promise<void> {
  const scripts = dirs.flatMap((d) => loadScripts(d));
  const direct = args.includes('--direct');
  const urlArg = args.indexOf('--url');
  const external = urlArg >= 0 ? args[urlArg + 1] : undefined;
  // Without an LLM configured the server's homeowner is the scripted engine.
  const server = direct || external ? null : await startTestServer({ env: { RATE_LIMIT_VOICE: '0' } });
  const baseUrl = external ?? server?.url ?? '';
  const run = (script: RepScript) => (direct ? runDirect(script) : runSocket(baseUrl, script));
  const calls: CallRecord[] = [];
  try {
    cpuMs.length = 0;
    // Warm-up (the lemmatiser's model loads once per process, as in the server); not scored.
    await run(scripts[0]);
    cpuMs.length = 0;
    for (const script of scripts) calls.push(await run(script));
  } finally {
    await server?.close();
  }
  console.log(
    `mode: ${direct ? 'direct (brain)' : `call socket in text mode (${external ?? 'in-process server'})`}`,
  );
  const scores = calls.map(scoreCall);
  printTable(scores);

  const sum = (k: keyof ScriptScore) => scores.reduce((a, s) => a + (s[k] as number), 0);
  const pushy = scores.filter((s) => s.pushy);
  const latencies = scores.flatMap((s) => s.latencies);
  const contradictions = scores.flatMap((s) => s.contradictions);
  const totals: Record<string, string | number> = {
    scripts: scores.length,
    turnsAnswered: `${sum('answered')}/${sum('turns')}`,
    repeats: `${sum('repeated')}/${sum('sentences')} (${pct(sum('repeated'), sum('sentences'))}, target <= 2%)`,
    onTopic: `${sum('onTopic')}/${sum('questions')} (${pct(sum('onTopic'), sum('questions'))}, target >= 90%)`,
    goodbyes: `${sum('goodbyesAnswered')}/${sum('goodbyes')} (${pct(sum('goodbyesAnswered'), sum('goodbyes'))}, target >= 95%)`,
    proposedDays: `${sum('proposalsAnswered')}/${sum('proposals')} taken up (${pct(sum('proposalsAnswered'), sum('proposals'))}, target all; the judge's own reading)`,
    pushyEnded: `${pushy.filter((s) => s.pushyEnded).length}/${pushy.length} (target all)`,
    offTopicAgreements: `${sum('offTopicAgreements')} (target 0)`,
    contradictions: `${contradictions.length} (target 0)`,
    replyP95Ms: `${p95(latencies).toFixed(2)} (target <= 20; ${direct ? 'brain only' : 'typed turn sent -> final reply received'}, ${latencies.length} turns)`,
  };
  if (direct) totals.replyCpuP95Ms = `${p95(cpuMs).toFixed(2)} (CPU time per reply)`;
  console.log('\noverall');
  for (const [k, v] of Object.entries(totals)) console.log(`  ${k.padEnd(20)} ${v}`);
  if (verbose) {
    for (const s of scores) {
      for (const m of s.offTopicMisses) console.log(`off topic [${s.name}] ${m}`);
      for (const c of s.contradictions) console.log(`contradiction [${s.name}] ${c}`);
      for (const m of s.proposalMisses) console.log(`day not taken up [${s.name}] ${m}`);
    }
  }
  if (args.includes('--transcripts')) {
    for (const c of calls) {
      console.log(`\n== ${c.script.name} (${c.script.stage}, ${c.script.style}) ended: ${c.ended ?? 'no'}`);
      console.log(`   HO: ${c.opening}`);
      for (const t of c.turns) console.log(`  REP: ${t.rep}\n   HO: ${t.reply}`);
    }
  }
}

await main();
