/**
 * Coaches every role-play transcript in ../shared/fixtures/transcripts (or the folder given
 * as the first argument) and compares the section scores with the expected bands, and the
 * overall scores with the expected overall rank. Uses the coach the environment selects
 * (the rubric engine unless an LLM is configured). `--check` exits 1 below the targets.
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  parseCoaching,
  overallScore,
  SECTION_KEYS,
  SECTION_TITLES,
  type SectionKey,
} from '../core/coaching-format';
import { transcriptEntrySchema } from '../core/transcript';
import { loadConfig } from '../server/env';
import { selectCoach } from '../server/providers/coach';
import { coachTranscript } from '../server/domain/coaching/service';
import { z } from 'zod';

const BAND_TARGET = 80;
const RANK_TARGET = 0.8;

type Band = 'low' | 'mid' | 'high';
const bandOf = (score: number): Band => (score >= 8 ? 'high' : score >= 5 ? 'mid' : 'low');

const fixtureSchema = z.object({
  id: z.string(),
  stage: z.string(),
  personaName: z.string().optional(),
  durationSec: z.number().optional(),
  transcript: z.array(transcriptEntrySchema),
  expected: z.object({
    empathy: z.enum(['low', 'mid', 'high']),
    needsAnalysis: z.enum(['low', 'mid', 'high']),
    exploringOptions: z.enum(['low', 'mid', 'high']),
    objectionHandling: z.enum(['low', 'mid', 'high']),
    closing: z.enum(['low', 'mid', 'high']),
    followUp: z.enum(['low', 'mid', 'high']),
    overallRank: z.number(),
  }),
});

export function recogniserText(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Average ranks (1 = largest value), ties sharing their mean rank. */
function ranks(values: number[], descending: boolean): number[] {
  const order = values.map((v, i) => ({ v, i })).sort((a, b) => (descending ? b.v - a.v : a.v - b.v));
  const out = new Array<number>(values.length);
  for (let k = 0; k < order.length;) {
    let j = k;
    while (j + 1 < order.length && order[j + 1].v === order[k].v) j++;
    for (let m = k; m <= j; m++) out[order[m].i] = (k + j) / 2 + 1;
    k = j + 1;
  }
  return out;
}

/** Spearman's rank correlation (Pearson on the ranks, so ties are handled). */
export function spearman(a: number[], b: number[]): number {
  const n = a.length;
  const ma = a.reduce((s, x) => s + x, 0) / n;
  const mb = b.reduce((s, x) => s + x, 0) / n;
  let num = 0;
  let da = 0;
  let db = 0;
  for (let i = 0; i < n; i++) {
    num += (a[i] - ma) * (b[i] - mb);
    da += (a[i] - ma) ** 2;
    db += (b[i] - mb) ** 2;
  }
  return da && db ? num / Math.sqrt(da * db) : 0;
}

async function main() {
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  // --noisy: score what a weak offline recogniser would hand over (lowercase, no punctuation).
  const noisy = args.includes('--noisy');
  const dir = path.resolve(
    args.find((a) => !a.startsWith('--')) ??
      path.join(import.meta.dirname, '../../shared/fixtures/transcripts'),
  );
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  if (!files.length) throw new Error(`No transcript fixtures in ${dir}`);
  const { engine, info } = await selectCoach(loadConfig(process.env));
  console.log(
    `Coach: ${info.label} (${info.engine})\nFixtures: ${dir}${noisy ? ' (as recogniser text)' : ''}\n`,
  );

  const short = (k: SectionKey) =>
    SECTION_TITLES[k]
      .replace('Empathy and Connection', 'Empathy')
      .replace('Objection Handling', 'Objections')
      .replace('Exploring Options', 'Options')
      .replace('Needs Analysis', 'Needs');
  console.log(
    ['transcript'.padEnd(18), ...SECTION_KEYS.map((k) => short(k).padEnd(13)), 'overall', 'rank'].join(''),
  );

  let agree = 0;
  let total = 0;
  const perSection = Object.fromEntries(SECTION_KEYS.map((k) => [k, 0])) as Record<SectionKey, number>;
  const overall: number[] = [];
  const expectedRank: number[] = [];
  const notes: string[] = [];
  for (const f of files) {
    const fx = fixtureSchema.parse(JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')));
    const result = await coachTranscript(engine, {
      stage: fx.stage,
      transcript: noisy
        ? fx.transcript.map((e) => ({ ...e, transcript: recogniserText(e.transcript) }))
        : fx.transcript,
      durationSec: fx.durationSec,
      personaName: fx.personaName,
    });
    if (result.note) notes.push(`${fx.id}: ${result.note}`);
    const doc = parseCoaching(result.coaching);
    if (!doc) throw new Error(`${fx.id}: the coaching did not parse`);
    const cells: string[] = [];
    for (const key of SECTION_KEYS) {
      const score = doc.sections.find((s) => s.key === key)?.score ?? 0;
      const want = fx.expected[key];
      const ok = bandOf(score) === want;
      total++;
      if (ok) {
        agree++;
        perSection[key]++;
      }
      cells.push(`${want.padEnd(4)} ${String(score).padStart(2)}${ok ? ' ' : ' x'}`.padEnd(13));
    }
    const o = overallScore(doc) ?? 0;
    overall.push(o);
    expectedRank.push(fx.expected.overallRank);
    console.log([fx.id.padEnd(18), ...cells, String(o).padEnd(7), String(fx.expected.overallRank)].join(''));
  }
  const agreement = (agree / total) * 100;
  // Rank 1 is best, so compare the overall scores' descending ranks with the expected ranks.
  const rho = spearman(ranks(overall, true), expectedRank);
  console.log('\nCells read "expected-band score", x = disagreement (low 0-4, mid 5-7, high 8-10).');
  console.log(
    `Per section: ${SECTION_KEYS.map((k) => `${short(k)} ${perSection[k]}/${files.length}`).join(', ')}`,
  );
  console.log(`Band agreement: ${agree}/${total} = ${agreement.toFixed(1)}% (target >= ${BAND_TARGET}%)`);
  console.log(
    `Rank correlation (Spearman, overall score vs expected rank): ${rho.toFixed(3)} (target >= ${RANK_TARGET})`,
  );
  for (const n of notes) console.log(`Note: ${n}`);
  await (engine as { close?: () => Promise<void> }).close?.();
  if (check && (agreement < BAND_TARGET || rho < RANK_TARGET)) process.exitCode = 1;
}

if (process.argv[1] && import.meta.url.endsWith(path.basename(process.argv[1]))) {
  main().catch((err) => {
    console.error(err instanceof Error ? err.message : err);
    process.exitCode = 1;
  });
}
