/**
 * How long `understand()` takes per utterance, as the homeowner calls it on every turn: every
 * corpus line is read with the line before it (its `context`) as the previous line, after one
 * warm-up pass, for `--rounds` rounds (3 by default). Prints the mean, p50, p95 and p99 in ms.
 * A benchmark, not a test: numbers move with the machine's load, so compare trees in alternating runs.
 *   npm run bench:understanding [-- --rounds N]
 */
import { loadCorpus } from '../server/understanding/corpus';
import { understand } from '../server/understanding/utterance';

const args = process.argv.slice(2);
const at = args.indexOf('--rounds');
const rounds = at >= 0 ? Math.max(1, Number(args[at + 1]) || 3) : 3;
const lines = loadCorpus();

const read = (l: (typeof lines)[number]) =>
  understand(l.text, { speaker: l.speaker, previous: l.context || undefined });

const cold = performance.now();
for (const l of lines) read(l);
const warmUp = performance.now() - cold;

const each: number[] = [];
for (let r = 0; r < rounds; r++)
  for (const l of lines) {
    const t0 = performance.now();
    read(l);
    each.push(performance.now() - t0);
  }
each.sort((a, b) => a - b);
const q = (p: number) => each[Math.min(each.length - 1, Math.floor(each.length * p))].toFixed(2);
const mean = (each.reduce((a, b) => a + b, 0) / each.length).toFixed(2);
console.log(
  `understand(): ${lines.length} corpus lines, ${each.length} timed reads after a warm-up pass of ${(warmUp / 1000).toFixed(1)} s`,
);
console.log(`per utterance: mean ${mean} ms, p50 ${q(0.5)} ms, p95 ${q(0.95)} ms, p99 ${q(0.99)} ms`);
