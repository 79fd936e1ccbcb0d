/**
 * Multi-label logistic regression over string features: one binary model per label sharing one
 * feature vocabulary, trained with AdaGrad and L2, deterministic for a given seed. Small enough to
 * train in a second on the corpus and to ship as a data file (model.json).
 */
export interface LogisticModel {
  version: 2;
  labels: string[];
  /** The features the model knows, in weight order. */
  features: string[];
  /** Per label, its weights as signed bytes (base64) times its scale. */
  weights: string[];
  scales: number[];
  /** Per label, the probability above which it is predicted. */
  thresholds: number[];
}

export interface TrainOptions {
  epochs?: number;
  learningRate?: number;
  l2?: number;
  /** L1 strength: weights that do not earn their place shrink to zero (a small model file). */
  l1?: number;
  seed?: number;
  /** Features seen in fewer examples than this are dropped. */
  minCount?: number;
  /** Weights smaller than this are dropped from the shipped model. */
  prune?: number;
  /** Only the most frequent features are kept (the model file stays small). */
  maxFeatures?: number;
}

export interface Example {
  features: readonly string[];
  labels: ReadonlySet<string>;
}

function rng(seed: number): () => number {
  let s = seed >>> 0 || 1;
  return () => {
    s ^= s << 13;
    s ^= s >>> 17;
    s ^= s << 5;
    return (s >>> 0) / 4294967296;
  };
}

const sigmoid = (z: number) => 1 / (1 + Math.exp(-Math.max(-30, Math.min(30, z))));

function vocabulary(
  examples: readonly Example[],
  minCount: number,
  maxFeatures: number,
): Record<string, number> {
  const counts = new Map<string, number>();
  for (const ex of examples) for (const f of new Set(ex.features)) counts.set(f, (counts.get(f) ?? 0) + 1);
  const kept = [...counts.entries()]
    .filter(([f, c]) => c >= minCount || f === 'bias')
    .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
    .slice(0, maxFeatures)
    .map(([f]) => f)
    .sort();
  return Object.fromEntries(kept.map((f, i) => [f, i]));
}

function indexed(ex: Example, features: ReadonlyMap<string, number> | Record<string, number>): number[] {
  const get =
    features instanceof Map
      ? (f: string) => features.get(f)
      : (f: string) => (features as Record<string, number>)[f];
  const out = new Set<number>();
  for (const f of ex.features) {
    const i = get(f);
    if (i !== undefined) out.add(i);
  }
  return [...out];
}

/** Trains one model for all labels. */
export function trainLogistic(
  examples: readonly Example[],
  labels: readonly string[],
  opts: TrainOptions = {},
): LogisticModel {
  const epochs = opts.epochs ?? 12;
  const rate = opts.learningRate ?? 0.3;
  const l2 = opts.l2 ?? 1e-4;
  const l1 = opts.l1 ?? 0;
  const features = vocabulary(examples, opts.minCount ?? 2, opts.maxFeatures ?? Infinity);
  const dims = Object.keys(features).length;
  const rows = examples.map((ex) => indexed(ex, features));
  const W = labels.map(() => new Float64Array(dims));
  const G = labels.map(() => new Float64Array(dims).fill(1e-8));
  const order = examples.map((_, i) => i);
  const random = rng(opts.seed ?? 7);
  for (let epoch = 0; epoch < epochs; epoch++) {
    for (let i = order.length - 1; i > 0; i--) {
      const j = Math.floor(random() * (i + 1));
      [order[i], order[j]] = [order[j], order[i]];
    }
    for (const e of order) {
      const x = rows[e];
      for (let k = 0; k < labels.length; k++) {
        const w = W[k];
        const g = G[k];
        let z = 0;
        for (const i of x) z += w[i];
        const err = sigmoid(z) - (examples[e].labels.has(labels[k]) ? 1 : 0);
        for (const i of x) {
          const grad = err + l2 * w[i];
          g[i] += grad * grad;
          const step = rate / Math.sqrt(g[i]);
          const v = w[i] - step * grad;
          // Truncated gradient: the L1 pull never carries a weight past zero.
          w[i] = v > 0 ? Math.max(0, v - step * l1) : Math.min(0, v + step * l1);
        }
      }
    }
  }
  return {
    version: 2,
    labels: [...labels],
    features: Object.keys(features).sort((x, y) => features[x] - features[y]),
    ...quantise(W, opts.prune ?? 0.01),
    thresholds: labels.map(() => 0.5),
  };
}

/** Weights as signed bytes per label (a model file of a few hundred kilobytes). */
function quantise(W: Float64Array[], prune: number): { weights: string[]; scales: number[] } {
  const scales = W.map((w) => Math.max(1e-9, ...w.map(Math.abs)) / 127);
  const weights = W.map((w, k) => {
    const bytes = new Int8Array(w.length);
    w.forEach((v, i) => (bytes[i] = Math.abs(v) < prune ? 0 : Math.round(v / scales[k])));
    return Buffer.from(bytes.buffer).toString('base64');
  });
  return { weights, scales };
}

/** A model ready to score: weights unpacked into dense rows once. */
export class LoadedModel {
  private readonly dense: Float64Array[];
  private readonly index: Map<string, number>;
  constructor(readonly model: LogisticModel) {
    this.index = new Map(model.features.map((f, i) => [f, i]));
    this.dense = model.weights.map((b64, k) => {
      const bytes = new Int8Array(Buffer.from(b64, 'base64'));
      return Float64Array.from(bytes, (v) => v * model.scales[k]);
    });
  }

  /** The probability of each label. */
  probabilities(features: readonly string[]): Map<string, number> {
    const x = indexed({ features, labels: new Set() }, this.index);
    const out = new Map<string, number>();
    this.model.labels.forEach((label, k) => {
      let z = 0;
      for (const i of x) z += this.dense[k][i];
      out.set(label, sigmoid(z));
    });
    return out;
  }
}
