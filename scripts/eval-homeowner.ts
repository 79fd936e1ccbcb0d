/**
 * Judges the scripted homeowner on rep scripts (scripts/homeowner-scripts/*.json): every line is
 * sent as one rep turn and the replies are scored (docs/benchmarks.md, "Homeowner").
 *
 *   npm run eval:homeowner                 # the tuning set
 *   npm run eval:homeowner -- --held-out   # the held-out set
 *   npm run eval:homeowner -- --all --verbose
 *   npm run eval:homeowner -- --dir path/to/scripts
 *
 * The brain is driven directly, through the same streamed reply() and end signal the call
 * session uses.
 */
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { scriptedBrain } from '../server/providers/brain/scripted';
import type { BrainTurn } from '../server/providers/brain/types';
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

async function runDirect(script: RepScript): Promise<CallRecord> {
  const conv = scriptedBrain.startConversation({ stage: script.stage, seed: seedOf(script.name) });
  const opening = conv.opening();
  const history: BrainTurn[] = [{ role: 'assistant', text: opening }];
  const record: CallRecord = { script, opening, turns: [], ended: null };
  for (const line of script.lines) {
    history.push({ role: 'user', text: line.text });
    const start = performance.now();
    let reply = '';
    for await (const piece of conv.reply(history)) reply += piece;
    const ms = performance.now() - start;
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
  // The language model of the lemmatiser loads once per process, as in the server.
  scriptedBrain.startConversation({ stage: 'General', seed: 1 }).opening();
  await runDirect(scripts[0]);
  const calls: CallRecord[] = [];
  for (const script of scripts) calls.push(await runDirect(script));
  const scores = calls.map(scoreCall);
  printTable(scores);

  const sum = (k: keyof ScriptScore) => scores.reduce((a, s) => a + (s[k] as number), 0);
  const pushy = scores.filter((s) => s.pushy);
  const latencies = scores.flatMap((s) => s.latencies);
  const contradictions = scores.flatMap((s) => s.contradictions);
  const totals = {
    scripts: scores.length,
    turnsAnswered: `${sum('answered')}/${sum('turns')}`,
    repeats: `${sum('repeated')}/${sum('sentences')} (${pct(sum('repeated'), sum('sentences'))}, target <= 2%)`,
    onTopic: `${sum('onTopic')}/${sum('questions')} (${pct(sum('onTopic'), sum('questions'))}, target >= 90%)`,
    goodbyes: `${sum('goodbyesAnswered')}/${sum('goodbyes')} (${pct(sum('goodbyesAnswered'), sum('goodbyes'))}, target >= 95%)`,
    pushyEnded: `${pushy.filter((s) => s.pushyEnded).length}/${pushy.length} (target all)`,
    offTopicAgreements: `${sum('offTopicAgreements')} (target 0)`,
    contradictions: `${contradictions.length} (target 0)`,
    replyP95Ms: `${p95(latencies).toFixed(2)} (target <= 20; direct, ${latencies.length} turns)`,
  };
  console.log('\noverall');
  for (const [k, v] of Object.entries(totals)) console.log(`  ${k.padEnd(20)} ${v}`);
  if (verbose) {
    for (const s of scores) {
      for (const m of s.offTopicMisses) console.log(`off topic [${s.name}] ${m}`);
      for (const c of s.contradictions) console.log(`contradiction [${s.name}] ${c}`);
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
