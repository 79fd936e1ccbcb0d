/**
 * How fast the built-in rubric coach is: the cold start (loading the NLP model, first
 * coaching) and the steady-state time per coaching of a 5-minute conversation.
 * A benchmark, not a test: it prints numbers and exits 1 only above the 200 ms budget.
 */
import fs from 'node:fs';
import path from 'node:path';
import { countWords, type TranscriptEntry } from '../core/transcript';
import { rubricCoaching } from '../server/providers/coach/rubric/rubric';

const BUDGET_MS = 200;
const CALL_SEC = 300;

interface Fixture {
  stage: string;
  personaName?: string;
  transcript: TranscriptEntry[];
}

/** A 5-minute conversation built from the fixtures' turns, retimed at about 140 words per minute. */
function fiveMinuteTranscript(fixtures: Fixture[]): Fixture {
  const turns = fixtures.flatMap((f) => f.transcript);
  const out: TranscriptEntry[] = [];
  let t = 1_700_000_000_000;
  let words = 0;
  for (const e of turns) {
    const n = countWords(e.transcript);
    if (words + n > (CALL_SEC / 60) * 140) break;
    words += n;
    t += Math.round((n / 140) * 60_000) + 400;
    out.push({ ...e, timestamp: t });
  }
  return { stage: 'Windows', personaName: 'Linda', transcript: out };
}

function main() {
  const dir = path.resolve(
    process.argv[2] ?? path.join(import.meta.dirname, '../../shared/fixtures/transcripts'),
  );
  const fixtures = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Fixture);
  const call = fiveMinuteTranscript(fixtures);
  const words = call.transcript.reduce((n, e) => n + countWords(e.transcript), 0);
  const input = {
    stage: call.stage,
    transcript: call.transcript,
    durationSec: CALL_SEC,
    personaName: call.personaName,
  };

  let t = performance.now();
  rubricCoaching(input);
  const coldMs = performance.now() - t;

  for (let i = 0; i < 5; i++) rubricCoaching(input); // warm-up
  const runs = 50;
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    t = performance.now();
    rubricCoaching(input);
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  const mean = times.reduce((a, b) => a + b, 0) / runs;
  const p95 = times[Math.floor(runs * 0.95) - 1];
  console.log(
    `Rubric coach on a ${CALL_SEC}-second conversation (${call.transcript.length} entries, ${words} words)`,
  );
  console.log(`Cold start (NLP model load + first coaching): ${coldMs.toFixed(0)} ms`);
  console.log(
    `Steady state over ${runs} runs: mean ${mean.toFixed(1)} ms, median ${times[runs / 2].toFixed(1)} ms, p95 ${p95.toFixed(1)} ms (budget ${BUDGET_MS} ms)`,
  );
  if (p95 > BUDGET_MS) process.exitCode = 1;
}

main();
