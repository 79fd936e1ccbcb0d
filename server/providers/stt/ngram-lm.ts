/**
 * A small trigram language model builder (interpolated Kneser-Ney with one discount per order),
 * written out in ARPA format for PocketSphinx. Used for the in-home sales conversation model in
 * ./sales-lm, which the recogniser interpolates with its general English model.
 */

const BOS = '<s>';
const EOS = '</s>';

/** Sentences from corpus text: one a line, `#` comments and blank lines skipped, lower-cased. */
export function corpusSentences(text: string): string[][] {
  return text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) =>
      l
        .toLowerCase()
        .replace(/[^a-z' -]+/g, ' ')
        .split(/\s+/)
        .filter(Boolean),
    )
    .filter((s) => s.length > 0);
}

type Counts = Map<string, number>;
const key = (ws: string[]) => ws.join(' ');
const bump = (m: Counts, k: string, by = 1) => m.set(k, (m.get(k) ?? 0) + by);

/** Discount from counts of counts (Ney et al.): n1 / (n1 + 2 n2), within a sane range. */
function discount(counts: Counts): number {
  let n1 = 0;
  let n2 = 0;
  for (const c of counts.values()) {
    if (c === 1) n1++;
    else if (c === 2) n2++;
  }
  const d = n1 + 2 * n2 > 0 ? n1 / (n1 + 2 * n2) : 0.5;
  return Math.min(0.9, Math.max(0.3, d));
}

export interface NgramModel {
  vocab: string[];
  /** log10 probabilities and back-off weights per n-gram, by order (1..3). */
  orders: Map<string, { logProb: number; logBackoff?: number }>[];
}

/** Builds an interpolated Kneser-Ney trigram model from tokenised sentences. */
export function buildTrigramModel(sentences: string[][]): NgramModel {
  const c3: Counts = new Map();
  const raw2: Counts = new Map();
  for (const s of sentences) {
    const t = [BOS, ...s, EOS];
    for (let i = 1; i < t.length; i++) {
      bump(raw2, key([t[i - 1], t[i]]));
      if (i >= 2) bump(c3, key([t[i - 2], t[i - 1], t[i]]));
    }
  }
  // Lower orders count in how many contexts a word follows (continuation counts), except
  // bigrams that start a sentence, which have no left context and keep their raw counts.
  const c2: Counts = new Map();
  for (const k of c3.keys()) bump(c2, k.slice(k.indexOf(' ') + 1));
  for (const [k, c] of raw2) if (k.startsWith(`${BOS} `)) c2.set(k, c);
  const c1: Counts = new Map();
  for (const k of raw2.keys()) bump(c1, k.slice(k.indexOf(' ') + 1));

  const vocab = [...new Set([...c1.keys(), BOS])].sort();
  const predictable = vocab.filter((w) => w !== BOS);

  // Context totals and number of distinct followers, per order.
  const ctx = (counts: Counts) => {
    const total: Counts = new Map();
    const types: Counts = new Map();
    for (const [k, c] of counts) {
      const h = k.slice(0, k.lastIndexOf(' '));
      bump(total, h, c);
      bump(types, h);
    }
    return { total, types };
  };
  const d1 = discount(c1);
  const d2 = discount(c2);
  const d3 = discount(c3);
  const ctx2 = ctx(c2);
  const ctx3 = ctx(c3);

  let sum1 = 0;
  for (const c of c1.values()) sum1 += c;
  const p1 = new Map<string, number>();
  const uniform = 1 / predictable.length;
  const gamma1 = (d1 * c1.size) / sum1;
  for (const w of predictable) p1.set(w, Math.max((c1.get(w) ?? 0) - d1, 0) / sum1 + gamma1 * uniform);

  const gamma = (h: string, total: Counts, types: Counts, d: number) =>
    total.has(h) ? (d * (types.get(h) ?? 0)) / total.get(h)! : 1;
  const p2 = new Map<string, number>();
  for (const [k, c] of c2) {
    const [v, w] = k.split(' ');
    const t = ctx2.total.get(v)!;
    p2.set(k, Math.max(c - d2, 0) / t + gamma(v, ctx2.total, ctx2.types, d2) * p1.get(w)!);
  }
  const p2of = (v: string, w: string) =>
    p2.get(key([v, w])) ?? gamma(v, ctx2.total, ctx2.types, d2) * p1.get(w)!;
  const p3 = new Map<string, number>();
  for (const [k, c] of c3) {
    const [u, v, w] = k.split(' ');
    const h = key([u, v]);
    const t = ctx3.total.get(h)!;
    p3.set(k, Math.max(c - d3, 0) / t + gamma(h, ctx3.total, ctx3.types, d3) * p2of(v, w));
  }

  const log = (x: number) => Math.log10(x);
  const orders: NgramModel['orders'] = [new Map(), new Map(), new Map()];
  for (const w of vocab) {
    const bo = ctx2.total.has(w) ? log(gamma(w, ctx2.total, ctx2.types, d2)) : undefined;
    orders[0].set(w, { logProb: w === BOS ? -99 : log(p1.get(w)!), logBackoff: bo });
  }
  for (const [k, p] of p2) {
    const bo = ctx3.total.has(k) ? log(gamma(k, ctx3.total, ctx3.types, d3)) : undefined;
    orders[1].set(k, { logProb: log(p), logBackoff: bo });
  }
  for (const [k, p] of p3) orders[2].set(k, { logProb: log(p) });
  return { vocab, orders };
}

/** The model as ARPA text. */
export function toArpa(model: NgramModel): string {
  const f = (x: number) => x.toFixed(6);
  const lines = ['\\data\\', ...model.orders.map((o, i) => `ngram ${i + 1}=${o.size}`), ''];
  model.orders.forEach((o, i) => {
    lines.push(`\\${i + 1}-grams:`);
    for (const k of [...o.keys()].sort()) {
      const e = o.get(k)!;
      lines.push(
        e.logBackoff === undefined ? `${f(e.logProb)}\t${k}` : `${f(e.logProb)}\t${k}\t${f(e.logBackoff)}`,
      );
    }
    lines.push('');
  });
  lines.push('\\end\\', '');
  return lines.join('\n');
}

/** log10 P(word | history) under the model, backing off as a decoder would. */
export function logProb(model: NgramModel, history: string[], word: string): number {
  const h = history.slice(-2);
  for (let n = h.length; n >= 0; n--) {
    const ctxWords = h.slice(h.length - n);
    const hit = model.orders[n].get(key([...ctxWords, word]));
    if (hit) {
      let bo = 0;
      // Back-off weights of the longer contexts that did not contain the n-gram.
      for (let m = h.length; m > n; m--) {
        const c = model.orders[m - 1].get(key(h.slice(h.length - m)));
        bo += c?.logBackoff ?? 0;
      }
      return hit.logProb + bo;
    }
  }
  return -99;
}
