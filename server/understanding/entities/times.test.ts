import { describe, expect, it } from 'vitest';
import { findTimes } from './times';
import type { EntityContext, TimeEntity } from './types';

type Fields = Pick<TimeEntity, 'day' | 'part' | 'time' | 'ampm'>;

function fields(text: string, ctx: EntityContext = {}): Fields[] {
  return findTimes(text, ctx).map(({ day, part, time, ampm }) => ({ day, part, time, ampm }));
}

const at = (
  day: string | null,
  part: Fields['part'],
  time: string | null,
  ampm: Fields['ampm'] = null,
): Fields => ({
  day,
  part,
  time,
  ampm,
});

describe('times: days and clock times', () => {
  it.each([
    ['Would Wednesday at four-thirty work for me to come measure?', [at('wednesday', null, '4:30')]],
    ['could i come wednesday at four thirty', [at('wednesday', null, '4:30')]],
    ['wed at 4:30?', [at('wednesday', null, '4:30')]],
    ['How about Thursday at ten?', [at('thursday', null, '10:00')]],
    ['thursday at 10am works', [at('thursday', null, '10:00', 'am')]],
    ['u free sat at 10 for me to come measure?', [at('saturday', null, '10:00')]],
    ['Saturday morning at nine?', [at('saturday', 'morning', '9:00', 'am')]],
    ['Could you be home Thursday morning around nine?', [at('thursday', 'morning', '9:00', 'am')]],
    ['how about sunday evening like six', [at('sunday', 'evening', '6:00', 'pm')]],
    ["I'll swing by tomorrow morning then, sound good?", [at('tomorrow', 'morning', null)]],
    ['tmrw morning ok?', [at('tomorrow', 'morning', null)]],
    ["I'll call Farm Bureau this afternoon.", [at('today', 'afternoon', null)]],
    ['Is your girlfriend around tonight?', [at('tonight', null, null)]],
    ['tonight at 7?', [at('tonight', null, '7:00', 'pm')]],
    ['next week works better', [at('next week', null, null)]],
    ['Would it be alright if I checked in early next week?', [at('next week', null, null)]],
    ['this weekend?', [at('weekend', null, null)]],
    ['around nine thirty thursday', [at('thursday', null, '9:30')]],
    ['Thursday, after six-thirty, that is better.', [at('thursday', null, '6:30')]],
    ['Thurs @ 2 work for u?', [at('thursday', null, '2:00')]],
    ['2pm thurs is fine', [at('thursday', null, '2:00', 'pm')]],
    ["I'll swing by this evening around seven.", [at('today', 'evening', '7:00', 'pm')]],
    ['I can be there at 8:30 tomorrow morning.', [at('tomorrow', 'morning', '8:30', 'am')]],
    ['The storm hit Saturday around midnight.', [at('saturday', null, '12:00', 'am')]],
    ['Crew arrives between eight and nine in the morning.', [at(null, 'morning', '8:00', 'am')]],
    [
      'Mornings are easier on the crew, like eight to noon.',
      [at(null, 'morning', null), at(null, null, '8:00')],
    ],
    ['we work from nine till five', [at(null, null, '9:00')]],
  ])('reads "%s"', (text, expected) => {
    expect(fields(text)).toEqual(expected);
  });

  it.each([
    ['half six works for me', '6:30'],
    ['come by at half past six', '6:30'],
    ['quarter to five on Friday', '4:45'],
    ['quarter past six?', '6:15'],
    ['six-ish?', '6:00'],
    ['around 6ish', '6:00'],
    ['i get off at 3:30', '3:30'],
    ['the crew starts around seven thirty in the morning', '7:30'],
    ['my soap opera starts at eight and I never miss it', '8:00'],
    ['he is at work til 7', '7:00'],
  ])('reads the clock time in "%s"', (text, time) => {
    expect(fields(text).map((t) => t.time)).toEqual([time]);
  });

  it('reads noon and midnight with their am or pm', () => {
    expect(fields('how about noon tomorrow')).toEqual([at('tomorrow', null, '12:00', 'pm')]);
    expect(fields('I can be there at noon')).toEqual([at(null, null, '12:00', 'pm')]);
    expect(fields("you'd be crazy to wait, the rebate's gone at midnight")).toEqual([
      at(null, null, '12:00', 'am'),
    ]);
  });

  it('reads "first thing" as the morning', () => {
    expect(fields('first thing Monday')).toEqual([at('monday', 'morning', null)]);
    expect(fields("I'll have the crew there first thing Monday morning.")).toEqual([
      at('monday', 'morning', null),
    ]);
    expect(fields("I'll have the crew there first thing in the morning.")).toEqual([
      at(null, 'morning', null),
    ]);
  });

  it('reads a holiday on a fixed date', () => {
    expect(fields('Okay, how soon you can install? Before Christmas is possible?')).toEqual([
      at('december 25', null, null),
    ]);
    expect(fields('My grandson put his foot through a board on the Fourth.')).toEqual([
      at('july 4', null, null),
    ]);
    expect(fields("we want it done by new year's eve")).toEqual([at('december 31', null, null)]);
    // A holiday as a thing, not a day.
    expect(fields('the Christmas lights are still up')).toEqual([]);
    expect(fields('This is the fourth quote we got.')).toEqual([]);
  });

  it('reads dates, and a date said with a weekday as the date', () => {
    expect(fields('The 14th is no good, can you do the 21st?')).toEqual([
      at('14', null, null),
      at('21', null, null),
    ]);
    expect(fields('Could you come on June 14th?')).toEqual([at('june 14', null, null)]);
    expect(fields('so i got you down for the twenty third')).toEqual([at('23', null, null)]);
    expect(fields('Can I get a crew out Wednesday the 9th?')).toEqual([at('9', null, null)]);
    expect(fields('we can start wk of the 20th')).toEqual([at('20', null, null)]);
    // Ranks, not dates.
    expect(fields("You're the third roofer at this door.")).toEqual([]);
    expect(fields('ill send the docusign, 1st payment due at start')).toEqual([]);
    expect(fields('as long as we go before the first freeze')).toEqual([]);
  });
});

describe('times: a bare hour', () => {
  it('is a time only where a time is being talked about', () => {
    expect(fields('1 is good', { previous: "Tuesday afternoon it is. Does one o'clock work?" })).toEqual([
      at(null, null, '1:00'),
    ]);
    expect(
      fields('wait can we do ten instead of nine', {
        previous: 'Perfect, so I will see you Thursday at nine.',
      }),
    ).toEqual([at(null, null, '10:00'), at(null, null, '9:00')]);
    expect(fields('I thought you were coming at two, not twelve.')).toEqual([
      at(null, null, '2:00'),
      at(null, null, '12:00'),
    ]);
    expect(fields('we had u down for 6? hope im not too early')).toEqual([at(null, null, '6:00')]);
    // Numbers, not times.
    expect(fields('I got three quotes and two of them were crooks')).toEqual([]);
    expect(fields('the 3rd one is on maple ave', { previous: 'sat 9am?' })).toEqual([]);
    expect(fields('Since two winters it is making the big noise.')).toEqual([]);
    expect(
      fields('Repair is about six-fifty; the whole system, thirteen thousand.', { previous: 'safe tonight' }),
    ).toEqual([]);
  });
});

describe('times: what is not a time', () => {
  it.each([
    "How's June doing?",
    'hows ur mom June doing, she still in the hospital?',
    'Good morning! Thanks for having me.',
    'good evening maam',
    "Morning, ma'am. Dale Brandt, Heartland Roofing.",
    'You all have a good weekend, and thanks for the coffee.',
    'enjoy the rest of ur night!!',
    'ok now im actually leaving lol, night!',
    'My granddaughter is allergic to everything under the sun.',
    "It's been two days and a week of rain.",
    'I was married in June.',
  ])('"%s"', (text) => {
    expect(findTimes(text)).toEqual([]);
  });
});

describe('times: roles', () => {
  const role = (text: string, ctx: EntityContext = {}) => findTimes(text, ctx).map((t) => t.role);

  it('tells a proposal, an acceptance, a refusal and a confirmation apart', () => {
    expect(role('Would Wednesday at four-thirty work?')).toEqual(['proposed']);
    expect(role('How about Thursday at ten?', { speaker: 'rep' })).toEqual(['proposed']);
    expect(
      role('Thursday works.', { previous: 'Would Thursday at ten work?', speaker: 'homeowner' }),
    ).toEqual(['agreed']);
    expect(role('4:30 it is')).toEqual(['agreed']);
    expect(role("Thursday's no good for me.", { previous: 'Would Thursday at ten work?' })).toEqual([
      'declined',
    ]);
    expect(role('thurs is bad, i work doubles. fri after 3?')).toEqual(['declined', 'proposed']);
    expect(role('nah im not signing anything tonight')).toEqual(['declined']);
    expect(role('So that is Thursday at ten, you and Mike.', { previous: 'Thursday works.' })).toEqual([
      'confirmed',
    ]);
    expect(role('sick, so wed at 7pm. see u then', { previous: 'wed at 7 works' })).toEqual(['confirmed']);
  });

  it('tells history, a typical time and a deadline from a next step', () => {
    expect(role('my wife called us Tuesday about it')).toEqual(['history']);
    expect(role('the adjuster came out last tuesday')).toEqual(['history']);
    expect(role('It leaked Tuesday night.')).toEqual(['history']);
    expect(role('most evenings it gets cold up there')).toEqual(['described']);
    expect(role('Walk me through a July afternoon upstairs.')).toEqual(['described']);
    expect(role('Wednesdays I take my sister to dialysis.')).toEqual(['described']);
    expect(role("you'd be crazy to wait, the rebate's gone at midnight")).toEqual(['deadline']);
    expect(role('heads up that price is only good thru friday')).toEqual(['deadline']);
  });
});

describe('times: spans', () => {
  it('points at the words it read', () => {
    const text =
      'Saturday. I am helping my brother that morning, so like after two? Or Sunday evening at six.';
    const times = findTimes(text);
    for (const t of times) expect(text.slice(t.start, t.end)).toBe(t.text);
    expect(times.map((t) => t.text)).toEqual(['Saturday', 'morning', 'two', 'Sunday evening at six']);
  });
});
