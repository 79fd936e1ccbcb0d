/**
 * How well the shared reading does on authors it never saw (`npm run eval:understanding`): for each
 * corpus author, the classifier is trained on all the others (and which source decides each act
 * family is chosen on them too), then that author's lines are read and scored against their
 * labels. Prints precision, recall and F1 per act family and per label, for the rules alone and
 * for the rules with the classifier, then entity exact match and role agreement per type (the
 * entity readers are rules, so no author is held out for them; the sealed authors' figures are the
 * honest ones); `--check` exits 1 below the floors in
 * server/understanding/corpus/floors.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR, loadCorpus } from '../server/understanding/corpus';
import { nestedHeldOut, readLines } from '../server/understanding/classifier/train';
import { scoreLabels, type LabelScore } from '../server/understanding/evaluate';
import { scoreEntities, type TypeScore } from '../server/understanding/entities';

const args = process.argv.slice(2);
const check = args.includes('--check');
const started = Date.now();
const lines = loadCorpus();
const authors = [...new Set(lines.map((l) => l.author))].sort();
const sealed: string[] = JSON.parse(fs.readFileSync(path.join(CORPUS_DIR, 'sealed.json'), 'utf8')).authors;
const data = readLines(lines);
const combined = nestedHeldOut(data, 3);
const rules = data.map((d) => ({ gold: d.acts, predicted: [...d.rules.acts] }));

const row = (s: LabelScore, r?: LabelScore) =>
  `${s.label.padEnd(22)} ${String(s.tp + s.fn).padStart(5)}   ${(r?.f1 ?? 0).toFixed(2)}    ${s.precision.toFixed(2)}  ${s.recall.toFixed(2)}  ${s.f1.toFixed(2)}`;
function table(title: string, families: boolean, only?: (id: string) => boolean) {
  const pick = <T>(xs: T[]) => xs.filter((_, i) => !only || only(data[i].author));
  const c = scoreLabels(pick(combined), { families });
  const r = scoreLabels(pick(rules), { families });
  console.log(
    `\n${title}\nlabel                      n   rules F1   P     R     F1 (rules + classifier, held out by author)`,
  );
  for (const s of c)
    console.log(
      row(
        s,
        r.find((x) => x.label === s.label),
      ),
    );
  return c;
}

console.log(
  `Corpus: ${lines.length} lines by ${authors.length} authors (${authors.join(', ')}); ${lines.filter((l) => l.speaker === 'rep').length} rep, ${lines.filter((l) => l.speaker === 'homeowner').length} homeowner; ${lines.filter((l) => l.style === 'recogniser').length} recogniser-style`,
);
const families = table('Act families, every author held out in turn', true);
table('Labels with their kinds', false);
if (sealed.some((a) => authors.includes(a)))
  table(`Act families, authors never read while the rules were written (${sealed.join(', ')})`, true, (a) =>
    sealed.includes(a),
  );
entityTable();
console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s)`);

/** Entity exact match and role agreement per type, over every author and over the sealed ones. */
function entityTable() {
  const all = scoreEntities(lines);
  const held = scoreEntities(lines.filter((l) => sealed.includes(l.author)));
  const pct = (x: number | null) => (x === null ? '-' : `${(x * 100).toFixed(1)}%`).padStart(8);
  const cells = (t: TypeScore) => `${String(t.labels).padStart(6)}${pct(t.exact)}${pct(t.role)}`;
  console.log('\nEntities: exact match (over labels and unmatched readings), role agreement among matched');
  console.log(`${''.padEnd(8)}${'every author'.padEnd(28)}sealed (${sealed.join(', ')})`);
  console.log(`${'type'.padEnd(8)}${'labels   exact    role'.padEnd(28)}labels   exact    role`);
  for (const k of ['money', 'times', 'people'] as const)
    console.log(`${k.padEnd(8)}${cells(all[k]).padEnd(28)}${cells(held[k])}`);
}

if (check) {
  const floors: Record<string, number> = JSON.parse(
    fs.readFileSync(path.join(CORPUS_DIR, 'floors.json'), 'utf8'),
  ).f1;
  const below = Object.entries(floors).filter(
    ([label, floor]) => (families.find((s) => s.label === label)?.f1 ?? 0) < floor,
  );
  for (const [label, floor] of below) console.log(`below the floor: ${label} F1 < ${floor}`);
  process.exit(below.length ? 1 : 0);
}
