import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import {
  readLine,
  scoreEntities,
  type EntityScores,
  type LabelledLine,
} from '../server/understanding/entities/eval';

/**
 * Entity precision, recall and exact match per labelled corpus file:
 *   npx tsx scripts/eval-entities.ts FILE... [--misses] [--type money|times|people] [--time]
 * --time also reads every line five more times and prints the mean and 95th percentile per line.
 */

function readLines(file: string): LabelledLine[] {
  const out: LabelledLine[] = [];
  readFileSync(file, 'utf8')
    .split('\n')
    .forEach((raw, n) => {
      const line = raw.trim();
      if (!line) return;
      try {
        out.push(JSON.parse(line) as LabelledLine);
      } catch {
        console.error(`${basename(file)}:${n + 1}: not JSON, skipped`);
      }
    });
  return out;
}

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;

function print(name: string, s: EntityScores, lines: number): void {
  console.log(`${name} (${lines} lines)`);
  for (const kind of ['money', 'times', 'people'] as const) {
    const t = s[kind];
    const role = t.role === null ? '' : `  role ${pct(t.role)}`;
    console.log(
      `  ${kind.padEnd(7)} labels ${String(t.labels).padStart(4)}  readings ${String(t.readings).padStart(4)}  precision ${pct(t.precision).padStart(6)}  recall ${pct(t.recall).padStart(6)}  exact ${pct(t.exact).padStart(6)}${role}`,
    );
  }
}

const args = process.argv.slice(2);
const showMisses = args.includes('--misses');
const typeAt = args.indexOf('--type');
const only = typeAt >= 0 ? args[typeAt + 1] : null;
const files = args.filter((a, i) => !a.startsWith('--') && (typeAt < 0 || i !== typeAt + 1));
if (!files.length) {
  console.error(
    'usage: npx tsx scripts/eval-entities.ts FILE... [--misses] [--type money|times|people] [--time]',
  );
  process.exit(2);
}
const all: LabelledLine[] = [];
for (const file of files) {
  const lines = readLines(file);
  all.push(...lines);
  const s = scoreEntities(lines);
  print(basename(file), s, lines.length);
  if (showMisses)
    for (const m of s.misses.filter((x) => !only || x.type === only))
      console.log(
        `    [${m.type}] ${m.id ?? ''} ${m.text}\n        label:   ${m.label ?? '-'}\n        reading: ${m.reading ?? '-'}`,
      );
}
if (files.length > 1) print('all', scoreEntities(all), all.length);
if (args.includes('--time')) {
  const each: number[] = [];
  for (let round = 0; round < 5; round++)
    for (const line of all) {
      const t0 = performance.now();
      readLine(line);
      each.push(performance.now() - t0);
    }
  each.sort((a, b) => a - b);
  const mean = each.reduce((a, b) => a + b, 0) / each.length;
  console.log(
    `time per line (money, times and people, ${each.length} reads): mean ${mean.toFixed(3)} ms, p50 ${each[Math.floor(each.length / 2)].toFixed(3)} ms, p95 ${each[Math.floor(each.length * 0.95)].toFixed(3)} ms`,
  );
}
