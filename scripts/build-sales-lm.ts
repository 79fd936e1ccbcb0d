/**
 * Rebuilds server/providers/stt/sales-lm/sales.arpa from corpus.txt (the in-home sales
 * conversation text) after the corpus is edited: npx tsx scripts/build-sales-lm.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { buildTrigramModel, corpusSentences, toArpa } from '../server/providers/stt/ngram-lm';

const dir = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../server/providers/stt/sales-lm');
const model = buildTrigramModel(corpusSentences(fs.readFileSync(path.join(dir, 'corpus.txt'), 'utf8')));
fs.writeFileSync(path.join(dir, 'sales.arpa'), toArpa(model));
console.log(`sales.arpa: ${model.orders.map((o, i) => `${o.size} ${i + 1}-grams`).join(', ')}`);
