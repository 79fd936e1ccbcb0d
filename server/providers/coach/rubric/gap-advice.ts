/**
 * What a section lacked, said as what to add next time rather than as a fact about the call.
 *
 * "Never asked a question to understand the concern" is a claim that something did not happen,
 * and it is only as true as the reading that looked for it: on a call worded in ways the readers
 * have not met, the rep may well have asked. Said as advice ("ask a question to understand the
 * concern") it cannot be false. Gaps that name something that did happen (a deadline leaned on,
 * a price dropped, the homeowner cut off) stay statements: the call holds their evidence.
 */
const ABSENCES: Record<string, string> = {
  'checked the fit but never asked for the decision or a next step':
    'after checking the fit, ask for the decision or a next step',
  'never asked for the sale or a next step': 'ask for the sale or a firm next step before you leave',
  // The wording grounding/settle.ts puts in when the call facts hold an ask the detector missed.
  'no clear ask for the decision or a next step came through':
    'ask plainly for the decision or a firm next step',
  'checked the fit, but no clear ask for the decision came through':
    'after checking the fit, ask plainly for the decision',
  'never put into words how the homeowner felt': 'put into words how the homeowner feels',
  'no day for the next step': 'name a day for the next step',
  'a day but no time': 'put a time to the day',
  'nothing about who will be there': 'say who will be there',
  'the homeowner never agreed to it': "get the homeowner's yes to the day",
  'asked no discovery questions before pitching': 'ask discovery questions before pitching',
  'asked no open questions (what, how, why)': 'ask open questions (what, how, why)',
  'never explored budget, timing, plans or who else decides':
    'explore budget, timing, plans and who else decides',
  'the answers never shaped what was offered': 'let the answers shape what you offer',
  'let the concern pass without exploring or answering it':
    'explore and answer each concern before moving on',
  'never asked a question to understand the concern': 'ask a question to understand the concern',
  'never checked the answer resolved the concern': 'check your answer resolved the concern',
  'never presented a solution or options': 'present a solution, with options to choose from',
  'offered a single package instead of a choice': 'offer a choice rather than a single package',
  "didn't tie the options to the homeowner's own needs": "tie each option to the homeowner's own needs",
  'gave no price for each option': 'give a price for each option',
};

/** Gaps whose wording carries a count or a list: what they lack, in the same form. */
const ABSENT_PREFIXES: [string, (rest: string) => string][] = [
  ['left unexplored: ', (rest) => `explore ${rest}`],
];
const YES_NO_TAIL = ' questions were yes/no, so the homeowner never explained what matters';

/** Whether a gap lists topics not found ("left unexplored: ..."), rather than a step not taken. */
export const isTopicList = (gap: string) => ABSENT_PREFIXES.some(([prefix]) => gap.startsWith(prefix));

/**
 * Whether a section's list of topics not found may be given as advice. The topics are read by
 * word lists, which miss a topic raised in words they do not hold ("the grandkids' juice" is how
 * the room is used): on a call with little discovery the list is what it lacked, but where the
 * rep already explored, a topic "to explore" is as likely one they covered.
 */
export const topicsWorthListing = (score: number) => score < 5;

/** The gap as advice when it states an absence; null when it names something that happened. */
export function absenceAdvice(gap: string): string | null {
  const fixed = ABSENCES[gap];
  if (fixed) return fixed;
  for (const [prefix, advise] of ABSENT_PREFIXES)
    if (gap.startsWith(prefix)) return advise(gap.slice(prefix.length));
  if (gap.endsWith(YES_NO_TAIL)) return 'ask open questions so the homeowner explains what matters';
  return null;
}
