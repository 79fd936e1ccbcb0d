/**
 * How well the shared reading does on authors it never saw (`npm run eval:understanding`): for each
 * corpus author, the classifier is trained on all the others (and which source decides each act
 * family is chosen on them too), then that author's lines are read and scored against their
 * labels. Prints precision, recall and F1 per act family and per label, for the rules alone and
 * for the rules with the classifier; `--check` exits 1 below the floors in
 * server/understanding/corpus/floors.json.
 */
import fs from 'node:fs';
import path from 'node:path';
import { CORPUS_DIR, loadCorpus } from '../server/understanding/corpus';
import { nestedHeldOut, readLines } from '../server/understanding/classifier/train';
import { scoreLabels, type LabelScore } from '../server/understanding/evaluate';

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
console.log(`\n(${((Date.now() - started) / 1000).toFixed(0)} s)`);

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
