import { needAreas, UNIVERSAL_DEPTH_AREAS } from '../../../understanding/readers/needs';
import { sentence } from '../rubric/view';
import { repLine } from './slots';
import { firstOf } from './template';
import { sig, type Advise } from './context';

/** One open question per area a discovery should reach, in the rep's voice. */
const DEPTH_QUESTION: Record<string, string> = {
  budget: 'What range were you hoping to stay within?',
  timeline: 'When would you like it done by?',
  decision: 'Who else will want a say in this?',
  horizon: 'How long do you see yourself in the house?',
};

/**
 * Needs Analysis: ask before pricing, open the closed questions, reach budget, timing and who
 * decides (only those not reached), follow up on answers, and sum up before pricing.
 */
export const needsAdvice: Advise = ({ a, f, facts, view, score, values, stage }) => {
  const v = { ...values };
  // An area the homeowner already spoke of is not one to ask about ("this is my forever home").
  const missing = [...UNIVERSAL_DEPTH_AREAS].filter(
    (id) => !a.needAreasCovered.includes(id) && !a.needAreasTalkedOf.includes(id),
  );
  const labels = needAreas(stage);
  const ask = missing.map((id) => DEPTH_QUESTION[id]).filter(Boolean);
  if (!sig(f, 'total'))
    return firstOf(
      [
        'Before any price, ask three open questions and listen to the answers: "What\'s been going on with {thing}?", "What would a good result look like for you?" and "Who else will weigh in on this?"',
      ],
      v,
    );
  const closed = a.questions.filter((q) => q.form === 'yesno' && q.turn < a.discoveryEnd);
  if (sig(f, 'total') >= 4 && sig(f, 'yesno') / sig(f, 'total') >= 0.7) {
    const e = closed.find((q) => repLine({ quote: q.text, turn: q.turn }, facts, view, 12));
    return firstOf(
      [
        'Turn closed questions like "{closed}" into open ones that let them talk: "What has {problem} been like day to day?"',
        'Turn closed questions like "{closed}" into open ones that let them talk: "What\'s been going on with {thing}?"',
        'Turn your yes/no questions into open ones that let them talk: "What\'s been going on with {thing}?"',
      ],
      { ...v, closed: e && repLine({ quote: e.text, turn: e.turn }, facts, view, 12) },
    );
  }
  if (!sig(f, 'depth') && ask.length)
    return firstOf(
      [
        `You did not ask about ${sentence(labels.filter((l) => missing.includes(l.id)).map((l) => l.label))}. Ask before you price it: "${ask.slice(0, 2).join(' ')}"`,
      ],
      v,
    );
  if (sig(f, 'singlePush'))
    return firstOf(
      [
        'Let their answers shape the offer: say back what you heard, then build on it: "You said fixing {problem} matters most, so here\'s what I\'d look at first."',
        'Let their answers shape the offer: say back the one thing they said matters most, then build the options on it.',
      ],
      v,
    );
  if (!sig(f, 'followUps'))
    return firstOf(
      [
        'Follow an answer before the next topic: when they tell you about {problem}, ask "How long has that been going on, and what have you tried?"',
        'Follow an answer before the next topic: "How long has that been going on, and what have you tried?"',
      ],
      v,
    );
  if (score >= 8)
    return firstOf(
      [
        'Keep it, and sum up before you price: "So if I have it right, fixing {problem} comes first[, and {decider} will want a say]. Did I miss anything?"',
        'Keep it, and sum up before you price: say back the two or three things they told you matter most and ask what you missed.',
      ],
      v,
    );
  return firstOf(
    [
      `One more open question would have gone deeper: "${ask[0] ?? 'What would make this a success for you?'}"`,
    ],
    v,
  );
};
