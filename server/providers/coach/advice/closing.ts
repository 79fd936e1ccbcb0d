import { repLine } from './slots';
import { firstOf } from './template';
import { sig, type Advise } from './context';

/**
 * Closing: drop a deadline, ask when nothing was asked, firm up a soft ask, find out what holds
 * them back after a no, take a buying signal; when the rep got a yes, what to keep.
 */
export const closingAdvice: Advise = ({ a, f, facts, view, score, values }) => {
  const v = { ...values };
  const deadline = f.missteps.find((m) => m.label === 'leaned on a deadline');
  if (sig(f, 'deadline'))
    return firstOf(
      [
        'Drop the deadline in "{slip}" and ask on the value instead: "Does this feel like the right fix for {problem}? Would you like to go ahead?"',
        'Drop the deadline and ask on the value instead: "Does this feel like the right fix for {problem}? Would you like to go ahead?"',
        'Drop the deadline and ask on the value instead: "Does this feel like the right fit? Would you like to go ahead?"',
      ],
      { ...v, slip: repLine(deadline, facts, view) },
    );
  if (sig(f, 'missedSignal') && !sig(f, 'firm'))
    return firstOf(
      [
        'When {who} asked what happens next, that was your moment: "Let\'s get you on the schedule. Which day works for you[ and {decider}]?"',
      ],
      v,
    );
  if (!sig(f, 'firm') && !sig(f, 'soft') && !sig(f, 'trial'))
    return firstOf(
      [
        'Ask before you leave: "Does this feel like the right fix for {problem}? Would you like to go ahead?"',
        'Ask before you leave: "Does this feel like the right fit? Would you like to go ahead?"',
      ],
      v,
    );
  if (!sig(f, 'firm') && !sig(f, 'soft'))
    return firstOf(
      ['You checked the fit; now ask for the decision itself: "Would you like to go ahead?"'],
      v,
    );
  const soft = f.evidence.find((e) => e.label === 'floated a next step');
  if (!sig(f, 'firm'))
    return firstOf(
      [
        'Pin down "{soft}": "Which day works for you[ and {decider}], and what time?"',
        'Pin your ask down to a day: "Which day works for you[ and {decider}], and what time?"',
      ],
      { ...v, soft: repLine(soft, facts, view, 14) },
    );
  if (sig(f, 'refusedAccepted') && !sig(f, 'accepted') && !sig(f, 'refusedThenExplored'))
    return firstOf(
      [
        'After the no, find out why before you leave: "What would you need to see to feel comfortable going ahead?"',
      ],
      v,
    );
  // Saying back what they are buying is advice only where a yes was read and the rep did not
  // already tie the choice to them (a recommendation in their terms does that).
  if (score >= 8 && sig(f, 'accepted') && !sig(a.options, 'recommend'))
    return firstOf(
      [
        'Keep it, and confirm the choice in their words before the paperwork: "So this fixes {problem}. Let\'s get it on the schedule."',
        'Keep it, and say back what they are buying and why before the paperwork, so the yes is theirs.',
      ],
      v,
    );
  if (score >= 8) return firstOf(['Keep it: ask as plainly on every call, and then stop talking.'], v);
  return firstOf(
    [
      'Ask again after you answer their question, more plainly: "Would you like to go ahead[ with {decider}] on a day that suits you?"',
    ],
    v,
  );
};
