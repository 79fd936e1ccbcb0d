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

  it('reads no time in a holiday (GUIDE: holidays are not times), only the part of day said with it', () => {
    expect(fields('Okay, how soon you can install? Before Christmas is possible?')).toEqual([]);
    expect(fields('My grandson put his foot through a board on the Fourth.')).toEqual([]);
    expect(fields("we want it done by new year's eve")).toEqual([]);
    expect(fields('yeah january thats fine call me after new years')).toEqual([]);
    expect(fields('we ran through them on Christmas morning')).toEqual([at(null, 'morning', null)]);
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

  it("reads a day asked of a place's hours as no next step, and a calendar's open day as one", () => {
    expect(role('do you know if the hardware store is open on sunday')).toEqual(['other']);
    expect(role('Is that garden centre closed on Saturday?')).toEqual(['other']);
    expect(role('Is Saturday open for you?')).toEqual(['proposed']);
    expect(role('I have thursday open if that helps')).toEqual(['proposed']);
    expect(role('the showroom is open saturday if you want to come see the samples')).toEqual(['proposed']);
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

describe('times: held-out classes (each said several ways)', () => {
  const texts = (text: string, ctx: EntityContext = {}) => findTimes(text, ctx).map((t) => t.text);

  it('leaves a number said in two parts to money', () => {
    expect(fields("So it's sixteen-four tomorrow but less tonight?")).toEqual([
      at('tomorrow', null, null),
      at('tonight', null, null),
    ]);
    expect(fields('the deck is at twelve-three on Friday')).toEqual([at('friday', null, null)]);
    expect(fields('Eighteen five. Okay. Thursday then.', { previous: 'Could we say four?' })).toEqual([
      at('thursday', null, null),
    ]);
    expect(fields('the oak is nine a square foot and the vinyl more like five fifty')).toEqual([]);
    expect(fields('a deck sixteen by twelve, with the rail, is fourteen two')).toEqual([]);
  });

  it('reads a span of hours as its first hour', () => {
    expect(fields('no noise tue 9-10 please')).toEqual([at('tuesday', null, '9:00')]);
    expect(texts('we can stop the saws from two to four so she can nap')).toEqual(['two to four']);
    expect(fields('we can stop the saws from two to four so she can nap')).toEqual([at(null, null, '2:00')]);
    expect(fields('vinyl lasts 10-15 yrs')).toEqual([]);
  });

  it('reads "ten to six" put as a time, and "half past" with the hour said before', () => {
    expect(fields("It's ten to six and he's not here.")).toEqual([at(null, null, '5:50')]);
    expect(fields('we need from ten to twelve windows')).toEqual([]);
    expect(fields("Thursday at three. I'll have the coffee on at quarter to.")).toEqual([
      at('thursday', null, '3:00'),
      at(null, null, '2:45'),
    ]);
    expect(fields('Quarter past five, if the game runs long. Call it half past.')).toEqual([
      at(null, null, '5:15'),
      at(null, null, '5:30'),
    ]);
  });

  it('reads an hour after "by", "till nearly", "to", in a line that also talks money', () => {
    expect(fields('the tech can be there by 4, $129 service fee')).toEqual([at(null, null, '4:00')]);
    expect(fields('last time he stayed till nearly eight')).toEqual([at(null, null, '8:00')]);
    expect(fields("Saturday's fine, but can we push it to eleven? He tees off at seven.")).toEqual([
      at('saturday', null, null),
      at(null, null, '11:00'),
      at(null, null, '7:00'),
    ]);
  });

  it('reads a bare hour answered or asked about, and not one that counts something', () => {
    expect(fields("Then I'll come Friday morning. Ten okay?")).toEqual([
      at('friday', 'morning', null),
      at(null, null, '10:00'),
    ]);
    expect(fields("One's fine.", { previous: 'earliest is 1pm' })).toEqual([at(null, null, '1:00')]);
    expect(
      fields("Which one's better for you?", { previous: 'I have the 14th or the 16th, crew at 8.' }),
    ).toEqual([]);
    expect(fields('Four I can do.', { previous: 'could u do 4ish sat?' })).toEqual([at(null, null, '4:00')]);
    expect(fields('What time does the game wrap up, five?')).toEqual([at(null, null, '5:00')]);
    expect(fields('she puts like three blankets on the bed', { previous: 'I come at 6:30.' })).toEqual([]);
    expect(fields('thurs i have 10 or 2:30, pick one')).toEqual([
      at('thursday', null, null),
      at(null, null, '10:00'),
      at(null, null, '2:30'),
    ]);
  });

  it('joins a day said after its time, or a date with a weekday and a time', () => {
    expect(fields('10 sat works, see u then')).toEqual([at('saturday', null, '10:00')]);
    expect(fields('crew confirmed tue 21st 9:30')).toEqual([at('21', null, '9:30')]);
    expect(fields('could u do 5ish fri?')).toEqual([at('friday', null, '5:00')]);
    expect(fields('six ish works')).toEqual([at(null, null, '6:00')]);
    expect(fields('reminder: consult is tmrw at half 3')).toEqual([at('tomorrow', null, '3:30')]);
    expect(fields('the 5th still good?')).toEqual([at('5', null, null)]);
  });

  it('reads dates written with a slash, and not fractions', () => {
    expect(fields('install est. 4/22, deposit due at order')).toEqual([at('april 22', null, null)]);
    expect(fields('we can do thu 10/3 pm')).toEqual([at('october 3', 'afternoon', null, 'pm')]);
    expect(fields('a 3 1/4 inch oak strip')).toEqual([]);
    expect(fields('sat am is full', { previous: 'any chance this weekend?' })).toEqual([
      at('saturday', 'morning', null, 'am'),
    ]);
  });

  it('reads the first of the month, and lunch said with a day', () => {
    expect(fields('Since the first of the month.')).toEqual([at('1', null, null)]);
    expect(fields("he's coming for lunch on Saturday")).toEqual([at('saturday', 'lunch', null)]);
    expect(fields('after our Sunday lunch')).toEqual([at('sunday', 'lunch', null)]);
  });

  it('reads a time with "every" or "most" and its part of day as one typical time', () => {
    const t = findTimes('the truck comes at seven every morning');
    expect(t.map(({ day, part, time, ampm, role }) => ({ day, part, time, ampm, role }))).toEqual([
      { ...at(null, 'morning', '7:00', 'am'), role: 'described' },
    ]);
    expect(fields('He gets in around five-thirty most evenings.')).toEqual([
      at(null, 'evening', '5:30', 'pm'),
    ]);
  });

  it('reads a plural part of day as an answer, and no time in a length of time or a leave-taking', () => {
    expect(fields('When is he usually home, evenings?')).toEqual([at(null, 'evening', null)]);
    expect(fields('Afternoons. Mornings I work.')).toEqual([
      at(null, 'afternoon', null),
      at(null, 'morning', null),
    ]);
    expect(fields("I'd like to sleep on it one more night.")).toEqual([]);
    expect(fields("I wouldn't leave that furnace on another night.")).toEqual([]);
    expect(fields("I've taken up enough of your afternoon.")).toEqual([]);
    expect(fields("I'll let you get back to your Sunday.")).toEqual([]);
  });
});

describe('times: said every way', () => {
  it.each([
    ["Y'all around this evenin'?", [at('today', 'evening', null)]],
    ["I'll come by tomorra mornin' then.", [at('tomorrow', 'morning', null)]],
    ["how's 2nite around 7", [at('tonight', null, '7:00', 'pm')]],
    ['Noonish?', [at(null, null, '12:00', 'pm')]],
    ['Come by round about suppertime.', [at(null, 'evening', null)]],
    ['Could you do the day after tomorrow?', []],
    ['Saturday or Sunday, either one.', [at('saturday', null, null), at('sunday', null, null)]],
    ['which one is better, the 4 or the 6?', []],
  ])('"%s"', (text, expected) => {
    expect(fields(text)).toEqual(expected);
  });
});

describe('times: parts of day that name no time', () => {
  it.each([
    "It's been a rough few nights with the baby.",
    'He worked two nights in a row.',
    'I watch the evening news and go to bed.',
    'She switched to the night shift.',
  ])('"%s"', (text) => {
    expect(findTimes(text)).toEqual([]);
  });

  it('still reads a part of day that is a time', () => {
    expect(fields('She works nights at the hospital.')).toEqual([at(null, 'night', null)]);
    expect(fields('The nurse comes every morning around nine.')).toEqual([at(null, 'morning', '9:00', 'am')]);
  });
});

describe('times: roles, in new wordings', () => {
  const role = (text: string, ctx: EntityContext = {}) => findTimes(text, ctx).map((t) => t.role);

  it('takes a time the line before put forward as agreed, and one said back after agreeing as confirmed', () => {
    const offer = 'The crew has an opening Tuesday the 14th or Thursday the 16th.';
    expect(role('Thursday. Mornings are easier.', { previous: offer, speaker: 'homeowner' })[0]).toBe(
      'agreed',
    );
    expect(role('The 16th, please.', { previous: offer, speaker: 'homeowner' })).toEqual(['agreed']);
    expect(role('see u thurs then', { previous: 'ok thursday works', speaker: 'rep' })).toEqual([
      'confirmed',
    ]);
  });

  it('hears a time put forward refused when something else fills it or another is offered', () => {
    const asked = 'Could we come Thursday at three?';
    expect(role("Thursday's my card night. Can you do Friday?", { previous: asked })).toEqual([
      'declined',
      'proposed',
    ]);
    expect(role("Thursday I'm at the dentist.", { previous: asked })).toEqual(['declined']);
    expect(role('Whoa, I never said Thursday. Let me think first.', { previous: asked })).toEqual([
      'declined',
    ]);
    expect(role("Thursday's fine, but make it four.", { previous: asked })).toEqual(['agreed', 'proposed']);
  });

  it('tells an agreed time said again from history, and a slot offered from a plain statement', () => {
    expect(role('hi, we had you down for five?')).toEqual(['confirmed']);
    expect(role('confirmed for wed 12th, crew arrives 8')).toEqual(['confirmed', 'confirmed']);
    expect(role('I have Monday the 3rd or Wednesday the 5th.')).toEqual(['proposed', 'proposed']);
    expect(role('Soonest is Friday afternoon.')).toEqual(['proposed']);
    expect(role('Saturday.', { previous: "What's your next day off?" })).toEqual(['proposed']);
  });

  it('keeps a time for a step of the speaker’s own, a typical time and a deadline apart', () => {
    expect(role('Let me talk it over with my husband tonight.')).toEqual(['other']);
    expect(role("I'll go over it with my sister this weekend.")).toEqual(['other']);
    expect(role("He won't be home till seven, so make it seven-thirty.")).toEqual(['other', 'proposed']);
    expect(role('The crew usually rolls in around seven.')).toEqual(['described']);
    expect(role('She calls every day at four.')).toEqual(['described']);
    expect(role('Are mornings better for the install, or afternoons?')).toEqual(['proposed', 'proposed']);
    expect(role('The sale price is good through Sunday.')).toEqual(['deadline']);
    expect(role('I can get you in Tuesday at the same price.')).toEqual(['proposed']);
    expect(role("tues works, he's off tues")).not.toContain('described');
  });
});

describe('times: a day and its time across a comma', () => {
  it('joins a day, what happens before, and the hour', () => {
    expect(fields('Sunday after church, around one?')).toEqual([at('sunday', null, '1:00')]);
    expect(fields('Thursday the 23rd, again first thing?')).toEqual([at('23', 'morning', null)]);
    expect(fields('Saturday after the game, say four?')).toEqual([at('saturday', null, '4:00')]);
  });

  it('reads no time in a greeting that names the day', () => {
    expect(findTimes('Happy Friday! Thanks for having me.')).toEqual([]);
  });
});

describe('times: holidays named by a weekday, and "the first thing"', () => {
  it.each([
    'We opened on Black Friday.',
    "Easter Sunday we're at my sister's.",
    'the first thing I noticed was the smell',
  ])('"%s"', (text) => {
    expect(findTimes(text)).toEqual([]);
  });

  it('still reads a weekday after an ordinary word', () => {
    expect(fields('the price is good tomorrow too')).toEqual([at('tomorrow', null, null)]);
  });
});

describe('times: a weekend as a length of time', () => {
  it('reads none in "in a weekend", and one in "over a weekend?"', () => {
    expect(findTimes('he did his whole place in like a weekend')).toEqual([]);
    expect(fields('can we do it over a weekend?')).toEqual([at('weekend', null, null)]);
  });
});
