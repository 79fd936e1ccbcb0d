import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildTrigramModel, corpusSentences, logProb, toArpa } from './ngram-lm';

const sentences = corpusSentences(`# comment
the furnace is old
the furnace is loud
the roof is old
we need a new roof
`);

describe('trigram language model builder', () => {
  it('reads one sentence a line, skipping comments and punctuation', () => {
    expect(sentences).toHaveLength(4);
    expect(corpusSentences("Hi, we're here!\n\n# x")).toEqual([['hi', "we're", 'here']]);
  });

  it('gives a proper distribution after every history, seen or not', () => {
    const model = buildTrigramModel(sentences);
    const words = model.vocab.filter((w) => w !== '<s>');
    for (const history of [
      ['<s>'],
      ['<s>', 'the'],
      ['the', 'furnace'],
      ['furnace', 'is'],
      ['new', 'the'],
      [],
    ]) {
      const total = words.reduce((s, w) => s + 10 ** logProb(model, history, w), 0);
      expect(total).toBeCloseTo(1, 6);
    }
  });

  it('prefers what the text says over what it does not', () => {
    const model = buildTrigramModel(sentences);
    expect(logProb(model, ['the', 'furnace'], 'is')).toBeGreaterThan(
      logProb(model, ['the', 'furnace'], 'roof'),
    );
    expect(logProb(model, ['furnace', 'is'], 'old')).toBeGreaterThan(
      logProb(model, ['furnace', 'is'], 'new'),
    );
  });

  it('writes ARPA with matching counts', () => {
    const arpa = toArpa(buildTrigramModel(sentences));
    for (const n of [1, 2, 3]) {
      const declared = Number(new RegExp(`ngram ${n}=(\\d+)`).exec(arpa)![1]);
      const section = arpa.split(`\\${n}-grams:\n`)[1].split('\n\n')[0].split('\n');
      expect(section).toHaveLength(declared);
    }
    expect(arpa.trim().endsWith('\\end\\')).toBe(true);
  });

  it('the shipped sales model is the one built from its corpus', () => {
    const dir = path.join(path.dirname(new URL(import.meta.url).pathname), 'sales-lm');
    const built = toArpa(
      buildTrigramModel(corpusSentences(fs.readFileSync(path.join(dir, 'corpus.txt'), 'utf8'))),
    );
    expect(fs.readFileSync(path.join(dir, 'sales.arpa'), 'utf8')).toBe(built);
  });
});
