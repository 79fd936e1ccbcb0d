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

describe('money: held-out classes (each said several ways)', () => {
  it.each([
    ['that saves you about a grand', ['1000']],
    ['call it a grand even', ['1000']],
    ['you still owe the thousand on the claim', ['1000']],
    ['minus our thousand-dollar deductible', ['1000']],
    ['give or take a few hundred', []],
    ['it could run several thousand', []],
  ])('reads "a grand", "the thousand", and no amount in "a few hundred": "%s"', (text, expected) => {
    expect(amounts(text)).toEqual(expected);
  });

  it.each([
    ['It adds about a dollar twenty-five a square foot.', ['1.25/sqft']],
    ['the pad is a dollar fifty a square foot', ['1.5/sqft']],
    ['one dollar forty a square foot for the underlay', ['1.4/sqft']],
  ])('reads dollars and cents said as "a dollar twenty-five": "%s"', (text, expected) => {
    expect(amounts(text)).toEqual(expected);
  });

  it('keeps a hyphenated dollar amount a lump sum beside a rate', () => {
    expect(amounts('About ninety a month, and a five-hundred-dollar rebate on top.')).toEqual([
      '90/month',
      '500',
    ]);
    expect(amounts('one-twenty a month, plus a two-hundred-dollar credit')).toEqual(['120/month', '200']);
  });

  it('lets a currency or a rate win over a count beside it', () => {
    expect(amounts('we can spread it over twelve months, about sixty dollars a month')).toEqual(['60/month']);
    expect(amounts('~80/mo over 10 yrs, or 45/mo over 20 yrs')).toEqual(['80/month', '45/month']);
  });

  it('shares a count only within its own sentence', () => {
    expect(amounts('They paid nine thousand four years ago. So why is ours twelve?')).toEqual([
      '9000',
      '12000',
    ]);
    expect(amounts('It was eleven grand two summers back. Was it thirteen this time?')).toEqual([
      '11000',
      '13000',
    ]);
  });

  it.each([
    ["I can't beat thirty-four fifty.", ['3450']],
    ['Forty-one seventy-five, and that is with the trim.', ['4175']],
    ['they wanted sixty-two ninety for it', ['6290']],
  ])('reads hundreds said in pairs by their shape: "%s"', (text, expected) => {
    expect(amounts(text)).toEqual(expected);
  });

  it.each([
    ["So it's sixteen-four tomorrow and less tonight?", ['16400']],
    ['the shed is listed at twelve-three, not included', ['12300']],
    ['we are at thirteen-six for the lot', ['13600']],
  ])('reads a hyphenated shorthand that a clock time might take: "%s"', (text, expected) => {
    expect(amounts(text)).toEqual(expected);
  });

  it('reads two bare numbers a step apart as a range where money is talked about', () => {
    expect(amounts('are we thinking like fifteen sixteen or', { previous: "What's the budget?" })).toEqual([
      '15000-16000',
    ]);
    expect(amounts('What budget are you working with? Like seven, eight?')).toEqual(['7000-8000']);
  });

  it('reads a bare figure put as a budget or a price', () => {
    expect(amounts('we hoped for under nine honestly', { previous: "What's your budget?" })).toEqual([
      '9000',
    ]);
    expect(
      amounts("Move the island and you're north of thirty.", { previous: 'It runs about twenty-six five.' }),
    ).toEqual(['30000']);
    expect(
      amounts('Twenty. Twenty-five tops.', { previous: 'What number are you comfortable with?' }),
    ).toEqual(['20000', '25000']);
    expect(amounts("We've put aside about forty.", { previous: 'Have you got a figure in mind?' })).toEqual([
      '40000',
    ]);
    expect(amounts('can we get it nearer your twenty?', { previous: 'Our budget is tight.' })).toEqual([
      '20000',
    ]);
    expect(amounts('Nine thousand for the neighbours. Why is mine thirteen?')).toEqual(['9000', '13000']);
  });

  it('reads two amounts either side of a slash', () => {
    expect(amounts('quote attached (1,150 / 13,900)')).toEqual(['1150', '13900']);
  });
});

describe('money: held-out numbers that are not money', () => {
  it.each([
    'Two thousand twelve, I think. So do the math.',
    "you'd have a million questions too",
    'the kids ask a million things',
    'The Garcias at 410 and 414 both went with us.',
    'my sister lives at 2207 now',
    "It's about nine hundred square feet. Usable, maybe seven hundred.",
    'here for the three-thirty?',
  ])('"%s"', (text) => {
    expect(findMoney(text)).toEqual([]);
  });

  it('reads the price and not the rate of interest', () => {
    expect(amounts('the loan is 6.5%, the cash price is 12,000')).toEqual(['12000']);
  });

  it('counts what a word like "more" stands between', () => {
    expect(amounts("I'm getting two more estimates.", { previous: 'Keep the three-fifty.' })).toEqual([]);
    expect(amounts('we asked three other companies', { previous: 'It is four-fifty a month.' })).toEqual([]);
  });
});

describe('money: said every way', () => {
  it.each([
    ["that's like 15 G's man", ['15000']],
    ['He wanted nine large for it.', ['9000']],
    ['seven thou and we start Monday', ['7000']],
    ['a couple of large windows', []],
    ['fifty cents a foot more for the thick pad', ['0.5/sqft']],
    ['ninety-nine cents a square foot', ['0.99/sqft']],
    ['a buck and a half a foot for the underlay', ['1.5/sqft']],
    ['a dollar and a half a square foot', ['1.5/sqft']],
    ['A hundred fifty for the inspection.', ['150']],
    ['Two hundred for the permit, give or take.', ['200']],
    ['Twenty thousand of dollars is too much.', ['20000']],
    ['my cousin paid 14.800 euros for the same roof', ['14800']],
    ['the mini split is eleven nine ninety', ['11990']],
    ['fourteen nine ninety-five installed', ['14995']],
  ])('"%s"', (text, expected) => {
    expect(amounts(text)).toEqual(expected);
  });

  it('reads a figure put as a limit, with the budget asked before', () => {
    const previous = 'Do you have a number in mind?';
    expect(amounts("Nine's our limit.", { previous })).toEqual(['9000']);
    expect(amounts('twelve would be nice lol', { previous: 'whats ur budget' })).toEqual(['12000']);
    expect(amounts('we have 2 kids so 7 is tops', { previous: 'whats the budget' })).toEqual(['7000']);
  });

  it('reads no money in a phone number', () => {
    expect(findMoney('call me at 555-0199, the quote is attached')).toEqual([]);
  });
});

describe('money: roles, in new wordings', () => {
  const roles = (text: string, ctx: EntityContext = {}) => findMoney(text, ctx).map((m) => m.role);

  it('keeps a rep’s own quote a price, and another company’s a quote', () => {
    expect(roles("here's the quote: 7,250 for the hallway", { speaker: 'rep' })).toEqual(['price']);
    expect(roles('The other company quoted nine-five.', { speaker: 'rep' })).toEqual(['quote']);
    expect(roles('my cousin says he can do it for six grand', { speaker: 'homeowner' })).toEqual(['quote']);
  });

  it('reads no deposit in "zero down", and a budget only as the homeowner’s', () => {
    expect(roles('on 72 months its about 140 a month, zero down', { speaker: 'rep' })).toEqual(['price']);
    expect(roles('I can do eighty-two hundred if you supply the vanity.', { speaker: 'rep' })).toEqual([
      'price',
    ]);
    expect(roles("what's your budget, are we thinking like eight nine?", { speaker: 'rep' })).toEqual([
      'budget',
    ]);
    expect(
      roles('Twenty. Twenty-five, absolute max.', {
        speaker: 'homeowner',
        previous: 'What would you be comfortable spending?',
      }),
    ).toEqual(['budget', 'budget']);
  });

  it('keeps the role of an amount said back', () => {
    expect(
      roles('Seven-fifty I can live with.', {
        speaker: 'homeowner',
        previous: 'The repair is about seven-fifty.',
      }),
    ).toEqual(['price']);
  });
});

describe('money: more ways of saying it', () => {
  it.each([
    ["It's nineteen ninety-nine installed.", ['1999']],
    ['The thermostat runs about nineteen ninety-nine.', ['1999']],
    ['we bought it in nineteen ninety-nine', []],
    ['half a grand for the permit', ['500']],
    ['he asked 14 000 dollars for it', ['14000']],
    ['ten-ish grand', ['10000']],
    ['Twelve thousand, four hundred and fifty dollars even.', ['12450']],
    ['a hunnert bucks', ['100']],
    ['fifty-five hunnerd', ['5500']],
    ['twenty quid a month', ['20/month']],
    ["I'm Mrs. Nowak, N-O-W-A-K.", []],
  ])('"%s"', (text, expected) => {
    expect(amounts(text)).toEqual(expected);
  });
});

describe('money: signs and codes', () => {
  it.each([
    ['the price is 12000$ all included', ['12000']],
    ['£200 for the survey', ['200']],
    ['a 200€ deposit', ['200']],
    ['USD 500 for the visit', ['500']],
    ['$ 12,400 installed', ['12400']],
    ['about 2 hunnid', ['200']],
    ['one hundred and twenty-five dollars and fifty cents', ['125.5']],
  ])('"%s"', (text, expected) => {
    expect(amounts(text)).toEqual(expected);
  });

  it('points the span at the sign', () => {
    const text = 'that is $ 12,400 installed';
    expect(findMoney(text).map((m) => m.text)).toEqual(['$ 12,400']);
  });
});

describe('money: a rate asked about in the line before', () => {
  it('reads the answer at that rate', () => {
    expect(amounts('One forty-nine.', { previous: 'What would the monthly be on that?' })).toEqual([
      '149/month',
    ]);
    expect(amounts('two hundred and five', { previous: "what's that per month?" })).toEqual(['205/month']);
    expect(amounts('Six fifty.', { previous: "What's the vinyl per square foot?" })).toEqual(['6.5/sqft']);
  });

  it('reads no rate, and no money, from a count or a length of time asked about', () => {
    expect(amounts('Four.', { previous: 'And how many windows a month do you put in?' })).toEqual([]);
    expect(
      amounts('the stuff you had was six or eight', {
        previous: 'It broke in a year. What makes this different?',
      }),
    ).toEqual([]);
  });
});

describe('money: decimals said in words', () => {
  it.each([
    ['about nine point nine all in', ['9900']],
    ['it runs seven point eight', ['7800']],
    ['about ten grand-ish all in', ['10000']],
    ['the pitch is about 4.5', []],
  ])('"%s"', (text, expected) => {
    expect(amounts(text)).toEqual(expected);
  });

  it('scales a decimal answer by the question', () => {
    expect(amounts('Nine point nine.', { previous: 'What did they quote you?' })).toEqual(['9900']);
  });
});
