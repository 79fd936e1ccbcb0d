/**
 * Trains the act classifier on the labelled corpus (server/understanding/corpus/*.jsonl) and
 * writes server/understanding/classifier/model.json: `npm run train:understanding`. Run it after
 * adding corpus lines or changing a rule; `npm run eval:understanding` reports how it does on
 * authors it never saw.
 */
import fs from 'node:fs';
import path from 'node:path';
import { loadCorpus } from '../server/understanding/corpus';
import { trainShipped } from '../server/understanding/classifier/train';

const started = Date.now();
const lines = loadCorpus();
const model = trainShipped(lines);
const file = path.join(import.meta.dirname, '../server/understanding/classifier/model.json');
fs.writeFileSync(file, JSON.stringify(model) + '\n');
const weights = model.labels.length * model.features.length;
console.log(
  `trained on ${lines.length} lines by ${new Set(lines.map((l) => l.author)).size} authors in ${((Date.now() - started) / 1000).toFixed(1)} s`,
);
console.log(
  `${model.labels.length} labels, ${Object.keys(model.features).length} features, ${weights} weights; ${(fs.statSync(file).size / 1024).toFixed(0)} KB`,
);
console.log('sources per family:', JSON.stringify(model.sources));
