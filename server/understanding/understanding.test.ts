import { describe, expect, it } from 'vitest';
import { corpusHash } from './classifier/train';
import model from './classifier/model.json';
import { conform, loadCorpus } from './corpus';
import { ACT_LABELS, CORPUS_TOPICS } from './labels';
import { alternativesAsked, isNameCheck } from './readers/questions';
import { requestKind } from './readers/requests';
import { assumesBooking, does, endsVisit, putsDayForward, someSentenceDoes, understand } from './utterance';
import { livingNames, namesSomeoneLiving } from './readers/next-step';

describe('the labelled corpus', () => {
  const lines = loadCorpus();

  it('uses only the guide’s labels', () => {
    for (const l of lines) {
      for (const a of l.acts) expect(ACT_LABELS, `${l.id}: ${a}`).toContain(a);
      for (const t of l.topics) expect(CORPUS_TOPICS, `${l.id}: ${t}`).toContain(t);
      expect(['clean', 'typed', 'recogniser'], `${l.id}: ${l.style}`).toContain(l.style);
    }
  });

  it('is what the shipped classifier was trained on (run `npm run train:understanding` after adding lines)', () => {
    expect((model as { corpus: string }).corpus).toBe(corpusHash(lines));
  });

  it('reads a request asked with a question mark as a question too (the guide’s stacking rule)', () => {
    const line = conform({
      id: 'x-0001',
      author: 'x',
      speaker: 'rep',
      style: 'clean',
      trade: 'roofing',
      text: 'Mind if I take a look in the attic?',
      acts: ['request'],
      topics: [],
      entities: { money: [], times: [], people: [] },
    });
    expect(line.acts).toEqual(['request', 'question:closed']);
  });
});

describe('understand', () => {
  it('hears a day put to the homeowner as a proposal, asked or stated', () => {
    for (const text of [
      'Would Wednesday at four-thirty work for you?',
      'Could we do Thursday at ten?',
      'I can have the crew out Saturday morning at nine.',
      'does tuesday evening at seven work for you and your husband',
    ])
      expect(does(understand(text, { speaker: 'rep' }), 'proposal'), text).toBe(true);
  });

  it('hears a booking acted on as made as assumed when nothing was agreed', () => {
    const before = "I'm not booking anything until I've talked to my wife.";
    for (const text of [
      "I'm sending the order in for Monday at nine.",
      "I'll jot the date down on my business card for you.",
      'ok im gonna email u the booking details',
    ])
      expect(understand(text, { speaker: 'rep', previous: before }).acts, text).toContain('proposal:assumed');
    expect(understand("I'll email you the brochure tonight.", { speaker: 'rep' }).acts).not.toContain(
      'proposal:assumed',
    );
  });

  it('hears the answer to a proposed day: yes, no, another day', () => {
    const asked = 'Would Thursday at six work for you?';
    const read = (reply: string) => understand(reply, { speaker: 'homeowner', previous: asked }).acts;
    expect(read("Thursday's fine.")).toContain('agreement');
    expect(read('Sure, that works.')).toContain('agreement');
    expect(read("No, Thursday doesn't work for me.")).toContain('decline');
    expect(read("Thursday's my bowling night. Could you do Friday instead?")).toContain('proposal:counter');
  });

  it('hears leave-takings in other words, and not a greeting as one', () => {
    for (const text of [
      'Catch you on the flip side!',
      'aight im out. peace',
      'you have yourself a good one',
      "Alright, I'll get out of your hair.",
    ])
      expect(does(understand(text, { speaker: 'rep' }), 'goodbye'), text).toBe(true);
    expect(
      does(understand("Hi, I'm Sam with Apex. Thanks for having me.", { speaker: 'rep' }), 'goodbye'),
    ).toBe(false);
  });
});

describe('understand: entities', () => {
  it('names the money, days and times, and people in the line', () => {
    const u = understand('Thursday at six works, and my wife Dana wants it under ten-nine.', {
      speaker: 'homeowner',
    });
    expect(u.entities.times.map((t) => [t.day, t.time])).toEqual([['thursday', '6:00']]);
    expect(u.entities.money.map((m) => m.value)).toEqual([10900]);
    expect(u.entities.people.map((p) => [p.name, p.relation])).toEqual([['Dana', 'spouse']]);
  });

  it('reads them with the line before, given as text or as an utterance', () => {
    const asked = 'What budget did you have in mind?';
    const said = 'Between eight and ten.';
    const fromText = understand(said, { speaker: 'homeowner', previous: asked });
    const fromUtterance = understand(said, {
      speaker: 'homeowner',
      previous: understand(asked, { speaker: 'rep' }),
    });
    expect(fromText.entities.money.map((m) => [m.min, m.max])).toEqual([[8000, 10000]]);
    expect(fromUtterance.entities).toEqual(fromText.entities);
    expect(understand(said, { speaker: 'homeowner' }).entities.money).toEqual([]);
  });
});

describe('the close and the way out, as the shared reading gives them', () => {
  const rep = (text: string, previous?: string) => understand(text, { speaker: 'rep', previous });

  it('a day stated as settled is a booking assumed and a day put forward; a hedge or a pitch is neither', () => {
    for (const line of [
      'Sweet, Tuesday at nine it is.',
      "Right then, I've got you down for Friday morning.",
    ]) {
      expect(assumesBooking(rep(line)), line).toBe(true);
      expect(putsDayForward(rep(line)) || assumesBooking(rep(line)), line).toBe(true);
    }
    for (const line of [
      "I'm going to save you real money today, okay?",
      'maybe i swing by sometime next week if thats cool',
    ])
      expect(assumesBooking(rep(line)), line).toBe(false);
  });

  it('a leave-taking in other words ends the visit unless the turn asks something more', () => {
    expect(endsVisit(rep('right gotta bounce, ttyl'))).toBe(true);
    expect(endsVisit(rep('oh wait before I head off, which door is the one that sticks?'))).toBe(false);
    expect(endsVisit(rep('Could we do Thursday at ten? Thanks for your time either way.'))).toBe(false);
    expect(
      endsVisit(rep("Here's the sheet for Dan. Thank you kindly for the coffee, ma'am, good evening.")),
    ).toBe(true);
    expect(endsVisit(rep('We can leave the porch till later if you want to spread it out.'))).toBe(false);
    expect(endsVisit(rep('k np, laters', 'Not yet. I still need to think.'))).toBe(true);
  });

  it('reads word of a booking, which day was said, and references written out', () => {
    expect(requestKind("I'll text over the booking confirmation in a bit")).toBe('confirm-booking');
    expect(requestKind('wait was it friday or saturday, which one did we land on')).toBe('agreed-day');
    expect(requestKind('I can write out those references with phone numbers if that helps?')).toBe(
      'leave-item',
    );
  });
});

describe('either-or questions', () => {
  it('finds the two things to choose between, and not a yes/no or two clauses', () => {
    expect(alternativesAsked('Were you picturing laminate at all, or more of a stone tile?')).toEqual([
      'laminate',
      'stone tile',
    ]);
    expect(alternativesAsked('was it the upstairs bathroom or the downstairs bathroom that leaks')).toEqual([
      'upstairs bathroom',
      'downstairs bathroom',
    ]);
    expect(alternativesAsked('so are we going ahead or not?')).toBeNull();
    expect(alternativesAsked('is it just you making the call or does your husband weigh in?')).toBeNull();
  });
});

describe('someSentenceDoes', () => {
  it("finds the act a long turn's last line does when the whole turn's reading loses it", () => {
    const turn =
      "Ours clicks together over a cushioned underlay, and the seams carry a fifteen-year warranty, in writing, with the installer's name on it. We come back and fix any seam that lifts, free. How does that sit with you?";
    expect(does(understand(turn, { speaker: 'rep' }), 'check')).toBe(false);
    expect(someSentenceDoes(turn, 'rep', 'check')).toBe(true);
    expect(
      someSentenceDoes('The seams carry a fifteen-year warranty. We fix any that lift.', 'rep', 'check'),
    ).toBe(false);
  });
});

describe('namesSomeoneLiving', () => {
  it('knows a name the call gave earlier, and not one of someone who has died', () => {
    const call = [
      { text: 'My son Tavish helps me with the bills.', speaker: 'homeowner' as const },
      { text: 'My husband Orrin passed two winters ago.', speaker: 'homeowner' as const },
    ];
    const known = livingNames(call);
    expect(namesSomeoneLiving('Could we go over it Friday at four, with Tavish at the table?', known)).toBe(
      true,
    );
    expect(namesSomeoneLiving('Could we go over it Friday at four?', known)).toBe(false);
    expect(known).not.toContain('Orrin');
  });
});

describe('isNameCheck', () => {
  it('reads a name said back at the door as no question about the house', () => {
    expect(isNameCheck('Ms. Okafor?')).toBe(true);
    expect(isNameCheck('Shiv-awn?')).toBe(true);
    expect(isNameCheck('Rosalind?', ['Rosalind'])).toBe(true);
    expect(isNameCheck('Two stories?')).toBe(false);
    expect(isNameCheck('Natural gas?')).toBe(false);
    expect(isNameCheck('How old is the roof?')).toBe(false);
  });
});
