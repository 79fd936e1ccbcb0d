import { homeownerWords } from './slots';
import { firstOf } from './template';
import { sig, type Advise } from './context';

/**
 * Empathy: what to say when the rep insulted, pressured, talked over, moved past what was
 * shared, brushed a view aside or named no feeling; and for a rep who did it well, what to keep
 * and one way to go further.
 */
export const empathyAdvice: Advise = ({ a, f, facts, view, score, values }) => {
  const v = { ...values };
  if (sig(f, 'abuse'))
    return firstOf(
      [
        'Nothing in the call can build on an insult. Start the next one with respect and one honest question about {problem}, then listen to the whole answer.',
        'Nothing in the call can build on an insult. Start the next one with respect and one honest question about what they need, then listen to the whole answer.',
      ],
      v,
    );
  if (sig(f, 'pressure'))
    return firstOf(
      [
        'Drop the fear and the deadline: they spent the trust you had built. Name the worry instead: "It sounds like you\'re worried about {problem}. What worries you most about it?"',
        'Drop the fear and the deadline: they spent the trust you had built. Name the worry instead: "It sounds like this has been on your mind. What worries you most about it?"',
      ],
      v,
    );
  if (sig(f, 'interruptions'))
    return firstOf(
      [
        'Let {who} finish. Wait a beat after they stop, then say back the last thing they said before you add your own.',
      ],
      v,
    );
  const grief = facts.people.some((p) => p.deceased && p.namedByHomeowner);
  if ((sig(f, 'ignored') || sig(f, 'hollow')) && grief)
    return firstOf(
      [
        'When {who} spoke of their loss, stop before any business and stay with it: "I\'m so sorry. How have you been managing the house since?"',
      ],
      v,
    );
  const moved = f.missteps.find((m) => m.said);
  if (sig(f, 'ignored') || sig(f, 'hollow'))
    return firstOf(
      [
        'When {who} said "{said}", answer that before your next question: say it back in your own words and ask how it has been for them.',
        '"I hear you" only lands when the next words are about them. When {who} tells you about {problem}, answer that first: "That sounds exhausting. How long has it been like this?"',
        '"I hear you" only lands when the next words are about them. When {who} shares something, answer that first: "That sounds hard. How have you been managing?"',
      ],
      { ...v, said: moved && homeownerWords(moved.said, moved.turn, facts, view) },
    );
  if (sig(f, 'notHeard'))
    return firstOf(
      [
        'Before you ask, check what {who} already told you, and say it back instead: "You said fixing {problem} comes first, right?"',
        'Before you ask, check what {who} already told you, and say it back instead of asking again.',
      ],
      v,
    );
  if (sig(f, 'dismiss'))
    return firstOf(
      [
        'When {who} disagrees, ask before you answer: "What makes you feel that way?" Brushing it aside tells them you did not hear it.',
      ],
      v,
    );
  // Carrying the feeling into a recommendation is advice only to a rep who recommended nothing,
  // from more than one option: one who did has already done it.
  const recommended = sig(a.options, 'recommend') > 0 || sig(a.options, 'optionCount') < 2;
  if (score >= 8 && recommended)
    return firstOf(
      [
        'Keep it: when you sum up before the close, name the worry again in their words, so they hear it was heard.',
      ],
      v,
    );
  if (score >= 8)
    return firstOf(
      [
        'Keep it, and carry the feeling into your offer: "Since you\'ve been living with {problem}, I\'d start with what fixes it."',
        'Keep it, and carry it into your offer: say which option you would pick because of what worried them most.',
      ],
      v,
    );
  if (!sig(f, 'feeling') && !sig(f, 'accommodate'))
    return firstOf(
      [
        'Put their feeling into words before the next question: "Living with {problem} sounds exhausting. What has it been like for you?"',
        'Put their feeling into words before the next question: "That sounds frustrating. What has it been like for you?"',
      ],
      v,
    );
  return firstOf(
    [
      'You named a feeling once; do it again at the price, where the worry comes back: "It\'s a lot of money, and you\'ve lived with {problem} long enough. What would make this feel right?"',
      'You named a feeling once; do it again at the price, where the worry comes back: "It\'s a lot of money. What would make this feel right for you?"',
    ],
    v,
  );
};
