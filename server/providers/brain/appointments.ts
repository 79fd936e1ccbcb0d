import type { Style } from './lines';

/** Agreeing to a day: the rep's own, before or after the homeowner agreed. */

/** Agreeing to the day the rep proposed. */
export const AGREE_AT: Record<Style, string[]> = {
  friendly: ['{When} works for us.', 'Oh, {when} is good. We can do that.'],
  hurried: ['{When}. Fine. Be on time.', '{When} works. Text me before you come.'],
  wary: ['Fine. {When}. Bring the paperwork so I can read it first.', "Alright, {when}. Don't be late."],
  sceptical: ["Alright, {when}. I'll hold you to what you said.", '{When} works. Bring it all in writing.'],
};
/** The rep names a day after the homeowner has agreed to another. */
export const RESCHEDULE: Record<Style, string[]> = {
  friendly: ["Oh, {when} is even better. Let's say {when}.", '{When} works too. {When} it is.'],
  hurried: ['{When}, then. Fine.', 'Make it {when}. Just be on time.'],
  wary: ['{When}, then. Not a day later.', 'Fine, {when}.'],
  sceptical: ['{When} instead? Alright.', 'Okay, {when}. Write it down.'],
};
export const SPOUSE_TOO = ['{spouseName} will be here too.', "{spouseName}'ll want to be here for it."];

export function fillWhen(line: string, when: string): string {
  return line.replaceAll('{When}', capitalise(when)).replaceAll('{when}', when);
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** A day the rep put forward before the homeowner is ready: refused by name, the reason follows. */
export const NOT_THAT_DAY: Record<Style, string[]> = {
  friendly: ["Let's not pin down {when} just yet.", '{When} might be jumping ahead a little.'],
  hurried: ['Not {when}. Not yet.', "I'm not booking {when} until I know more."],
  wary: ["Hold on, I'm not agreeing to {when}.", '{When}? Not so fast.'],
  sceptical: ["I'm not putting {when} on the calendar yet.", 'No, not {when}. Not yet.'],
};
/** The rep talks as if a day was booked that the homeowner never agreed to. */
export const NEVER_AGREED: Record<Style, string[]> = {
  friendly: ["Oh, wait, we haven't actually set {when}.", "Hang on, I didn't say yes to {when} yet."],
  hurried: ["I didn't say {when}.", 'Hold on. Nobody booked {when}.'],
  wary: ['Whoa. I never agreed to {when}.', "I didn't say yes to {when}. Don't put words in my mouth."],
  sceptical: [
    "I didn't agree to {when}.",
    "Hold on, we haven't booked {when}. That's how these things start.",
  ],
};
/** The rep names another day than the one agreed, as if it were the booking. */
export const AGREED_OTHER: Record<Style, string[]> = {
  friendly: ['I thought we said {agreed}?', 'Wait, was it {agreed} or {when}? I had {agreed}.'],
  hurried: ['We said {agreed}.', "It's {agreed}, not {when}."],
  wary: ['We said {agreed}. Which is it?', "It's {agreed}. Don't change it on me."],
  sceptical: ['We agreed {agreed}, not {when}.', 'I have {agreed} written down.'],
};
