import { looseContractions as loose } from '../text/normalise';

/**
 * What a rep's money sentence does besides naming a price: cutting it ("I'll knock fifteen
 * percent off", "the rebate takes two thousand off"), which makes the figure a discount or a
 * saving rather than another option. Rules run on normalized text.
 */
const CUT = loose(
  /\b(take|knock|shave|drop|takes|knocks|shaves|drops|took|knocked) (\w+ ){0,4}(off|down)\b|\b(discount|rebate|rebates|credit|savings?|you save|save you|saves you)\b|\b(percent|%) off\b|\bbrings? it (down )?(to|under|below)\b/,
);

/** Whether a normalized sentence cuts a price rather than offering one. */
export function cutsPrice(norm: string): boolean {
  return CUT.test(norm);
}
