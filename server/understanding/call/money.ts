import type { MoneyEntity } from '../entities';
import { cutsPrice } from '../readers/offers';
import { normalizeText } from '../text/normalise';
import { does } from '../utterance';
import { sentenceAt, spanOf } from './evidence';
import type { CallTurn, MoneyFact, OfferFact } from './types';

const factOf = (t: CallTurn, m: MoneyEntity): MoneyFact => ({
  ...(m.value !== undefined ? { value: m.value } : {}),
  ...(m.min !== undefined ? { min: m.min, max: m.max } : {}),
  per: m.per,
  role: m.role,
  evidence: spanOf(t, m.start, m.end),
});

/** Money the rep named, in the order said. */
export function repMoney(turns: CallTurn[]): MoneyFact[] {
  return turns.filter((t) => t.speaker === 'rep').flatMap((t) => t.entities.money.map((m) => factOf(t, m)));
}

/** The words just around an amount in its sentence: four before, two after. */
function around(text: string, m: MoneyEntity, sentence: { start: number; end: number }): string {
  const before = text.slice(sentence.start, m.start).split(' ').filter(Boolean).slice(-4);
  const after = text.slice(m.end, sentence.end).split(' ').filter(Boolean).slice(0, 2);
  return [...before, m.text, ...after].join(' ');
}

/** Roles an offered price can carry ("saving" too: a price said beside a saving reads as one). */
const OFFER_ROLES = new Set<MoneyEntity['role']>(['price', 'quote', 'saving']);

const amountKey = (m: Pick<MoneyFact, 'value' | 'min' | 'max'>) =>
  m.value !== undefined ? String(m.value) : `${m.min}-${m.max}`;

/** An amount the homeowner just said, which the rep is echoing rather than offering. */
function echoed(turns: CallTurn[], t: CallTurn, m: MoneyEntity): boolean {
  const before = turns[t.index - 1];
  return (
    !!before &&
    before.speaker === 'homeowner' &&
    before.entities.money.some((x) => amountKey(x) === amountKey(m))
  );
}

/**
 * The distinct priced offers: the rep's whole-job amounts, each once. A deposit, a monthly or
 * per-foot rate, a discount or rebate, a figure in a deadline pitch ("if you sign tonight I'll
 * knock fifteen percent off") and the homeowner's own figure said back are not offers; counts
 * ("twelve thousand floors") never read as money at all.
 */
export function offersOf(turns: CallTurn[]): OfferFact[] {
  const seen = new Set<string>();
  const out: OfferFact[] = [];
  for (const t of turns) {
    if (t.speaker !== 'rep') continue;
    const promo = does(t.utterance, 'pressure:deadline') || does(t.utterance, 'pressure:discount_now');
    for (const m of t.entities.money) {
      if (m.per !== null || !OFFER_ROLES.has(m.role) || promo || echoed(turns, t, m)) continue;
      const sentence = sentenceAt(t, m.start);
      if (cutsPrice(normalizeText(around(t.text, m, sentence)))) continue;
      const key = amountKey(m);
      if (seen.has(key)) continue;
      seen.add(key);
      out.push({ price: factOf(t, m), sentence: sentence.text });
    }
  }
  return out;
}
