import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { STAGES, type Stage } from '../../../core/stages';
import { OpenAIChatClient } from '../llm/chat-client';
import { startFakeChatServer } from '../llm/test-server';
import { analyseRepTurn, parsePrice } from '../../understanding/rep-turn';
import { LlmBrain } from './llm-brain';
import { PERSONA_FACTS } from './personas';
import { sentenceKey, sentences } from './phrasebook';
import { ScriptedConversation } from './scripted';

function conv(stage: Stage, seed = 7) {
  return new ScriptedConversation(stage, seed);
}

/** Every sentence the homeowner said in the call, opening included. */
function allSentences(c: ScriptedConversation, opening: string, replies: string[]): string[] {
  void c;
  return [opening, ...replies].flatMap(sentences).map(sentenceKey);
}

/** A rep who earns the appointment with the friendly owner. */
const EARNED_GENERAL = [
  'hi im jess with handy home',
  'what projects have been on your mind for the house',
  'how long have you lived here',
  'which of those matters most to you',
  'does susan like to be part of these decisions',
  'of course we can do it when you are both home together',
];

describe('dialogue manager: classification by meaning', () => {
  it.each([
    ['What year was the place built?', 'home'],
    ['how long have you had the furnace', 'home'],
    ['what got you thinking about a new roof', 'problem'],
    ["what's prompting this", 'problem'],
    ['how much were you hoping to invest', 'budget'],
    ['do you have a ballpark figure in mind', 'budget'],
    ['how quickly do you need this done', 'timeline'],
    ['who else will weigh in on this', 'decision'],
    ['are you getting bids from anyone else', 'quotes'],
    ['what would the perfect outcome look like for you', 'priorities'],
    ['what kind of material were you leaning towards', 'product'],
  ])('reads "%s" as a question about %s', (line, topic) => {
    const t = analyseRepTurn(line);
    expect(t.isQuestion).toBe(true);
    expect(t.topics[0]).toBe(topic);
  });

  it('tells small talk, off-topic questions, goodbyes, pressure and rudeness apart', () => {
    expect(analyseRepTurn('crazy weather this week huh').smallTalk).toBe(true);
    expect(analyseRepTurn('do you know who won the election').offTopic).toBe(true);
    expect(analyseRepTurn('alright thanks for your time have a good one').goodbye).toBe(true);
    expect(analyseRepTurn('this offer expires tonight so you need to sign now').pressure).toBe(true);
    expect(analyseRepTurn('no pressure at all, you do not need to decide today').pressure).toBe(false);
    expect(analyseRepTurn('are you deaf or just stupid').rude).toBe(true);
    expect(analyseRepTurn('that damn storm really did a number on the roof').rude).toBe(false);
    expect(analyseRepTurn('¿cuánto tiempo tiene la casa?').nonEnglish).toBe(true);
    expect(analyseRepTurn('is it going to rain tomorrow').close).toBe(false);
    expect(analyseRepTurn('could i swing by thursday to measure').close).toBe(true);
    // A slot on the calendar is a booking; slotting a part into a frame is not.
    expect(analyseRepTurn('we fit a new sash rather than slotting a panel into the old one').close).toBe(
      false,
    );
    expect(analyseRepTurn('I can slot you in Friday morning if that suits').close).toBe(true);
  });

  it('hears a proposal that leaves out who comes, and a check-back that is not a household question', () => {
    const proposal = analyseRepTurn('Would Thursday evening work to come back when your spouse is home?');
    expect(proposal.close).toBe(true);
    expect(analyseRepTurn('Is Saturday morning good for you two?').close).toBe(true);
    const check = analyseRepTurn(
      'We have financing at about a hundred and twenty a month. Would that work better?',
    );
    expect(check.topics).toEqual([]);
    expect(check.offTopic).toBe(false);
    expect(check.financing).toBe(true);
  });

  it('matches a key only in its own inflections, not in a longer different word', () => {
    // "bother" is not "both", "listening" is not "list".
    expect(analyseRepTurn('does the noise bother you at night').addresses).not.toContain('spouse');
    expect(analyseRepTurn('does the noise bother you at night').topics).not.toContain('decision');
    expect(analyseRepTurn('we install them and we stopped leaks on forty homes last year').proof).toBe(
      analyseRepTurn('we install them and we stop leaks on forty homes last year').proof,
    );
  });

  it('reads a four-figure amount put as a price, but not a count of things', () => {
    expect(
      parsePrice(
        analyseRepTurn('what if we looked at a single stage unit for around seventy eight hundred').words,
      ),
    ).toBe(7800);
    expect(parsePrice(analyseRepTurn('the house is about fifteen hundred square feet').words)).toBeNull();
    expect(parsePrice(analyseRepTurn('we have done about twelve hundred installs').words)).toBeNull();
  });

  it('hears a rep promising something by a time as service, not pressure', () => {
    const t = analyseRepTurn("perfect i'll email you the paperwork tonight take care");
    expect(t.pressure).toBe(false);
    expect(t.goodbye).toBe(true);
    expect(analyseRepTurn('this price is only good today so you need to sign tonight').pressure).toBe(true);
    expect(analyseRepTurn('Thanks for your time tonight.').goodbye).toBe(true);
  });

  it('hears urgency put on the homeowner, a trade question about a pet, and a spouse invited along', () => {
    expect(
      analyseRepTurn('you really should do all of it right now because prices are going up next month')
        .pressure,
    ).toBe(true);
    const dog = analyseRepTurn('How does the dog do on hard floors?');
    expect(dog.smallTalk).toBe(false);
    expect(dog.topics.length).toBeGreaterThan(0);
    expect(analyseRepTurn('would it help if susan was here when i come back').addresses).toContain('spouse');
    expect(analyseRepTurn("What don't you like about the carpet right now?").topics[0]).toBe('problem');
  });

  it('reads prices in digits and words', () => {
    expect(parsePrice(analyseRepTurn('it comes to $13,500 installed').words)).toBe(13500);
    expect(parsePrice(analyseRepTurn('about seven thousand five hundred').words)).toBe(7500);
    expect(parsePrice(analyseRepTurn('roughly 9k all in').words)).toBe(9000);
    expect(parsePrice(analyseRepTurn('we have been around for twenty years').words)).toBeNull();
  });
});

describe('dialogue manager: behaviour', () => {
  it('answers a proposed visit as a proposal, and a financing check-back with a reaction to the financing', () => {
    const c = conv('General');
    const financing = c.respond(
      'We have financing at about a hundred and twenty a month. Would that work better?',
    );
    // Not the household's problem: nothing asked about it.
    expect(financing.toLowerCase()).not.toMatch(/like i said|sticking back door/);
    const visit = c.respond('Would Thursday evening work to come back when Susan is home?');
    expect(visit.toLowerCase()).not.toMatch(/like i said|told you/);
  });

  it('answers a follow-up with a new detail and a repeated question with the same fact', () => {
    const c = conv('HVAC');
    c.state.trust = 8;
    const first = c.respond("what's going on with the furnace?");
    const follow = c.respond('is it the whole house or just upstairs?');
    expect(follow).not.toBe(first);
    expect(follow.toLowerCase()).toContain('upstairs');
    expect(follow.toLowerCase()).not.toMatch(/already told|like i said|again:/);
    const again = c.respond("what's going on with the furnace?");
    expect(again.toLowerCase()).toContain('short-cycling');
  });

  it('agrees to the day the rep proposed, not to a day of its own', () => {
    const c = conv('Windows');
    c.state.trust = 9;
    for (const q of [
      'what made you call us',
      'how soon do you need it',
      'who else is part of the decision',
      'are you getting other quotes',
    ])
      c.respond(q);
    c.state.objections.set('competitor', 'accepted');
    const yes = c.respond('Can I put you down for a final measure on Saturday at ten?');
    expect(c.state.agreed).toBe(true);
    expect(yes).toContain('Saturday at ten');
    expect(yes).not.toMatch(/Thursday/);
  });

  it('takes a day the rep names after agreeing, and raises no price objection before any price', () => {
    const c = conv('General');
    expect(c.respond('are prices for decks going up this year?')).not.toMatch(/more than we figured/);
    expect(c.state.objections.has('price')).toBe(false);
    c.state.agreed = true;
    expect(c.respond('how about saturday morning instead')).toContain('Saturday morning');
  });

  it('answers the question asked, from the persona facts', () => {
    const c = conv('General');
    expect(c.respond('How long have you lived here?')).toContain('25 years');
    expect(c.respond('What projects have been on your mind?')).toContain('sticking back door');
  });

  it('says so in character, naming the topic, when trust is too low', () => {
    const c = conv('Roofing');
    const reply = c.respond("what's your budget for the roof");
    expect(reply).toMatch(/budget/i);
    expect(reply).not.toContain('insurance pays');
    expect(c.state.revealed.has('budget')).toBe(false);
  });

  it('never says the same sentence twice, and restates facts in new words', () => {
    const c = conv('HVAC');
    const opening = c.opening();
    const replies = Array.from({ length: 8 }, () => c.respond('how old is the furnace'));
    const said = allSentences(c, opening, replies);
    expect(new Set(said).size).toBe(said.length);
    // The first restatements still carry the fact.
    for (const r of replies.slice(1, 5)) expect(r).toMatch(/fifteen|18 years/i);
  });

  it('keeps facts consistent across the call', () => {
    const c = conv('Windows');
    c.respond('hi im sam, thanks for your time');
    c.respond('i understand, that must be frustrating');
    const replies = Array.from({ length: 4 }, () => c.respond('what budget do you have in mind'));
    for (const r of replies.filter((x) => /thousand/.test(x))) expect(r).toContain('twelve thousand');
  });

  it('moves an objection from open to answered and never raises it again', () => {
    const c = conv('Windows', 3);
    c.respond('hi im alex with clearview');
    c.respond('have you had any other quotes');
    expect(c.state.objections.get('competitor')).toBe('open');
    c.respond('the difference is a lifetime warranty and our own crews, and it includes the trim');
    expect(['answered', 'accepted']).toContain(c.state.objections.get('competitor'));
    const later = [
      c.respond('what problems are you having with the windows'),
      c.respond('when do you want them done'),
      c.respond('could i come back thursday to measure'),
    ].join(' ');
    for (const line of PERSONA_FACTS.Windows.objections.competitor) expect(later).not.toContain(line);
  });

  it('weighs a price against the budget', () => {
    const fits = conv('HVAC');
    expect(fits.respond('the new furnace installed is seven thousand dollars')).toMatch(/within|figured/);
    expect(fits.state.objections.has('price')).toBe(false);
    const over = conv('HVAC');
    over.respond('the new furnace installed is fourteen thousand dollars');
    expect(over.state.objections.get('price')).toBe('open');
    over.respond('we have financing at zero percent so it is about a hundred a month');
    expect(over.state.objections.get('price')).not.toBe('open');
  });

  it('agrees only when earned, never to small talk, and stays agreed', () => {
    const c = conv('General');
    for (const line of EARNED_GENERAL) c.respond(line);
    expect(c.state.agreed).toBe(false);
    c.respond('beautiful weather tomorrow, supposed to be sunny all weekend');
    c.respond('do you know if the bakery is open on saturday');
    expect(c.state.agreed).toBe(false);
    c.respond('could i come by saturday morning to go through the list');
    expect(c.state.agreed).toBe(true);
    const confirm = c.respond("great, i'll text you a confirmation tonight");
    expect(c.state.agreed).toBe(true);
    expect(confirm).not.toMatch(/rush|push|pressure/i);
    c.respond('so can we still do saturday');
    expect(c.state.agreed).toBe(true);
  });

  it.each(STAGES)('answers a goodbye with a goodbye and ends the call (%s)', (stage) => {
    const c = conv(stage);
    c.respond('hi there, thanks for opening the door');
    const reply = c.respond('ok well thanks for your time, take care');
    expect(reply).toMatch(/bye|goodbye|take care|see you/i);
    expect(c.endCall).toBe('goodbye');
  });

  it('ends the call itself after sustained pressure or rudeness', () => {
    const pushed = conv('Flooring');
    pushed.respond('this promotion ends at midnight, you need to decide today');
    expect(pushed.endCall).toBeNull();
    pushed.respond('everyone else on the street already signed, just commit right now');
    expect(pushed.endCall).toBe('homeowner');
    const insulted = conv('HVAC');
    insulted.respond('you are an idiot');
    insulted.respond('shut up and listen');
    expect(insulted.endCall).toBe('homeowner');
    expect(insulted.finished).toBe(true);
  });

  it('meets small talk per temperament', () => {
    const talk = 'beautiful day, did you catch the game last night';
    const friendly = conv('General');
    friendly.respond('hi im jess');
    const t0 = friendly.state.trust;
    const chat = friendly.respond(talk);
    expect(friendly.state.trust).toBeGreaterThan(t0);
    expect(chat).toMatch(/\?/); // chats, then steers back with a question
    const hurried = conv('HVAC');
    hurried.respond('hi im chris');
    expect(hurried.respond(talk)).toMatch(/time|skip|point|offering|bottom line|moving on/i);
    const wary = conv('Roofing');
    wary.respond('hi im maria');
    const w0 = wary.state.trust;
    wary.respond(talk);
    expect(wary.state.trust).toBeLessThan(w0);
  });

  it('answers anything in character without crashing', () => {
    const ramble = 'so basically what we do is we come out and look at everything and '
      .repeat(16)
      .slice(0, 1000);
    const c = conv('HVAC');
    expect(c.respond(ramble)).toMatch(/\w/);
    expect(c.respond('hola señor, ¿usted habla español?')).toMatch(/english/i);
    expect(c.respond('这个房子多大')).toMatch(/english/i);
    expect(c.respond('')).toMatch(/\w/);
    expect(c.respond('🙂🙂🙂')).toMatch(/\w/);
    fc.assert(
      fc.property(fc.string({ maxLength: 1000 }), fc.constantFrom(...STAGES), (text, stage) => {
        const reply = new ScriptedConversation(stage, 1).respond(text);
        return typeof reply === 'string' && reply.trim().length > 0;
      }),
      { numRuns: 150 },
    );
  });
});

describe('dialogue manager: asked what they think', () => {
  it.each([
    ['what are you thinking', true, false],
    ['so what do you think?', true, false],
    ['thoughts?', true, false],
    ['how do you feel about that option', true, false],
    ['which one sounds better to you', true, false],
    ["where's your head at", true, false],
    ['what part of it gives you pause, the number or something else', false, true],
    ["what's your biggest hesitation", false, true],
    ["what's holding you back", false, true],
    ['what would it take to earn your business today', false, true],
    ['what do you think is causing the leak', true, false],
    ["how's that sit with you", true, false],
    ['is there anything else that would keep you from moving ahead', false, true],
    ['are you nervous about any part of this', false, true],
    ['do you have any reservations so far', false, true],
    ["anything you'd be uneasy about if we went ahead", false, true],
    ['how old is the unit', false, false],
  ])('"%s" asks an opinion: %s, probes a concern: %s', (text, opinion, concern) => {
    const t = analyseRepTurn(text);
    expect(t.asksOpinion).toBe(opinion);
    expect(t.probesConcern).toBe(concern);
  });

  it('hears a question after a preface or without punctuation, and prices in sales shorthand', () => {
    expect(analyseRepTurn('yeah safety first. how soon are you wanting the deck fixed').isQuestion).toBe(
      true,
    );
    expect(analyseRepTurn('so on a scale of one to ten how important is the noise').isQuestion).toBe(true);
    expect(analyseRepTurn('what we do is we come out and measure everything').isQuestion).toBe(false);
    expect(analyseRepTurn('triple pane would be at thirteen four or double at eleven nine').prices).toEqual([
      13_400, 11_900,
    ]);
    expect(
      analyseRepTurn('patch it for about nine hundred or a full tear off around fourteen thousand').prices,
    ).toEqual([900, 14_000]);
    expect(analyseRepTurn('we have done about two hundred homes on this street').prices).toEqual([]);
    expect(analyseRepTurn('my daughter is thirteen four days from now').prices).toEqual([]);
  });

  it('reads recogniser-style turns: an intro naming the appointment, a question ending on "or", how long', () => {
    expect(analyseRepTurn("hi there i'm mike with air comfort here for the the appointment").close).toBe(
      false,
    );
    expect(analyseRepTurn('can we set up an appointment for thursday').close).toBe(true);
    const t = analyseRepTurn('you are looking to get it done like right away or');
    expect(t.isQuestion).toBe(true);
    expect(t.topics[0]).toBe('timeline');
    const c = conv('HVAC');
    c.respond("so what's been going on with her furnace");
    expect(c.respond("how long it's been doing that")).toMatch(/last winter|started/i);
  });

  it('hears which worry a rep answers, and not a company "been here twenty years" as the spouse', () => {
    expect(analyseRepTurn('we can usually get you in within a few days').addresses).toContain('timing');
    expect(analyseRepTurn('nobody wants to overpay, you get what you pay for').addresses).toContain('price');
    const local = analyseRepTurn("fair question. we're local, been here twenty years, and we don't use subs");
    expect(local.addresses).toContain('competitor');
    expect(local.addresses).not.toContain('spouse');
    expect(analyseRepTurn("let's find a time when mark can be here too").addresses).toContain('spouse');
  });

  it('"thanks for having me over" at the door greets; "roofs in the neighborhood" is no proof', () => {
    const c = conv('Flooring');
    const hello = c.respond("hi priya, i'm alex from floorcraft, thanks for having me over");
    expect(c.endCall).toBeNull();
    expect(hello).not.toMatch(/\bbye\b/i);
    expect(analyseRepTurn("we're doing a bunch of roofs in the neighborhood after the storm").proof).toBe(
      false,
    );
    expect(analyseRepTurn("we did your neighbor's roof last spring").proof).toBe(true);
    expect(analyseRepTurn('our licence is on the truck, we are fully insured').proof).toBe(true);
  });

  it('a budget question with a number quotes nothing; "want to go ahead" asks for the decision; a brochure is taken', () => {
    const c = conv('Windows');
    c.respond('are the windows original to the house');
    c.respond('is your budget over ten thousand');
    expect(c.state.quoted).toBe(false);
    expect(analyseRepTurn('ok. so do you want to go ahead').close).toBe(true);
    expect(analyseRepTurn("can we focus here, i've got another appointment after this").close).toBe(false);
    expect(c.respond('alright, can i at least leave a brochure')).toMatch(/leave it|look|read|compare/i);
  });

  it('asked before anything is offered, says there is nothing to think about yet', () => {
    const c = conv('Windows');
    c.respond('hi there');
    expect(c.respond('so what are you thinking?')).toMatch(/haven't|hear|offer|propos|suggest/i);
  });

  it('asked after an offer, voices the worry still open, in words that fit what was said', () => {
    const c = conv('HVAC');
    c.respond("what's been going on with the furnace");
    c.respond('is it just you deciding');
    const offer = c.respond('i can do a new furnace for seven grand or a heat pump for eleven five');
    expect(offer).toMatch(/time|fast|project/i);
    const mind = c.respond('what are you thinking');
    expect(mind).toMatch(/timing|time|fast/i);
    expect(mind).not.toMatch(/how much|give me the number/i);
    expect(c.respond('what part of it gives you pause')).toMatch(/timing|time|fast/i);
  });

  it('asked what holds them back with no worry voiced yet, raises the one they carry', () => {
    const c = conv('General');
    c.respond('what projects are on your list');
    const r = c.respond("what's your biggest hesitation about getting it done?");
    expect(c.state.objections.size).toBeGreaterThan(0);
    expect(r).toMatch(/\w/);
  });

  it('a question about energy bills gets the bills, not another detail', () => {
    for (const stage of STAGES) {
      const c = conv(stage);
      c.respond("we're licensed and insured, and here are references from your street");
      const r = c.respond('what are your energy bills like these days');
      expect(r, stage).toMatch(/\bbills?\b/i);
    }
  });

  it('a follow-up pointing at a detail already told gets it again, briefly', () => {
    const c = conv('Windows');
    c.respond("what's going on with the windows");
    c.respond('which rooms are the worst');
    const told = c.respond('so is the chill in the living room or somewhere else');
    expect(told).toMatch(/like I said|again|already|as I mentioned|told you/i);
    expect(told).toMatch(/living room/i);
  });
});

describe('LLM homeowner with the dialogue manager alongside', () => {
  const closers: (() => Promise<void>)[] = [];
  afterEach(async () => {
    while (closers.length) await closers.pop()!();
  });

  it('ends the call on a goodbye and answers from the scripted engine when the model returns nothing', async () => {
    const fake = await startFakeChatServer(() => ({ kind: 'stream', pieces: [] }));
    closers.push(() => fake.close());
    const brain = new LlmBrain(new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'test-model' }));
    const c = brain.startConversation({ stage: 'General', seed: 1 });
    let text = '';
    for await (const p of c.reply([{ role: 'user', text: 'alright, thanks Tom, bye now' }])) text += p;
    expect(text).toMatch(/bye/i);
    expect(c.endCall).toBe('goodbye');
    expect(fake.requests[0].messages[0].content).toMatch(/Never say the same sentence twice/);
  });
});
