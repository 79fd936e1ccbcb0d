import { familyOf } from './labels';

/**
 * Precision, recall and F1 per label over a set of predictions: the figures `npm run
 * eval:understanding` prints, per act family ("question") and per full label ("question:open").
 */
export interface LabelScore {
  label: string;
  tp: number;
  fp: number;
  fn: number;
  precision: number;
  recall: number;
  f1: number;
}

export interface Prediction {
  gold: readonly string[];
  predicted: readonly string[];
}

function score(label: string, tp: number, fp: number, fn: number): LabelScore {
  const precision = tp + fp === 0 ? 1 : tp / (tp + fp);
  const recall = tp + fn === 0 ? 1 : tp / (tp + fn);
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { label, tp, fp, fn, precision, recall, f1 };
}

/** Scores per label; `families` scores "question:open" and "question:closed" as one "question". */
export function scoreLabels(preds: readonly Prediction[], opts: { families?: boolean } = {}): LabelScore[] {
  const key = (l: string) => (opts.families ? familyOf(l) : l);
  const counts = new Map<string, { tp: number; fp: number; fn: number }>();
  const bump = (label: string, field: 'tp' | 'fp' | 'fn') => {
    const c = counts.get(label) ?? { tp: 0, fp: 0, fn: 0 };
    c[field]++;
    counts.set(label, c);
  };
  for (const p of preds) {
    const gold = new Set(p.gold.map(key));
    const predicted = new Set(p.predicted.map(key));
    for (const l of predicted) bump(l, gold.has(l) ? 'tp' : 'fp');
    for (const l of gold) if (!predicted.has(l)) bump(l, 'fn');
  }
  return [...counts.entries()]
    .map(([label, c]) => score(label, c.tp, c.fp, c.fn))
    .sort((a, b) => b.tp + b.fn - (a.tp + a.fn));
}

/** Micro-averaged F1 over the labels given. */
export function microF1(scores: readonly LabelScore[]): number {
  const tp = scores.reduce((n, s) => n + s.tp, 0);
  const fp = scores.reduce((n, s) => n + s.fp, 0);
  const fn = scores.reduce((n, s) => n + s.fn, 0);
  return score('micro', tp, fp, fn).f1;
}
