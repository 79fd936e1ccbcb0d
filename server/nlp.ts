import winkNLP, { type ItemToken, type WinkMethods } from 'wink-nlp';
import model from 'wink-eng-lite-web-model';

/**
 * wink-nlp with its English model, loaded lazily and once per process: the model takes
 * about a tenth of a second to load, which only the first coaching should pay.
 */
let instance: WinkMethods | null = null;

export function nlp(): WinkMethods {
  if (!instance) instance = winkNLP(model);
  return instance;
}

const CONTENT_POS = new Set(['NOUN', 'PROPN', 'ADJ', 'VERB', 'NUM']);
// Words too common in any sales visit to show that the rep listened when they repeat them.
const GENERIC = new Set([
  'be',
  'have',
  'do',
  'get',
  'go',
  'say',
  'know',
  'think',
  'want',
  'make',
  'look',
  'take',
  'see',
  'come',
  'thing',
  'good',
  'great',
  'okay',
  'yeah',
  'sure',
  'right',
  'really',
  'just',
  'lot',
  'like',
  'well',
  'house',
  'home',
  'one',
  'two',
  'three',
  'time',
  'way',
  'kind',
  'sort',
  'little',
  'big',
  'new',
  'old',
  'gonna',
  'let',
  'mean',
  'guy',
  'people',
  'year',
  'sound',
  'feel',
  'need',
  'use',
  'company',
  'work',
  'give',
  'tell',
  'ask',
  'show',
  'call',
]);

export interface Analysed {
  /** Lemmas of content words (nouns, adjectives, verbs, numbers) minus sales-visit staples. */
  lemmas: Set<string>;
  /** Mean sentence sentiment from the model, -1..1. */
  sentiment: number;
}

export function analyse(text: string): Analysed {
  const its = nlp().its;
  const doc = nlp().readDoc(text);
  const lemmas = new Set<string>();
  doc.tokens().each((t: ItemToken) => {
    if (t.out(its.type) !== 'word' || t.out(its.stopWordFlag)) return;
    if (!CONTENT_POS.has(t.out(its.pos))) return;
    // The typings miss that lemma is a token property; it is at runtime.
    const lemma = String(t.out(its.lemma as never))
      .toLowerCase()
      .replace(/'/g, '');
    if (lemma.length > 2 && !GENERIC.has(lemma)) lemmas.add(lemma);
  });
  return { lemmas, sentiment: Number(doc.out(its.sentiment)) || 0 };
}

export function overlap(a: Set<string>, b: Set<string>): string[] {
  const out: string[] = [];
  for (const x of a) if (b.has(x)) out.push(x);
  return out;
}
