import type { ObjectionLabelKind } from '../../../understanding/labels';
import { repLine } from './slots';
import { firstOf } from './template';
import type { Advise } from './context';

/** Per kind of objection: what it was, how to acknowledge it and the question that explores it. */
const KIND: Record<ObjectionLabelKind, { what: string; ack: string; explore: string; answer: string }> = {
  price: {
    what: 'pushed back on the price',
    ack: "That's a fair reaction, it's real money.",
    explore: 'What were you comparing it to?',
    answer: 'then show what the price covers, line by line',
  },
  trust: {
    what: 'questioned whether to trust you',
    ack: "After what you've heard, I'd be careful too.",
    explore: 'What would you need to see to feel safe?',
    answer: 'then show the proof: licence, insurance, references, nothing paid up front',
  },
  timing: {
    what: 'wanted time before deciding',
    ack: 'Of course, it is a big decision.',
    explore: 'What would you want to be sure of before you decide?',
    answer: 'then answer that one thing and offer a set time to decide',
  },
  decision: {
    what: 'wanted someone else in the decision',
    ack: 'Of course, they should be part of this.',
    explore: 'What do you think they will want to know first?',
    answer: 'then offer a time when everyone who decides can be there',
  },
  product: {
    what: 'doubted the product itself',
    ack: "That's a fair worry, and a lot of people have heard it.",
    explore: 'What have you heard about it?',
    answer: 'then answer with the facts for their house and what backs them up',
  },
  competitor: {
    what: 'brought up another quote',
    ack: 'You should compare.',
    explore: 'What does their quote include?',
    answer: 'then show where yours differs, item by item',
  },
  need: {
    what: 'doubted it needs doing',
    ack: 'Fair enough, it may be fine for now.',
    explore: 'What did the last person who looked at it find?',
    answer: 'then show what you saw, and let them decide',
  },
  disruption: {
    what: 'worried about the disruption',
    ack: 'Nobody wants their home turned upside down.',
    explore: 'What part worries you most: the noise, the mess or the time?',
    answer: 'then walk through how the crew protects the house and how long it takes',
  },
};

const CHECK = '"Does that answer it, or is something else holding you back?"';

/**
 * Objection Handling: by the kind of objection the rep handled worst, the step that was missing
 * (acknowledge, explore, answer, check) or what hurt (arguing, discounting, pressure); when no
 * objection came up, raise the likely one; when it went well, what to keep.
 */
export const objectionsAdvice: Advise = ({ a, facts, view, score, values }) => {
  const v = { ...values };
  const ep = a.objections.episodes.find((e) => facts.turns[e.start]?.speaker === 'homeowner');
  if (!a.objections.raised)
    return firstOf(
      [
        'No objection came up, so raise the likely one yourself before you ask: "Most people weigh the cost against {problem}. Is the price on your mind?"',
        'No objection came up, so raise the likely one yourself before you ask: "Most people weigh the cost and the disruption. Is either of those on your mind?"',
      ],
      v,
    );
  if (!ep)
    return firstOf(
      ['Keep raising the likely worry before they do, and end your answer with a check: ' + CHECK],
      v,
    );
  // A kind the facts do not share at this moment (the two readings disagree) is spoken of as
  // push-back alone: the same kind raised elsewhere in the call does not name this one.
  const shared = facts.objections.some((o) => o.kind === ep.label && o.evidence.turn === ep.start);
  const k = shared ? KIND[ep.label] : { ...KIND[ep.label], what: 'pushed back' };
  const when = `When {who} ${k.what}`;
  const hurt = ep.steps.find((s) => ['argued', 'discounted', 'pressured'].includes(s));
  if (hurt)
    return firstOf(
      [
        `${when}, instead of "{slip}", try: "${k.ack} ${k.explore}" Listen, ${k.answer}, and check: ${CHECK}`,
        `${when}, don't ${hurt === 'discounted' ? 'drop the price' : hurt === 'argued' ? 'argue' : 'push'}: "${k.ack} ${k.explore}" Listen, ${k.answer}, and check: ${CHECK}`,
      ],
      { ...v, slip: repLine(ep.misstep, facts, view) },
    );
  if (ep.steps.includes('folded'))
    return firstOf(
      [`${when}, don't let it pass: "${k.ack} ${k.explore}" Listen, ${k.answer}, and check: ${CHECK}`],
      v,
    );
  if (!ep.steps.includes('clarified'))
    return firstOf(
      [`${when}, ask before you answer: "${k.explore}" Their answer tells you what to say next.`],
      v,
    );
  if (!ep.steps.includes('checked it landed'))
    return firstOf([`${when}, you asked and answered well; close the loop with a check: ${CHECK}`], v);
  if (!ep.steps.includes('acknowledged'))
    return firstOf(
      [`${when}, acknowledge it before anything else: "${k.ack}" Then ask and answer as you did.`],
      v,
    );
  return firstOf(
    [
      score >= 8
        ? `Keep it: acknowledge, ask, answer, check. Use the same check on every answer: ${CHECK}`
        : `${when}, you had every step; slow down on the answer: ${k.answer}.`,
    ],
    v,
  );
};
