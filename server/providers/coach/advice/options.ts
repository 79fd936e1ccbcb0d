import { firstOf } from './template';
import { sig, type Advise } from './context';

/**
 * Exploring Options: lay out priced choices (only if the rep did not), price each named choice,
 * recommend one and tie it to what the homeowner said; keep a strong layout and go one step further.
 */
export const optionsAdvice: Advise = ({ f, facts, score, values }) => {
  const v = { ...values };
  const offered = Math.max(sig(f, 'optionCount'), facts.offers.length);
  if (!sig(f, 'optionTurns') && !facts.offers.length)
    return firstOf(
      [
        'Before you ask for anything, lay out two or three choices with a price each, and say which you would pick for {problem} and why.',
        'Before you ask for anything, lay out two or three choices with a price each, and say which you would pick for them and why.',
      ],
      v,
    );
  if (sig(f, 'refusedAlternative'))
    return firstOf(
      [
        'When {who} asked for something smaller, price it beside the full job instead of talking them out of it, then recommend one: they trust a rep who shows the cheaper road.',
      ],
      v,
    );
  if (offered <= 1)
    return firstOf(
      [
        'Offer a choice, not one package: a smaller fix for {problem} beside the full job, each with its price, so {who} can pick.',
        'Offer a choice, not one package: a smaller fix beside the full job, each with its price, so {who} can pick.',
      ],
      v,
    );
  if (sig(f, 'prices') < 2 && facts.offers.length < 2)
    return firstOf(
      ['Put a price on each option you named, side by side, so they can compare before you recommend.'],
      v,
    );
  if (!sig(f, 'recommend'))
    return firstOf(
      [
        'You laid out {prices}. Now say which you would choose and why, in their terms: "Because of {problem}, this is the one I\'d pick."',
        'You laid out the prices. Now say which you would choose and why, in their terms: "Because of what you told me, this is the one I\'d pick."',
      ],
      v,
    );
  if (sig(f, 'steer'))
    return firstOf(
      [
        'Drop "what everyone else is doing" and recommend on their own needs: "Because of {problem}, I\'d go with this one."',
        'Drop "what everyone else is doing" and recommend on what they told you they need.',
      ],
      v,
    );
  if (score >= 8 || sig(f, 'tied') >= 3)
    return firstOf(
      [
        'Keep it. One step further: after you lay out {prices}, ask which one fits them best before you recommend, so the choice feels like theirs.',
        'Keep it. One step further: after you lay out the choices for {problem}, ask which one fits them best before you recommend.',
        'Keep it. One step further: after the prices, ask which one fits them best before you recommend, so the choice feels like theirs.',
      ],
      v,
    );
  return firstOf(
    [
      'Tie your pick to what they told you: "Because of {problem}, this is the one I\'d choose."',
      'Tie your pick to what they told you, in their own words, before you give the reason in yours.',
    ],
    v,
  );
};
