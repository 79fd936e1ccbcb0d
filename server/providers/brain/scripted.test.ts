import { describe, expect, it } from 'vitest';
import { STAGES, type Stage } from '../../../core/stages';
import { analyseRepTurn } from '../../understanding/rep-turn';
import { PERSONA_FACTS } from './personas';
import { personaSystemPrompt } from './prompt';
import { ScriptedConversation, scriptedBrain } from './scripted';

function talk(stage: Stage, lines: string[], seed = 1) {
  const c = new ScriptedConversation(stage, seed);
  const replies = lines.map((l) => c.respond(l));
  return { c, replies };
}

/** A conversation that earns the appointment: rapport, needs, proof, objection answered, close. */
const GOOD_CALL = [
  'hi my name is alex with bright home how are you today',
  'what problems are you having with the house',
  'how old is the home',
  'i understand that must be frustrating',
  'when are you hoping to get this done',
  'who else is involved in the decision',
  'have you gotten any other quotes',
  'we are licensed and insured and i can show you references',
  'what problems are you having with the roof',
  'and when are you hoping to get the roof done',
  'i understand we can include a lifetime warranty and compare what they included',
  'of course we can do it when you are both home together',
  'no pressure take your time it would be quick',
  'can we set up an appointment for saturday',
  'can we set up an appointment for saturday',
];

describe('scripted homeowner', () => {
  it('reveals a need only after a matching question', () => {
    const budget = 'twelve thousand';
    const { replies } = talk('Windows', [
      'hi my name is alex',
      'we install energy star windows',
      'i understand',
      'what kind of budget do you have in mind for this',
    ]);
    expect(replies.slice(0, 3).join(' ')).not.toContain(budget);
    expect(replies[3]).toContain(budget);
  });

  it('keeps a need back from a distrusting owner until trust is earned', () => {
    const c = new ScriptedConversation('Roofing', 3);
    const early = c.respond('what problems are you having with the roof');
    expect(early).not.toContain('leak over the back bedroom');
    c.respond('we are licensed and insured and here are references from your neighbors');
    const later = c.respond('what problems are you having with the roof');
    expect(later).toContain('leak over the back bedroom');
  });

  it('copes with recogniser output: lowercase, no punctuation, misheard words', () => {
    // "what kind of problems are you having with the furnace", as a weak recogniser hears it.
    const heard = 'so what kinda problem star you having with a furnace';
    const t = analyseRepTurn(heard);
    expect(t.isQuestion).toBe(true);
    expect(t.topics).toContain('problem');
    const { replies } = talk('HVAC', [heard]);
    expect(replies[0]).toContain('short-cycling');
  });

  it('remembers what was already asked', () => {
    const { replies } = talk('General', ['how old is the house', 'how old is the house']);
    expect(replies[0]).toContain('25 years');
    expect(replies[1]).toMatch(/like i said|as i mentioned|already told/i);
    expect(replies[1]).toContain('25 years');
  });

  it('raises the persona objection at a fitting moment', () => {
    const { c, replies } = talk('Windows', ['hi', 'have you gotten any other quotes yet']);
    expect(c.state.objections.get('competitor')).toBe('open');
    expect(replies[1]).toMatch(/quote|different|cheaper/i);
  });

  it('asks a distrusting owner for proof before going further', () => {
    const { c, replies } = talk('Roofing', ['hello my name is sam', 'we do great roofs']);
    expect(c.state.objections.get('trust')).toBe('open');
    expect(replies.join(' ')).toMatch(/licen[cs]e|references|burned/i);
  });

  it('raises a price objection when price comes up unasked', () => {
    const { c, replies } = talk('Flooring', ['the price would be about fourteen thousand dollars']);
    expect(c.state.objections.get('price')).toBe('open');
    expect(replies[0]).toMatch(/more than i expected/i);
  });

  it('punishes pressure, and ends the conversation on a second push', () => {
    const c = new ScriptedConversation('General', 5);
    const before = c.state.trust;
    const first = c.respond('this price is only good today you have to sign today');
    expect(c.state.trust).toBeLessThan(before);
    expect(first).toMatch(/rush|pushed|whoa/i);
    c.respond('last chance to decide now');
    expect(c.state.ended).toBe(true);
    // The call pipeline hangs up once this line has been played.
    expect(c.finished).toBe(true);
    expect(c.respond('can we set up an appointment for saturday')).toMatch(/done|leave/i);
    expect(c.state.agreed).toBe(false);
  });

  it('cuts a rambling rep short when the owner is time-pressed', () => {
    const ramble = Array.from({ length: 60 }, (_, i) => (i % 2 ? 'furnace' : 'efficiency')).join(' ');
    const { replies } = talk('HVAC', [ramble]);
    expect(replies[0]).toMatch(/bottom line|short version/i);
  });

  it('refuses an early close', () => {
    const { c, replies } = talk('Windows', ['hi can we book an appointment for tuesday']);
    expect(c.state.agreed).toBe(false);
    expect(replies[0].length).toBeGreaterThan(0);
  });

  it.each(STAGES)('agrees to an appointment when the rep earns it (%s)', (stage) => {
    const c = new ScriptedConversation(stage, 11);
    let agreedAt = -1;
    GOOD_CALL.forEach((line, i) => {
      c.respond(line);
      if (c.state.agreed && agreedAt < 0) agreedAt = i;
    });
    expect(c.state.agreed).toBe(true);
    // Not before the rep asked about needs.
    expect(agreedAt).toBeGreaterThan(4);
  });

  it('varies between calls', () => {
    const openings = new Set(
      Array.from({ length: 12 }, (_, seed) => new ScriptedConversation('General', seed).opening()),
    );
    expect(openings.size).toBeGreaterThan(1);
  });

  it('streams the reply sentence by sentence', async () => {
    const conv = scriptedBrain.startConversation({ stage: 'General', seed: 2 });
    const pieces: string[] = [];
    for await (const p of conv.reply([{ role: 'user', text: 'what problems are you having with the house' }]))
      pieces.push(p);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.join('')).toContain('sticking back door');
  });

  it('turns the same persona facts into an LLM system prompt', () => {
    const prompt = personaSystemPrompt(PERSONA_FACTS.Roofing);
    expect(prompt).toContain('Frank');
    expect(prompt).toContain(PERSONA_FACTS.Roofing.household.problem);
    expect(prompt).toMatch(/licen[cs]e/);
  });

  it('does not treat a number in a budget question as an offer on the table', () => {
    for (const stage of STAGES) {
      for (const seed of [1, 2, 3]) {
        const after = (question: string) =>
          talk(stage, ['hi my name is alex with bright home', question, 'so what do you think'], seed)
            .replies[2];
        // Asked what they think, the homeowner answers as if no number had been said.
        expect(after('is your budget over ten thousand dollars'), `${stage} seed ${seed}`).toBe(
          after('is your budget flexible at all'),
        );
      }
    }
  });
});

describe('variety across calls, consistency within one', () => {
  const FIRST_QUESTION: Record<string, string> = {
    HVAC: "what's going on with the furnace?",
    Windows: 'so what made you call about the windows?',
    Roofing: "what's happening with the roof?",
    Flooring: "what's not working with the floors?",
    General: 'so what needs doing around here?',
  };

  it.each(STAGES)('answers the same first question at least three ways in five calls (%s)', (stage) => {
    const answers = new Set<string>();
    for (let call = 1; call <= 5; call++) {
      const c = new ScriptedConversation(stage, call * 7919);
      c.respond('hi there, thanks for having me');
      c.state.trust = 9;
      answers.add(c.respond(FIRST_QUESTION[stage]));
    }
    expect(answers.size).toBeGreaterThanOrEqual(3);
  });

  it.each(STAGES)('keeps its own wording of the facts for the whole call (%s)', (stage) => {
    const c = new ScriptedConversation(stage, 31);
    c.state.trust = 9;
    c.respond(FIRST_QUESTION[stage]);
    const again = c.respond(FIRST_QUESTION[stage]);
    // Said again, the problem is the same one, in this call's words.
    expect(again.toLowerCase()).toContain(c.facts.household.problem.slice(0, 25).toLowerCase());
  });
});
