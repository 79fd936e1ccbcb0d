import { createHash } from 'node:crypto';
import type { CorpusLine } from '../corpus';
import { scoreLabels, type Prediction } from '../evaluate';
import { familyOf, type ActLabel } from '../labels';
import { readByRules } from '../rules';
import type { Speaker } from '../types';
import { combineActs, type ActSource, type ShippedModel } from './combine';
import { predictActs, trainActs, type LabelledUtterance } from './acts-model';
import { LoadedModel, type TrainOptions } from './logistic';

/**
 * Training and held-out evaluation of the act classifier on the corpus. Every figure is held out
 * by author: a model is trained on all authors but one and scored on that one, so a phrasing an
 * author brings is never seen in training when that author is scored.
 */
export interface ReadLine extends LabelledUtterance {
  id: string;
  author: string;
  acts: string[];
}

export const TRAIN_OPTIONS: TrainOptions = {
  epochs: 12,
  learningRate: 0.3,
  l2: 1e-4,
  l1: 0.005,
  minCount: 2,
  maxFeatures: 3000,
};

/** The corpus lines with the rules' reading of each line and of its context. */
export function readLines(lines: readonly CorpusLine[]): ReadLine[] {
  return lines.map((l) => {
    const other: Speaker = l.speaker === 'rep' ? 'homeowner' : 'rep';
    const previous = l.context
      ? { text: l.context, rules: readByRules(l.context, { speaker: other }) }
      : undefined;
    const rules = readByRules(l.text, { speaker: l.speaker, previous: previous?.rules });
    return { id: l.id, author: l.author, text: l.text, speaker: l.speaker, rules, previous, acts: l.acts };
  });
}

/** Authors split into about `folds` groups, in a fixed order. */
function authorGroups(data: readonly ReadLine[], folds: number): string[][] {
  const authors = [...new Set(data.map((d) => d.author))].sort();
  const groups: string[][] = Array.from({ length: Math.min(folds, authors.length) }, () => []);
  authors.forEach((a, i) => groups[i % groups.length].push(a));
  return groups;
}

export interface HeldOut {
  rules: Prediction[];
  model: Prediction[];
  lines: ReadLine[];
}

/** Predictions for every line by a model that never saw its author (groups of authors held out). */
export function heldOutPredictions(data: readonly ReadLine[], folds: number, opts = TRAIN_OPTIONS): HeldOut {
  const out: HeldOut = { rules: [], model: [], lines: [] };
  for (const group of authorGroups(data, folds)) {
    const test = data.filter((d) => group.includes(d.author));
    const model = new LoadedModel(
      trainActs(
        data.filter((d) => !group.includes(d.author)),
        opts,
      ),
    );
    for (const d of test) {
      out.lines.push(d);
      out.rules.push({ gold: d.acts, predicted: [...d.rules.acts] });
      out.model.push({ gold: d.acts, predicted: predictActs(model, d).acts });
    }
  }
  return out;
}

/** Per act family, the source with the best held-out F1 (rules, the model, or the model backed by the rules). */
export function chooseSources(held: HeldOut): Record<string, ActSource> {
  const candidates: ActSource[] = ['rules', 'model', 'either'];
  const byFamily = new Map<string, Map<ActSource, number>>();
  for (const source of candidates) {
    const combined = held.lines.map((d, i) => ({
      gold: d.acts,
      predicted: combineActs(
        d.rules.acts,
        held.model[i].predicted as ActLabel[],
        new Proxy({}, { get: () => source }) as Record<string, ActSource>,
        d.rules.strong,
      ),
    }));
    for (const s of scoreLabels(combined, { families: true })) {
      const m = byFamily.get(s.label) ?? new Map<ActSource, number>();
      m.set(source, s.f1);
      byFamily.set(s.label, m);
    }
  }
  const sources: Record<string, ActSource> = {};
  for (const [family, f1s] of byFamily) {
    // The rules win ties: a learned decision has to earn its place.
    sources[family] = candidates.reduce(
      (best, c) => ((f1s.get(c) ?? 0) > (f1s.get(best) ?? 0) + 0.005 ? c : best),
      'rules',
    );
  }
  return sources;
}

/** A fingerprint of the corpus a model was trained on. */
export function corpusHash(lines: readonly CorpusLine[]): string {
  const h = createHash('sha256');
  for (const l of lines) h.update(JSON.stringify([l.id, l.speaker, l.context ?? '', l.text, l.acts]));
  return h.digest('hex').slice(0, 16);
}

/** The model shipped in classifier/model.json: trained on every author, with sources chosen held out. */
export function trainShipped(lines: readonly CorpusLine[], folds = 4): ShippedModel & { corpus: string } {
  const data = readLines(lines);
  const sources = chooseSources(heldOutPredictions(data, folds));
  return { ...trainActs(data, TRAIN_OPTIONS), sources, corpus: corpusHash(lines) };
}

/** Combined predictions for every line, each by a model and sources chosen without its author. */
export function nestedHeldOut(data: readonly ReadLine[], innerFolds = 4): Prediction[] {
  const out: Prediction[] = [];
  const authors = [...new Set(data.map((d) => d.author))].sort();
  for (const author of authors) {
    const train = data.filter((d) => d.author !== author);
    const sources = chooseSources(heldOutPredictions(train, innerFolds));
    const model = new LoadedModel(trainActs(train, TRAIN_OPTIONS));
    for (const d of data.filter((x) => x.author === author))
      out.push({
        gold: d.acts,
        predicted: combineActs(d.rules.acts, predictActs(model, d).acts, sources, d.rules.strong),
      });
  }
  return out;
}

export { familyOf };
