/**
 * The understanding layer's vocabulary: what an utterance does (acts), what it is about
 * (topics) and what it names (entities). One vocabulary for the homeowner, the coach and the
 * metrics; the labelled corpus (corpus/GUIDE.md) is written in the same terms.
 */

export type Speaker = 'rep' | 'homeowner';

/**
 * Household topics a rep can ask about; each maps to a fact the homeowner may reveal. The
 * corpus topics (corpus/GUIDE.md) add price, history, financing, process, warranty, insurance,
 * schedule, life and company, which the readers report as their own acts and fields.
 */
export type Topic =
  'home' | 'problem' | 'budget' | 'timeline' | 'decision' | 'quotes' | 'priorities' | 'product';

export const TOPICS: Topic[] = [
  'problem',
  'home',
  'budget',
  'timeline',
  'decision',
  'quotes',
  'priorities',
  'product',
];

/** Parts of the homeowner's own life a rep may ask about, as people do at a kitchen table. */
export type LifeSubject = 'kids' | 'work' | 'pets' | 'leisure' | 'roots' | 'spouse';

export const LIFE_SUBJECTS: LifeSubject[] = ['kids', 'work', 'pets', 'leisure', 'roots', 'spouse'];

/** Worries a homeowner raises about going ahead, and that a rep's answer can address. */
export type ObjectionKind = 'price' | 'trust' | 'timing' | 'spouse' | 'competitor';
