import { isSpanDay } from '../../../understanding/entities';
import { firstOf } from './template';
import { sig, type Advise } from './context';
import type { Grounded } from './template';

const WEEKDAYS = ['monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday', 'sunday'];
/** A day put mid-sentence as said, its weekday names capitalised ("next Tuesday"). */
const dayCased = (s: string) =>
  s
    .split(' ')
    .map((w, i) =>
      WEEKDAYS.includes(w.toLowerCase()) ? cap(w) : i === 0 ? w.charAt(0).toLowerCase() + w.slice(1) : w,
    )
    .join(' ');

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/**
 * Follow-Up: from the next step the homeowner agreed to (its day, time and who comes), only what
 * is missing: a day, a time, the people, a yes; or, when all of it is there, put it in writing.
 */
export const followUpAdvice: Advise = ({ f, facts, score, values }) => {
  const v = { ...values };
  const step = facts.agreedStep;
  const offered = [...facts.proposals]
    .reverse()
    .find((p) => p.by === 'rep' && p.answer !== 'agreed' && !!p.day && !isSpanDay(p.day));
  const put: Grounded | null = offered
    ? { value: dayCased(offered.evidence.text.trim()), evidence: [offered.evidence] }
    : null;
  if (step && score >= 8)
    return firstOf(
      [
        'Keep it, and put it in writing: before you leave, text {who} "{when}[, with {invitees}]", so nobody has to remember it.',
        'Keep it, and put it in writing: before you leave, text them the day, the time and who comes, so nobody has to remember it.',
      ],
      v,
    );
  if (step && !step.time && !sig(f, 'time'))
    return firstOf(
      [
        'Pin the time before you leave: "{when} it is. What time works best[ for you and {invitees}]?"',
        'Pin the time before you leave: "What time works best on that day?"',
      ],
      v,
    );
  if (step && !sig(f, 'attendees') && v.invitees)
    return firstOf(
      [
        'Say who will be there: "{when}, with you and {invitees}. Does that work?"',
        'Say who will be there: "With you and {invitees}. Does that work?"',
      ],
      v,
    );
  if (step)
    return firstOf(
      [
        'Confirm it in writing before you leave: text {who} "{when}" and what happens at the visit.',
        'Confirm it in writing before you leave: the day, the time and what happens at the visit.',
      ],
      v,
    );
  if (put)
    return firstOf(['Get a yes to the day you put forward: "Does {put} work for you[ and {decider}]?"'], {
      ...v,
      put,
    });
  if (sig(f, 'deadlineStep'))
    return firstOf(
      [
        'Set the next step on its own, not on a deadline: "Which day this week works for you[ and {decider}], and what time?"',
      ],
      v,
    );
  if (sig(f, 'sendPromise'))
    return firstOf(
      [
        'Sending the quote is a start; book the call to go over it: "Which day can I call you[ and {decider}] to walk through it?"',
      ],
      v,
    );
  if (sig(f, 'handOff') && !sig(f, 'vague'))
    return firstOf(
      [
        'Don\'t leave the next move to them. Before you go, agree when you will talk again: "Which day works for a quick call[ with you and {decider}], and what time?"',
      ],
      v,
    );
  if (sig(f, 'vague') || sig(f, 'handOff'))
    return firstOf(
      [
        'Don\'t leave the next step open-ended: "Which day this week works for you[ and {decider}], and what time?"',
      ],
      v,
    );
  // A step the section read with its day (and scored well) though the call facts hold none agreed:
  // never advice to put a day on it.
  if (sig(f, 'day') && score >= 8)
    return firstOf(
      ['Keep it, and put it in writing: before you leave, text them the day, the time and who comes.'],
      v,
    );
  if (sig(f, 'day'))
    return firstOf(['Before you leave, hear a clear yes to the day, and text it to them.'], v);
  return firstOf(
    [
      'Before you leave, put a day on the next step: "Which day works for you[ and {decider}], and what time?"',
    ],
    v,
  );
};
