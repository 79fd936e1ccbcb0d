import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { nestedHeldOut, readLines } from './classifier/train';
import { CORPUS_DIR, loadCorpus } from './corpus';
import { scoreLabels } from './evaluate';

/**
 * The shared reading on authors it never saw: each corpus author is read by a classifier trained
 * (and its sources chosen) on the others, and every act family must stay at or above its floor
 * (corpus/floors.json), as `npm run eval:understanding -- --check` does.
 */
describe('held out by author', () => {
  it('keeps every act family at or above its floor', { timeout: 900_000 }, () => {
    const floors: Record<string, number> = JSON.parse(
      fs.readFileSync(path.join(CORPUS_DIR, 'floors.json'), 'utf8'),
    ).f1;
    const scores = scoreLabels(nestedHeldOut(readLines(loadCorpus()), 3), { families: true });
    for (const [family, floor] of Object.entries(floors)) {
      const f1 = scores.find((s) => s.label === family)?.f1 ?? 0;
      expect(f1, family).toBeGreaterThanOrEqual(floor);
    }
  });
});
