import { describe, expect, it } from 'vitest';
import { findPeople } from './people';
import type { EntityContext, PersonEntity } from './types';

type Fields = Pick<PersonEntity, 'name' | 'relation' | 'status' | 'decides'>;

function people(text: string, ctx: EntityContext = {}): Fields[] {
  return findPeople(text, ctx).map(({ name, relation, status, decides }) => ({
    name,
    relation,
    status,
    decides,
  }));
}

const person = (relation: Fields['relation'], extra: Partial<Fields> = {}): Fields => ({
  name: null,
  relation,
  status: null,
  decides: null,
  ...extra,
});

describe('people: who is mentioned', () => {
  it.each([
    ['My husband Ron handles the house stuff.', [person('spouse', { name: 'Ron', decides: true })]],
    ['my wife karen picked the color', [person('spouse', { name: 'Karen', decides: true })]],
    ['My neighbor Gary got his done by some outfit.', [person('neighbour', { name: 'Gary' })]],
    ['My granddaughter was here all weekend.', [person('grandchild')]],
    ['Heat pumps? My brother-in-law had one up in Fargo.', [person('relative')]],
    ['heat pump my brother in law say they dont work', [person('relative')]],
    ['My landlord did the whole unit for like two grand.', [person('landlord')]],
    ['my tenant lives down there', [person('tenant')]],
    ['The guy from Carpet One said five.', [person('contractor')]],
    ['last guy charged us $150 just to come out', [person('contractor')]],
    ['The Home Depot guy wanted thirty-one hundred.', [person('contractor')]],
    ['ngl i already told my boss id close this one', [person('colleague')]],
    ['My roommate jokes it is haunted.', [person('other')]],
    ['the adjuster came out tuesday', [person('other')]],
    ['we got two roommates and a dog', [person('other')]],
    ['The Hendersons just did their whole back side.', [person('neighbour', { name: 'Henderson' })]],
  ])('"%s"', (text, expected) => {
    expect(people(text)).toEqual(expected);
  });

  it('reads the speaker introducing themselves', () => {
    expect(people("Hi, I'm Sam with Apex.", { speaker: 'rep' })).toEqual([person('self', { name: 'Sam' })]);
    expect(people('hi im sam w apex roofing', { speaker: 'rep' })).toEqual([person('self', { name: 'Sam' })]);
    expect(people('Good evening. I am Rajesh, from ClearView Windows.', { speaker: 'rep' })).toEqual([
      person('self', { name: 'Rajesh' }),
    ]);
    expect(people("Morning, ma'am. Dale Brandt, Heartland Roofing.", { speaker: 'rep' })).toEqual([
      person('self', { name: 'Dale Brandt' }),
    ]);
    expect(people('hi, this is priya from the tuesday appointment', { speaker: 'homeowner' })).toEqual([
      person('self', { name: 'Priya' }),
    ]);
  });

  it('reads the person spoken to', () => {
    expect(people('Hi Linda, thanks for having me.', { speaker: 'rep' })).toEqual([
      person('addressee', { name: 'Linda' }),
    ]);
    expect(people('hey linda, sam from apex', { speaker: 'rep' })).toEqual([
      person('addressee', { name: 'Linda' }),
      person('self', { name: 'Sam' }),
    ]);
    expect(people('You must be Carol?', { speaker: 'rep' })).toEqual([
      person('addressee', { name: 'Carol' }),
    ]);
    expect(people('Thanks for your time today, Marcus.', { speaker: 'rep' })).toEqual([
      person('addressee', { name: 'Marcus' }),
    ]);
    expect(people('I drove out here to see you, Mr. Jensen.', { speaker: 'rep' })).toEqual([
      person('addressee', { name: 'Jensen' }),
    ]);
    expect(people("Hi, I'm Marisol. You're Kenji and Ava?", { speaker: 'rep' })).toEqual([
      person('self', { name: 'Marisol' }),
      person('addressee', { name: 'Kenji' }),
      person('addressee', { name: 'Ava' }),
    ]);
  });
});

describe('people: status and say', () => {
  it('reads a person who has died', () => {
    expect(people('My late husband Walter put that roof on.')).toEqual([
      person('spouse', { name: 'Walter', status: 'deceased' }),
    ]);
    expect(people('my late husband did the roof himself')).toEqual([
      person('spouse', { status: 'deceased' }),
    ]);
    expect(people('My wife always dealt with the furnace people. She passed in March.')).toEqual([
      person('spouse', { status: 'deceased' }),
    ]);
    expect(people('since my mother in law passed two years ago he come to stay with us')).toEqual([
      person('relative', { status: 'deceased' }),
    ]);
    expect(people('He passed in March.', { previous: 'Is your husband going to join us?' })).toEqual([
      person('spouse', { status: 'deceased' }),
    ]);
    expect(people("I'm sorry about Walter.", { previous: 'My late husband Walter did the roof.' })).toEqual([
      person('spouse', { name: 'Walter', status: 'deceased' }),
    ]);
  });

  it('reads a person who is away', () => {
    expect(people('My sister lives out in Denver.')).toEqual([person('sibling', { status: 'away' })]);
    expect(people('my husband is deployed till march')).toEqual([person('spouse', { status: 'away' })]);
  });

  it('reads who has a say and who has none', () => {
    expect(people('my son has to see it first')).toEqual([person('child', { decides: true })]);
    expect(people('My son would have to see it before we sign anything.')).toEqual([
      person('child', { decides: true }),
    ]);
    expect(people('I need to talk to my daughter, she handles my money stuff.')).toEqual([
      person('child', { decides: true }),
    ]);
    expect(people("I can't say yes without my husband.")).toEqual([person('spouse', { decides: true })]);
    expect(people('gotta show jamal the pics first')).toEqual([
      person('other', { name: 'Jamal', decides: true }),
    ]);
    expect(people("it's my call, my husband doesn't get a say")).toEqual([
      person('spouse', { decides: false }),
    ]);
    // Named, with nothing said about the decision.
    expect(people('My daughter has allergies.')).toEqual([person('child')]);
  });
});

describe('people: who is not a person', () => {
  it.each([
    "It's N like Nancy, O-W-A-K.",
    'Brandt, B-R-A-N-D-T. And the company is Heartland, H like Harry.',
    'W-O-J, like Walter, Oscar, John.',
    'I taught third grade at Lincoln for thirty years.',
    "We're on Lincoln Street, past the school.",
    'Our dog Max hates the vacuum.',
    'Chico! Very handsome boy, good dog.',
    "It's a Lennox.",
    'I called Apex and they never came.',
    'Some guy came by last week.',
    'Folks around here all say the same.',
    'Trust me, my friend, do not overthink it.',
    "You're the third roofer at this door.",
    'My dad was a roofer for thirty years.',
    'ok bet ty',
  ])('"%s"', (text) => {
    expect(findPeople(text).filter((p) => p.relation !== 'parent')).toEqual([]);
  });

  it('keeps the people in a line that also names places and companies', () => {
    expect(people('My sister moved to Denver and works for Apex.')).toEqual([
      person('sibling', { status: 'away' }),
    ]);
    expect(people('The fella from Climate Pros charged me four fifty.')).toEqual([person('contractor')]);
  });
});

describe('people: spans', () => {
  it('points at the words it read', () => {
    const text = 'My late husband Walter and my son Jake, and the guy from Apex.';
    const found = findPeople(text);
    for (const p of found) expect(text.slice(p.start, p.end)).toBe(p.text);
    expect(found.map((p) => p.text)).toEqual(['My late husband Walter', 'my son Jake', 'the guy from Apex']);
  });
});
