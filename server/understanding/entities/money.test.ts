import { describe, expect, it } from 'vitest';
import { findMoney } from './money';
import type { EntityContext } from './types';

/** The amounts read from a line, as "value" or "min-max", with "/per" when there is a rate. */
function amounts(text: string, ctx: EntityContext = {}): string[] {
  return findMoney(text, ctx).map((m) => {
    const amount = m.min !== undefined ? `${m.min}-${m.max}` : String(m.value);
    return m.per ? `${amount}/${m.per}` : amount;
  });
}

describe('money: the way reps say prices', () => {
  it.each([
    ['The basic is ten-nine and the premium is eighteen five.', ['10900', '18500']],
    ['the furnace with the coil is ten nine installed', ['10900']],
    ['it comes to ten-nine', ['10900']],
    ['the whole roof is twelve eight', ['12800']],
    ['Heat pump setup is closer to seventeen five.', ['17500']],
    ['With the quartz it is more, forty-six five.', ['46500']],
    ['we paid like twenty two fifty for the gutter guards', ['2250']],
    ["It's twenty-two fifty installed.", ['2250']],
    ['closer to fifty eight fifty before we do the stairs', ['5850']],
  ])('reads shorthand in "%s"', (text, expected) => {
    expect(amounts(text)).toEqual(expected);
  });

  it.each([
    ['About 9.5k all in', ['9500']],
    ['roughly 9.5K for all eight', ['9500']],
    ['wood ~11k, composite ~19-20k for ur size', ['11000', '19000-20000']],
    ["That's nine and a half grand.", ['9500']],
    ['nine and a half thousand, installed', ['9500']],
    ['nine point five k all in', ['9500']],
    ['It comes to $12,400 installed.', ['12400']],
    ['total is 12,400', ['12400']],
    ['the permit runs about twelve hundred', ['1200']],
    ['twelve hundred for the permit', ['1200']],
    ['for like 48 hundred', ['4800']],
    ['its a hundred and twenty-five to haul the carpet away', ['125']],
    ['the smart thermostat is another hundred and twenty five', ['125']],
    ['We paid four hundred and fifty dollars to top it off.', ['450']],
    ['thats ten grand plus the permit', ['10000']],
    ['we carry two mil in liability', ['2000000']],
    ['for all six windows your looking at about seven thousand two fifty', ['7250']],
    ['so about fourteen thousand five installed', ['14500']],
    ['the mid package is 13,9 and the top one is 16,5', ['13900', '16500']],
  ])('reads the amount in "%s"', (text, expected) => {
    expect(amounts(text)).toEqual(expected);
  });

  it.each([
    ['somewhere between fourteen and fifteen thousand', ['14000-15000']],
    ["you're around fourteen to fifteen thousand", ['14000-15000']],
    ['more like 14-16k', ['14000-16000']],
    ['we talk thirteen, fourteen thousand', ['13000-14000']],
    ['a budget maybe six seven thousand not more', ['6000-7000']],
    ['like 5 or 6 grand max', ['5000-6000']],
    ['between thirty-five and forty-five thousand', ['35000-45000']],
    ['like twenty two hundred maybe twenty three', ['2200-2300']],
    ['For a thirty-year shingle, figure fourteen five to sixteen.', ['14500-16000']],
  ])('reads a range, not a sum, in "%s"', (text, expected) => {
    expect(amounts(text)).toEqual(expected);
  });

  it('scales "between eight and ten" by the amounts around it', () => {
    expect(amounts('between eight and ten', { previous: 'The full job is twelve thousand.' })).toEqual([
      '8000-10000',
    ]);
    expect(
      amounts('Could you do it for between eight and ten?', { previous: "What's your budget?" }),
    ).toEqual(['8000-10000']);
    expect(
      amounts('It would. Between eight and ten is all I can do.', {
        previous: 'Would that sit easier on the budget?',
      }),
    ).toEqual(['8000-10000']);
    expect(
      amounts('we were thinking somewhere in the ten to twelve range', {
        previous: 'What budget did you have in mind?',
      }),
    ).toEqual(['10000-12000']);
    // No money around it: numbers, not dollars.
    expect(amounts('between eight and ten', { previous: 'What time do you get up?' })).toEqual([]);
    expect(amounts('between eight and ten windows', { previous: 'How many windows?' })).toEqual([]);
  });

  it('scales a bare number by an amount said in the same line or the line before', () => {
    expect(amounts('Option one is about eleven grand. Option two is around fourteen, and quieter.')).toEqual([
      '11000',
      '14000',
    ]);
    expect(
      amounts('Eleven thousand. On a fixed income.', {
        previous: 'The whole house comes to eleven thousand.',
      }),
    ).toEqual(['11000']);
    expect(
      amounts('In two thousand four, yes, eleven was a good price.', {
        previous: 'We paid eleven thousand that time.',
      }),
    ).toEqual(['11000']);
    expect(amounts('ninety five hundred?? no way', { previous: 'about 9.5k installed' })).toEqual(['9500']);
    // "the 4 worst ones" counts windows, though the line is about money.
    expect(
      amounts('option A we do just the 4 worst ones for like 48 hundred, option B all 8 for the 9.5'),
    ).toEqual(['4800', '9500']);
  });
});

describe('money: rates and what an amount is for', () => {
  it.each([
    ['forty a month', ['40/month']],
    ['about forty bucks a month on the plan', ['40/month']],
    ['$40/mo for 60 months', ['40/month']],
    ['on 9k its 750/mo for 12 months', ['9000', '750/month']],
    ['around one nineteen a month', ['119/month']],
    ['saves you about three hundred a year', ['300/year']],
    ['a buck fifty a foot for the pad', ['1.5/sqft']],
    ['$1.50 a square foot', ['1.5/sqft']],
    ['the plank runs six fifty a square foot installed', ['6.5/sqft']],
    ['four dollars and fifty a square foot installed', ['4.5/sqft']],
    ['our electrician charges like $95 an hour', ['95/hour']],
  ])('reads the rate in "%s"', (text, expected) => {
    expect(amounts(text)).toEqual(expected);
  });

  it('carries a rate to the amounts set against it', () => {
    expect(
      amounts(
        'you would be at about three-eighty a month. Or if you put five thousand down, it drops to two-ninety.',
      ),
    ).toEqual(['380/month', '5000', '290/month']);
    expect(
      amounts('Real oak is nine-fifty a square foot installed. The vinyl plank is five-twenty.'),
    ).toEqual(['9.5/sqft', '5.2/sqft']);
    expect(amounts('Three-eighty is okay.', { previous: 'about three-eighty a month' })).toEqual([
      '380/month',
    ]);
    expect(
      amounts('The heat pump could cut that to maybe one seventy-five.', {
        previous: 'our electric runs about two fifty a month in the summer',
      }),
    ).toEqual(['175/month']);
  });

  it.each([
    ['two-fifty down and the rest when we finish', 'deposit'],
    ['you can put two fifty down today', 'deposit'],
    ['Just a signature and a five hundred dollar deposit.', 'deposit'],
    ['I can take five hundred off if we sign tonight', 'saving'],
    ['My late husband paid three thousand for the carpet', 'paid'],
    ['They said eleven-five.', 'quote'],
    ['My boyfriend and I were budgeting like five grand.', 'budget'],
    ['you would just owe your deductible, like a thousand bucks', 'other'],
    ['That one runs about nine thousand installed.', 'price'],
  ])('says what the amount is for in "%s"', (text, role) => {
    expect(findMoney(text).map((m) => m.role)).toEqual([role]);
  });
});

describe('money: numbers that are not money', () => {
  it.each([
    "We've done twelve thousand floors in this county.",
    'we have done about twelve hundred installs',
    'the house is about two thousand square feet',
    'the house is about fifteen hundred square feet',
    'this living room and the hallway is about six hundred square feet give or take',
    'were talking about thirty squares of shingle and like four hundred feet of drip edge',
    'a 60k btu furnace',
  ])('counts and measures: "%s"', (text) => {
    expect(findMoney(text)).toEqual([]);
  });

  it.each([
    "we've been here since twenty-ten",
    'the roof is from 2009',
    'we bought it in nineteen ninety eight',
    'The roof we put in two thousand four, after the hurricane.',
    "We've been in this county since 1998.",
  ])('years: "%s"', (text) => {
    expect(findMoney(text)).toEqual([]);
  });

  it.each([
    ["I'm seventy-eight and I can't step over the tub", undefined],
    ["She's ninety and can't do the stairs.", undefined],
    ['I am sixty-eight, I want to finish paying first!', 'About one nineteen every month.'],
  ])('ages: "%s"', (text, previous) => {
    expect(findMoney(text, { previous })).toEqual([]);
  });

  it.each([
    'come by at four-thirty',
    'Saturday at ten works',
    'how about six fifteen tomorrow',
    'Could you be home Thursday morning around nine?',
    'wed at 7 works',
    'thurs is bad. fri after 3?',
  ])('times of day: "%s"', (text) => {
    expect(findMoney(text)).toEqual([]);
  });

  it.each([
    'I got three quotes',
    'eight windows and two doors',
    'the forty one hundred series',
    "it's a 96 percent furnace",
    'fifteen percent off if you sign',
    'we only take 10% down',
    'we split everything 50/50',
    "It's 1418 Jefferson.",
    'so total is 9.5k, we can start thurs the 12th',
    'lvp has a 20 mil wear layer',
    'The other guy said eight.',
    'My budget is firm, not one dollar more.',
    'the 16 SEER is about a grand more than the 14',
    'On a scale of one to ten, where are you at with the price?',
    'our warranty covers labor for 10 years and materials for 25',
  ])('counts, models, percentages and addresses: "%s"', (text) => {
    expect(findMoney(text).filter((m) => m.value !== 9500 && m.value !== 1000)).toEqual([]);
  });

  it('leaves a number said beside one that counts: "60 months or 120"', () => {
    expect(
      findMoney('is that 60 months or 120', { previous: "It's about 150 a month on the plan." }),
    ).toEqual([]);
  });
});

describe('money: spans', () => {
  it('points at the words it read', () => {
    const text = 'So for eight windows, about $9,400 installed, or ten-nine with the trim.';
    for (const m of findMoney(text)) expect(text.slice(m.start, m.end)).toBe(m.text);
    expect(findMoney(text).map((m) => m.text)).toEqual(['$9,400', 'ten-nine']);
  });
});
