import { ACT_LABELS, familyOf, type ActLabel } from '../labels';
import type { RuleReading } from '../rules';
import type { Speaker } from '../types';
import { featuresOf } from './features';
import { LoadedModel, trainLogistic, type Example, type LogisticModel, type TrainOptions } from './logistic';

/**
 * The act classifier: a logistic model per act family ("question") and per full label
 * ("question:open"), over the utterance's words, its frame and what the rules read in it and in
 * the line before. A family is predicted when its probability clears its threshold; its kinds are
 * those that clear theirs, else the likeliest one.
 */
export const FAMILIES_WITH_KINDS = new Set(ACT_LABELS.filter((l) => l.includes(':')).map((l) => familyOf(l)));
export const MODEL_LABELS: string[] = [
  ...new Set(ACT_LABELS.map((l) => familyOf(l))),
  ...ACT_LABELS.filter((l) => l.includes(':')),
];

export interface LabelledUtterance {
  text: string;
  speaker: Speaker;
  rules: RuleReading;
  previous?: { text: string; rules: RuleReading };
  acts?: readonly string[];
}

export function exampleOf(u: LabelledUtterance): Example {
  const labels = new Set<string>();
  for (const a of u.acts ?? []) {
    labels.add(a);
    labels.add(familyOf(a));
  }
  return { features: featuresOf(u), labels };
}

export function trainActs(data: readonly LabelledUtterance[], opts: TrainOptions = {}): LogisticModel {
  return trainLogistic(data.map(exampleOf), MODEL_LABELS, opts);
}

/** The acts the model predicts, with the probability of each family. */
export function predictActs(
  model: LoadedModel,
  u: LabelledUtterance,
): { acts: ActLabel[]; scores: Map<string, number> } {
  const p = model.probabilities(featuresOf(u));
  const threshold = (label: string) => model.model.thresholds[model.model.labels.indexOf(label)] ?? 0.5;
  const acts: ActLabel[] = [];
  for (const family of new Set(ACT_LABELS.map((l) => familyOf(l)))) {
    if ((p.get(family) ?? 0) < threshold(family)) continue;
    if (!FAMILIES_WITH_KINDS.has(family)) {
      acts.push(family as ActLabel);
      continue;
    }
    const kinds = ACT_LABELS.filter((l) => familyOf(l) === family);
    const sure = kinds.filter((k) => (p.get(k) ?? 0) >= threshold(k));
    if (sure.length) acts.push(...sure);
    else acts.push(kinds.reduce((a, b) => ((p.get(a) ?? 0) >= (p.get(b) ?? 0) ? a : b)));
  }
  return { acts, scores: p };
}
