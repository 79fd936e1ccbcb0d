import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../core/transcript';
import { invitable, understandCall } from './call-facts';

const T0 = 1_700_000_000_000;
const convo = (...lines: string[]): TranscriptEntry[] =>
  lines.map((l, i) => ({
    role: l.startsWith('R:') ? 'user' : 'assistant',
    transcript: l.slice(2).trim(),
    timestamp: T0 + (i + 1) * 6000,
  }));
const facts = (stage: string, ...lines: string[]) => understandCall(convo(...lines), { stage });
const names = (f: ReturnType<typeof facts>) => f.people.filter(invitable).map((p) => p.name ?? p.relation);

describe('who may be invited to the next step', () => {
  it.each([
    ['He passed in March, so it is just me now. My husband put the gutters in himself.'],
    ['My late husband Walt always said that valley would go.'],
    ['Since my husband died I have not been up in the attic.'],
  ])('never a spouse who has died: %s', (line) => {
    const f = facts(
      'Roofing',
      `H: ${line}`,
      'R: I am so sorry. Could I come back Thursday at ten?',
      'H: Thursday works.',
    );
    const spouse = f.people.find((p) => p.relation === 'spouse');
    expect(spouse?.deceased).toBe(true);
    expect(f.people.filter(invitable).some((p) => p.relation === 'spouse')).toBe(false);
  });

  it.each([
    ["It's lindaw at gmail dot com. W like William."],
    ['f nolan at comcast dot net. N like Nancy, o-l-a-n.'],
    ['jmorrow at yahoo. M as in Mary.'],
    ['I taught third grade at Lincoln for thirty-one years.'],
    ['We live over on Jefferson Street.'],
  ])('never a spelled letter, a school or a street: %s', (line) => {
    const f = facts('Windows', 'R: What is the best email for you?', `H: ${line}`);
    expect(names(f)).toEqual([]);
  });

  it('a daughter the homeowner names as part of the decision, and a son named in the agreed visit', () => {
    const f = facts(
      'HVAC',
      'R: Is anyone helping you with decisions on the house?',
      'H: My daughter Karen. She looks at anything with a contract.',
      'R: Could I come back Monday at nine when Dave can be here too?',
      'H: My son Dave? Monday at nine works.',
    );
    expect(names(f)).toEqual(expect.arrayContaining(['Karen', 'Dave']));
  });

  it('not a relative who would do the job, nor the rep addressed by name', () => {
    const f = facts(
      'HVAC',
      'R: The new unit is seven thousand installed.',
      'H: My uncle does heating on the side and said he could do it for five.',
      'H: Thanks for explaining it all, Dana.',
    );
    expect(names(f)).toEqual([]);
  });
});

describe('the next step the homeowner agreed to', () => {
  it.each([
    ['Thursday at six is good. She is home by five thirty.', 'thursday'],
    ['Yeah, okay, go ahead and put me down. Wednesday at four.', 'wednesday'],
  ])('is the day put to them and taken, never a day of their story: %s', (answer, day) => {
    const f = facts(
      'Windows',
      'H: Diane called you guys Tuesday about the windows.',
      `R: Could I come back ${day === 'thursday' ? 'Thursday at six' : 'Wednesday at four'} when you are both home?`,
      `H: ${answer}`,
    );
    expect(f.agreedStep?.day).toBe(day);
    expect(f.proposals.some((p) => p.day === 'tuesday')).toBe(false);
  });

  it('counts a visit agreed while refusing to sign', () => {
    const f = facts(
      'Roofing',
      'R: Would tomorrow at five thirty work to walk you both through the photos?',
      "H: Tomorrow works. But I'm not signing anything.",
    );
    expect(f.agreedStep?.day).toBe('tomorrow');
  });

  it('reads a deadline ask as an ask, on the deadline', () => {
    const f = facts(
      'General',
      'H: That is more than I wanted to spend.',
      "R: If you sign tonight I'll knock fifteen percent off, that's only good tonight.",
      "H: I'm not signing anything tonight.",
    );
    expect(f.asks.some((a) => a.deadline)).toBe(true);
  });
});

describe('offers', () => {
  it('are the distinct priced choices, never a brag, a deposit or a deadline promo', () => {
    const f = facts(
      'Flooring',
      "R: We've put down over twelve thousand floors in this county. A sheet vinyl is about thirty-nine hundred, the vinyl plank is fifty-eight hundred, and engineered oak is eighty-four hundred.",
      'H: The plank makes sense.',
      'R: We take a five hundred dollar deposit today to order the material.',
      "R: And if you sign tonight I'll knock ten percent off, that brings it under fifty-three hundred.",
    );
    expect(f.offers.map((o) => o.price.value)).toEqual([3900, 5800, 8400]);
  });

  it('keep a price and a rebate apart', () => {
    const f = facts(
      'HVAC',
      'R: A gas furnace is about sixty-two hundred installed. A heat pump is eleven thousand four hundred, and the rebate takes about two thousand off that.',
    );
    expect(f.offers.map((o) => o.price.value)).toEqual([6200, 11400]);
  });
});

describe('the problem', () => {
  it('is a short phrase of its kind, with the homeowner line it was read from', () => {
    const f = facts(
      'Roofing',
      'H: There is a brown stain on the ceiling, and the roof leaks into the back bedroom when it rains.',
    );
    expect(f.problem?.phrase).toBe('the leak');
    expect(f.turns[f.problem!.evidence.turn].text).toContain(f.problem!.evidence.text);
  });

  it.each([
    ['Roofing', 'H: There is a brown stain on the ceiling in the back bedroom and it drips when it rains.'],
    ['HVAC', "H: The furnace is from ninety-nine or so. It still runs, but I don't trust it."],
  ])('is not named when the homeowner never put it in those words: %s', (stage, line) => {
    expect(facts(stage, line).problem?.phrase).toBeUndefined();
  });
});

describe('asks', () => {
  it.each([['What happened on Saturday?'], ['When did it start, Tuesday?'], ['How did Friday go?']])(
    'a question about what happened is no ask: %s',
    (q) => {
      const f = facts('HVAC', 'H: The furnace quit on Saturday.', `R: ${q}`);
      expect(f.asks).toEqual([]);
    },
  );
});

describe('what the homeowner said to a booking', () => {
  it('a day refused by name is refused, and a nod to a rep leaving is no yes', () => {
    const f = facts(
      'Roofing',
      'R: Tell you what, I will come back Friday at ten and we can get it all signed.',
      "H: I need to talk to Maria first. I'm not promising anything for Friday.",
      "R: No problem, I'll put you down for Friday at ten. Thanks for your time, have a good one.",
      'H: Yep. Okay.',
    );
    expect(f.asks.map((a) => a.answer)).not.toContain('agreed');
    expect(f.agreedStep).toBeNull();
  });

  it('a day said back and turned down in the same breath is no yes', () => {
    const f = facts(
      'Windows',
      'R: How about I come back Thursday at four with the paperwork, so you can both sign?',
      "H: Thursday... my daughter has her shifts on Thursdays. I'd need to check with her.",
    );
    expect(f.agreedStep).toBeNull();
  });

  it('a day taken plainly is still a yes', () => {
    const f = facts(
      'Roofing',
      'R: Could I come back Friday at ten?',
      'H: Friday at ten works. See you then.',
    );
    expect(f.asks.some((a) => a.answer === 'agreed') || f.agreedStep !== null).toBe(true);
  });
});
