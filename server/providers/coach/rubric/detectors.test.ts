import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../../core/transcript';
import { analyseConversation } from './detectors';

const T0 = 1_700_000_000_000;
/** Alternating homeowner/rep lines; 'H:' and 'R:' prefixes pick the speaker. */
function convo(...lines: string[]): TranscriptEntry[] {
  return lines.map((l, i) => ({
    role: l.startsWith('R:') ? 'user' : 'assistant',
    transcript: l.slice(2).trim(),
    timestamp: T0 + (i + 1) * 5000,
  }));
}
const run = (stage: string, ...lines: string[]) =>
  analyseConversation(convo(...lines), { stage, personaName: 'Sam' });
/** What a weak recogniser hands over: lowercase, no punctuation. */
const noisy = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^\p{L}\p{N}'\s]/gu, ' ')
    .replace(/\s+/g, ' ');

describe('empathy detector', () => {
  const warm = [
    "H: Honestly I'm nervous about getting ripped off again, the last guy never finished.",
    "R: Oh, that's rough, I'd be nervous too after that. Sorry that happened to you.",
    'H: Thanks. My daughter is two so the house is chaos.',
    'R: Ha, I remember those days, lovely age. How is she with all the noise?',
  ];
  it('credits named feelings and rapport, with or without punctuation', () => {
    const neutral = run(
      'General',
      warm[0],
      'R: We install roofs and gutters.',
      warm[2],
      'R: Okay. Where is the leak?',
    );
    const clean = run('General', ...warm).empathy;
    const rough = run('General', ...warm.map((l) => l.slice(0, 2) + noisy(l.slice(2)))).empathy;
    expect(clean.score).toBeGreaterThanOrEqual(5);
    expect(clean.score - neutral.empathy.score).toBeGreaterThanOrEqual(3);
    expect(Math.abs(rough.score - clean.score)).toBeLessThanOrEqual(1);
    // A misheard "hear" still acknowledges.
    expect(
      run('General', 'H: Im worried about the cost', 'R: i here you that makes sense').empathy.score,
    ).toBeGreaterThan(
      run('General', 'H: Im worried about the cost', 'R: our windows are the best in the county').empathy
        .score,
    );
  });
  it('penalises pressure, talking over and ignoring a concern', () => {
    const cold = run(
      'General',
      "H: I'm worried about the price and my husband isn't here—",
      'R: Look, this price is only good today, and if I walk out that door it goes away. Trust me, sign tonight.',
    );
    expect(cold.empathy.score).toBeLessThan(4);
    expect(cold.empathy.gaps.join(' ')).toMatch(/pressure/);
  });
});

describe('needs-analysis detector', () => {
  it('rewards open questions on the trade needs, followed up, with budget or plans', () => {
    const a = run(
      'Windows',
      'H: Hi, come in.',
      'R: Thanks. What got you looking at new windows?',
      'H: The bedroom is drafty and the traffic noise is awful.',
      'R: How long has the draft been bothering you?',
      'H: Two winters.',
      'R: And how are the energy bills? What budget did you have in mind, and how long are you planning to stay in the house?',
      'H: Bills are up, maybe ten thousand, we are staying ten years.',
    );
    expect(a.needs.score).toBeGreaterThanOrEqual(8);
    expect(a.needAreasCovered).toEqual(expect.arrayContaining(['drafts', 'noise', 'budget', 'horizon']));
  });
  it('hears who else decides in a question about a family member, and how long it must last as plans', () => {
    const a = run(
      'General',
      "H: My son says I should just replace the deck, he's an engineer.",
      'R: How does your son feel about doing the railing at the same time?',
      'H: He wants it all done at once.',
      'R: And how long do you want the new deck to last?',
      'H: Twenty years, I suppose.',
    );
    expect(a.needAreasCovered).toEqual(expect.arrayContaining(['decision', 'horizon']));
  });
  it('gives mid or low for a string of yes/no questions', () => {
    const a = run(
      'Roofing',
      'H: Hello.',
      'R: Is the roof old?',
      'H: Yes.',
      'R: Do you have a leak?',
      'H: Yes.',
      'R: Is it in the bedroom?',
      'H: Yes.',
      'R: Do you want a new roof?',
      'H: Maybe.',
    );
    expect(a.needs.score).toBeLessThan(5);
  });
  it('recognises discovery in recogniser text (no question marks)', () => {
    const a = run(
      'HVAC',
      'H: yeah hi',
      'R: hi there so how old is the system and which rooms are never comfortable',
      'H: its about fifteen years old and upstairs is always hot',
      'R: what do the summer bills look like',
      'H: three hundred a month',
    );
    expect(a.questions.length).toBeGreaterThanOrEqual(3);
    expect(a.needAreasCovered).toEqual(expect.arrayContaining(['age', 'comfort', 'bills']));
  });
});

describe('options detector', () => {
  it('rewards several priced options tied to what was said, with a recommendation', () => {
    const a = run(
      'Flooring',
      'H: We have a toddler and a dog that scratches everything, and I love light oak.',
      "R: So from what you've told me, option one is a basic vinyl in light oak at about four thousand. Option two is a thicker wear layer that stands up to the dog, about fifty-five hundred. Option three is engineered oak at eight thousand. For the toddler and the dog I'd go with option two.",
    );
    expect(a.options.score).toBeGreaterThanOrEqual(8);
  });
  it('gives low for pushing one top package and refusing a simpler one', () => {
    const a = run(
      'Windows',
      'H: What do you have?',
      "R: Our flagship triple pane is the only one I'd put in this house. It's the best window we make.",
      'H: Do you have something less fancy?',
      "R: We do, but honestly I wouldn't feel good selling it to you.",
    );
    expect(a.options.score).toBeLessThan(5);
  });
});

describe('objection detector', () => {
  it('rewards acknowledge, clarify, respond, confirm', () => {
    const a = run(
      'Roofing',
      "H: That's a lot more than the other quote.",
      'R: I hear you, it is real money. Can I ask what the other quote included?',
      'H: Just shingles over the old ones I think.',
      'R: That is the difference. An overlay hides the rot, which is why we tear off and replace the decking, and the warranty is fifty years. Does that explain the gap?',
      'H: Yeah, it does.',
    );
    expect(a.objections.score).toBeGreaterThanOrEqual(8);
  });
  it.each([
    ['an instant discount', 'R: Okay, okay, tell you what, I can take two thousand off if you sign.'],
    ['arguing', 'R: Trust me, those cheap ones are garbage. You get what you pay for.'],
    ['folding', 'R: oh okay sorry'],
  ])('gives low for %s', (_name, reply) => {
    const a = run('General', "H: that's too expensive my neighbor paid half", reply);
    expect(a.objections.score).toBeLessThan(5);
  });
  it.each([
    ["H: hm so that's gonna cost an arm and a leg"],
    ['H: Sounds awfully pricey for a patch.'],
    ["H: well, this is going to be costly isn't it"],
  ])('hears a worry about the price said as a prediction: %s', (line) => {
    const a = run(
      'Roofing',
      line,
      'R: It is real money. Can I ask what monthly amount would feel comfortable?',
      'H: Maybe a hundred a month.',
    );
    expect(a.objections.raised).toBeGreaterThanOrEqual(1);
  });
  it('gives mid when no objection comes up', () => {
    const a = run('General', 'H: Sounds great.', 'R: Wonderful, let me show you the colours.', 'H: Lovely.');
    expect(a.objections.raised).toBe(0);
    expect(a.objections.score).toBeGreaterThanOrEqual(5);
    expect(a.objections.score).toBeLessThanOrEqual(7);
  });
});

describe('closing detector', () => {
  it('rewards a direct ask that gets a yes', () => {
    const a = run(
      'General',
      'H: I like the middle one.',
      'R: Great, would you like to go ahead and get it on the schedule?',
      "H: Yes, let's do it.",
    );
    expect(a.closing.score).toBeGreaterThanOrEqual(8);
  });
  it('gives low for a deadline close and for never asking', () => {
    expect(
      run('General', 'H: Hmm.', 'R: This price is only good today, so would you sign tonight?', 'H: No.')
        .closing.score,
    ).toBeLessThan(5);
    expect(
      run('General', 'H: So what happens now?', "R: Well, take your time and I'll give you a call sometime.")
        .closing.score,
    ).toBeLessThan(5);
  });
  it('detects the ask in recogniser text', () => {
    expect(
      run(
        'General',
        'H: i like that one',
        'R: so do you want to go ahead and get you on the schedule',
        'H: yeah lets do it',
      ).closing.score,
    ).toBeGreaterThanOrEqual(8);
  });
});

describe('follow-up detector', () => {
  it('gives high for an agreed day, time and attendees', () => {
    const a = run(
      'HVAC',
      'H: Okay.',
      'R: So the install advisor comes out Thursday the 9th at 6 pm, you and your wife and me. I will text you the quote tonight. Does that work?',
      'H: Thursday works, sounds good.',
    );
    expect(a.followUp.score).toBeGreaterThanOrEqual(8);
  });
  it('gives mid for a bare day and low for "sometime"', () => {
    const day = run('General', 'H: Okay.', "R: I'll swing by Thursday with the paperwork.", 'H: Alright.')
      .followUp.score;
    expect(day).toBeGreaterThanOrEqual(5);
    expect(day).toBeLessThan(8);
    expect(
      run('General', 'H: Okay.', "R: i'll give you a call sometime and we can go from there", 'H: ok')
        .followUp.score,
    ).toBeLessThan(5);
  });
});

describe('meanings found on calls the rules were not written against', () => {
  it('does not end discovery when the rep repeats a figure the homeowner said', () => {
    const a = run(
      'Windows',
      'H: Our electric bill hit three hundred dollars last month, it is ridiculous.',
      "R: Three hundred dollars, ouch. When you say it's ridiculous, what do you think is driving it?",
      'H: The sunroom, it bakes all afternoon and the air runs nonstop.',
      'R: How do you use the sunroom these days?',
    );
    expect(a.discoveryEnd).toBe(a.turns.length);
    expect(a.questions.filter((q) => q.form === 'open').length).toBeGreaterThanOrEqual(2);
  });

  it('reads a how-question about a person and a "tell me what..." request as open', () => {
    const a = run(
      'General',
      'H: My dad moved in with us in the spring.',
      "R: How's he finding the stairs?",
      'H: Not great, he takes them one at a time.',
      'R: Got it. Before we talk products, tell me what a hard day looks like for him.',
    );
    expect(a.questions.map((q) => q.form)).toEqual(['open', 'open']);
    expect(a.questions[1].followUp).toBe(true);
  });

  it('takes a relative who would do it cheaper as an objection and a workable-check as confirming', () => {
    const a = run(
      'Flooring',
      'R: All in, the tile job comes to nine thousand.',
      'H: Hmm. My cousin lays tile, he said he could do it for six.',
      "R: That's worth weighing. What would his six cover, would he level the subfloor?",
      'H: I guess not, he would tile over what is there.',
      'R: Then the difference is the leveling and a written warranty, which is most of the gap. Would that feel fair?',
      'H: Yeah, that makes sense.',
    );
    expect(a.objections.raised).toBe(1);
    expect(a.objections.score).toBeGreaterThanOrEqual(8);
  });

  it('gives low when the rep changes the subject after a stall', () => {
    const a = run(
      'HVAC',
      'R: The system is eleven thousand installed.',
      'H: We need to talk it over first.',
      'R: Sure, sure. Anyway, the thermostat it comes with has a really nice screen and an app, and you can set schedules from your phone from anywhere, which people love.',
    );
    expect(a.objections.score).toBeLessThanOrEqual(4);
  });

  it('reads a measurement as no price and refusing a cheaper product as a push', () => {
    const a = run(
      'Flooring',
      'R: Six hundred twenty square feet. Carpet installed is forty-one hundred.',
      'H: Do you have a cheaper carpet?',
      "R: No. That's the one we carry.",
    );
    expect(a.options.score).toBeLessThanOrEqual(4);
  });

  it('treats "sometime next week" as no day and money as no time', () => {
    expect(
      run('Roofing', 'H: We will think.', "R: I'll check in sometime next week then.").followUp.score,
    ).toBeLessThanOrEqual(4);
    const priced = run(
      'Windows',
      'R: That works out at eleven four, or about five ten a month.',
      'H: Okay.',
      "R: I'll call you Friday.",
      'H: Fine.',
    );
    expect(priced.followUp.score).toBeGreaterThanOrEqual(5);
    expect(priced.followUp.positives.join(' ')).not.toMatch(/time/);
  });
  it('asks for a reaction without a question mark, and reads "let\'s" only on what it governs', () => {
    const reaction = run(
      'Roofing',
      'R: the basic shingle is nine thousand or the heavier one is twelve thousand',
      'H: okay',
      'R: so yeah what do you think',
    );
    expect(reaction.closing.score).toBeGreaterThanOrEqual(5);
    const chat = run(
      'General',
      'H: she picked every color in this house',
      "R: then let's keep her colors here's my idea and there are two ways to do it",
      'H: okay',
    );
    expect(chat.closing.score).toBeLessThanOrEqual(4);
  });
  it('reads "special" as a price only in its price sense, and "I\'d go X" as a recommendation', () => {
    const a = run(
      'Windows',
      "H: We just got back from our daughter's wedding.",
      "R: Congratulations, that's a special day. What has been going on with the windows?",
      'H: The den is drafty and the bedroom ones stick.',
      'R: How long has the den been drafty?',
    );
    expect(a.discoveryEnd).toBe(a.turns.length);
    const rec = run(
      'General',
      'H: The kids rooms on the back are cold.',
      'R: Two choices. Plain vinyl is ten thousand. Insulated vinyl is thirteen thousand.',
      "R: Since the back rooms run cold, I'd go insulated.",
    );
    expect(rec.options.positives).toContain('made a clear recommendation');
  });

  it('takes "a chunk of change" as a price objection and the homeowner at home as who attends', () => {
    const a = run(
      'HVAC',
      'R: The new system is nine thousand.',
      'H: Boy, that is a chunk of change.',
      'R: Trust me, you will not find better, it is cheap for what you get.',
    );
    expect(a.objections.raised).toBe(1);
    expect(a.objections.score).toBeLessThanOrEqual(4);
    const visit = run(
      'Roofing',
      'R: Would you like to get on the schedule?',
      'H: Yes.',
      'R: Does Monday the third at nine in the morning work, with you home to let the crew in?',
      'H: Monday the third at nine, I will be here.',
    );
    expect(visit.followUp.score).toBeGreaterThanOrEqual(8);
  });
});

describe('meanings found on round C calls (tested in other words)', () => {
  const grief = [
    "H: My mom has been in the hospital since March, so I'm back and forth every day.",
    "H: And honestly I'm worried the ceiling in her old room is going to come down.",
  ];
  it('does not credit sympathetic words that never take up what the homeowner said', () => {
    const hollow = run(
      'Roofing',
      grief[0],
      'R: I hear you, I totally understand. Roofs can be such a headache. How many squares is the house?',
      grief[1],
      'R: I completely get it, I know exactly how you feel. So we would do the whole roof in architectural shingles.',
      'H: Can we just fix the part over her room?',
      'R: I understand, but the whole roof is the right way to do it.',
    );
    const listening = run(
      'Roofing',
      grief[0],
      'R: Every day at the hospital, that is a lot to carry. How is your mom doing?',
      grief[1],
      "R: Then her room comes first. Let me look at that ceiling before anything else, and I'll keep this quick for you.",
    );
    expect(hollow.empathy.score).toBeLessThanOrEqual(4);
    expect(hollow.empathy.gaps.join(' ')).toMatch(/sympathetic words/);
    expect(listening.empathy.score).toBeGreaterThanOrEqual(7);
    // A brief "fair enough" before the next question claims nothing, so it is not hollow.
    const brief = run(
      'Windows',
      "H: Honestly I'm worried about getting ripped off.",
      'R: Fair enough. How long are you planning to stay in the house?',
    );
    expect(brief.empathy.gaps.join(' ')).not.toMatch(/sympathetic words/);
  });

  it('credits asking after their safety, reassuring their embarrassment and warmth about a pet', () => {
    const a = run(
      'General',
      'H: Sorry, the place is a disaster. The back steps are rotten, my husband slipped on them last week.',
      "R: Oh no, is he okay? And please, it's not embarrassing at all.",
      'H: He is fine, just a bruise. That is Rufus barking, ignore him.',
      "R: He's adorable. So what would you like the new steps to look like?",
    );
    expect(a.empathy.positives.join(' ')).toMatch(/feeling/);
    expect(a.empathy.positives.join(' ')).toMatch(/concern made sense/);
    expect(a.empathy.positives.join(' ')).toMatch(/rapport/);
  });

  it('recognises push-back put as a dislike of loans, a doubt, a rival offer or an absent decider', () => {
    const raised = (...lines: string[]) =>
      run('General', 'R: The whole job is sixteen thousand.', ...lines).objections;
    expect(raised("H: We don't want any loans, we just got out of credit card debt.").raised).toBe(1);
    expect(raised('H: Will that really hold up to the snow we get up here?').raised).toBe(1);
    expect(
      raised("H: The company that did my brother's deck said they'd throw in the railings for free.").kinds,
    ).toEqual(['competitor']);
    expect(raised("H: I won't sign anything without Priya, she handles the finances.").kinds).toEqual([
      'stall',
    ]);
    expect(
      run('General', 'R: the whole job is sixteen thousand', 'H: i gotta talk too my husband about it')
        .objections.kinds,
    ).toEqual(['stall']);
  });

  it('follows a rep who asks several questions before answering an objection, and credits an accepted offer', () => {
    const asking = run(
      'Roofing',
      'R: The full tear-off comes to twenty-one thousand.',
      'H: Wow. That is more than we expected.',
      'R: I appreciate you telling me. What number were you working with?',
      'H: Maybe fifteen.',
      'R: Was fifteen from another bid, or a figure you set for yourselves?',
      'H: Just what we set aside.',
      'R: And is it the whole amount at once that worries you, or the total over time?',
      'H: The whole amount at once.',
      'R: Then we can stage it: half when the crew starts and half on completion, so the first half fits inside fifteen. Would that take care of the worry?',
      'H: Yes, it would.',
    );
    expect(asking.objections.score).toBeGreaterThanOrEqual(8);
    const offer = run(
      'Windows',
      'R: The package is nine thousand two hundred.',
      "H: I'm just not sure I trust the install, how do I know it won't leak?",
      'R: Fair question. Would it help to see a job we finished two streets over before you decide?',
      'H: Yes, that would help.',
    );
    expect(offer.objections.positives).toEqual(
      expect.arrayContaining(['answered with reasons', 'checked it landed']),
    );
  });

  it("reads denying the homeowner's own framing as arguing", () => {
    const a = run(
      'HVAC',
      'R: It is one eighty-nine a month.',
      'H: I really do not want monthly payments.',
      'R: I get it, but it is not really a loan, it is an investment in the house.',
    );
    expect(a.objections.raised).toBe(1);
    expect(a.objections.score).toBeLessThanOrEqual(4);
    expect(a.objections.gaps.join(' ')).toMatch(/argued/);
  });

  it('asks for paperwork with a longer object, but not when asking whether they have a document', () => {
    const start = run(
      'General',
      'R: Great, let us get the financing application going. Could I have your date of birth?',
      'H: Sure, it is the fourth of May.',
    );
    expect(start.closing.score).toBeGreaterThanOrEqual(8);
    const have = run('Roofing', 'R: Do you have the paperwork from the adjuster?', 'H: Yes, right here.');
    expect(have.closing.score).toBeLessThanOrEqual(4);
    expect(
      run(
        'Windows',
        'R: so the middle window is six hundred each',
        'H: okay',
        `R: ${noisy('How does that look to you?')}`,
      ).closing.score,
    ).toBeGreaterThanOrEqual(5);
  });

  it('does not read "before I go up" as a deadline', () => {
    const a = run(
      'Roofing',
      'R: Before I go up on the roof, what have you noticed inside?',
      'H: A stain in the hall.',
      'R: Would you like to get on the schedule for the repair?',
      'H: Yes.',
    );
    expect(a.closing.score).toBeGreaterThanOrEqual(8);
    expect(a.empathy.gaps.join(' ')).not.toMatch(/pressure/);
    expect(
      run('Roofing', 'R: This price is only good tonight, before I go.', 'H: Hm.').closing.score,
    ).toBeLessThanOrEqual(3);
  });

  it("does not end discovery on a figure read back from the homeowner's paperwork", () => {
    const read = run(
      'Roofing',
      'H: The adjuster signed off on six thousand for the back slope.',
      'R: Six thousand five hundred, back slope only, I see it here. What would you want done on the front?',
    );
    expect(read.discoveryEnd).toBe(read.turns.length);
    const offered = run(
      'Roofing',
      'H: We were hoping for about ten thousand.',
      'R: We can do the whole job for ten thousand five hundred.',
    );
    expect(offered.discoveryEnd).toBe(1);
  });

  it('takes no refused or put-off day as the next step, and a link sent tonight as a one-sided step', () => {
    expect(
      run('General', "R: I'll put you down for Tuesday at nine.", 'H: I never agreed to Tuesday.').followUp
        .score,
    ).toBeLessThanOrEqual(4);
    expect(
      run('Windows', 'R: Can I come back Friday at ten?', 'H: I need to check with my partner first.')
        .followUp.score,
    ).toBeLessThanOrEqual(4);
    const link = run(
      'Flooring',
      'R: Those are the three floors and what each costs.',
      'H: Let me think about it.',
      "R: Sure. I'll email you a link to the full proposal tonight.",
      'H: Fine.',
    ).followUp;
    expect(link.score).toBeGreaterThanOrEqual(5);
    expect(link.score).toBeLessThanOrEqual(7);
  });

  it('reads a recommendation with an adverb in it, and a reason given from their situation as tied', () => {
    const a = run(
      'Roofing',
      'H: We bought it four years ago and the roof was brand new then.',
      'R: Two ways: patch the flashing for five hundred, or redo the section for four thousand.',
      "R: With a roof that new, I'd probably go with the patch.",
    );
    expect(a.options.positives).toContain('made a clear recommendation');
    expect(a.options.score).toBeGreaterThanOrEqual(7);
  });
});

describe('meanings found on round E calls (tested in other words)', () => {
  it('hears a payment the homeowner cannot carry as push-back, and a fit-check as confirming', () => {
    const lines = [
      "H: I like it, but I can't take on another monthly payment, not with the car loan.",
      "R: That's completely fair. Can I ask, is it the size of the monthly amount, or having a loan at all?",
      "H: The size. Anything over ninety a month and we're stretched.",
      'R: Okay. Then there are two ways to pay. Zero percent over twelve months, or spread over seven years at about seventy-five a month, and you can pay it off early with no penalty.',
      'R: Would that fit within what you said you can manage?',
      'H: Yes, seventy-five I can manage.',
    ];
    const clean = run('General', ...lines).objections;
    expect(clean.raised).toBe(1);
    expect(clean.positives).toContain('checked it landed');
    expect(clean.score).toBeGreaterThanOrEqual(8);
    const rough = run('General', ...lines.map((l) => l.slice(0, 2) + noisy(l.slice(2)))).objections;
    expect(rough.score).toBeGreaterThanOrEqual(8);
  });

  it('does not read a conditional concession ("if it were junk, but it is not") as arguing', () => {
    const a = run(
      'Windows',
      "H: Hmm. My brother says vinyl frames are a waste of money and I'd be better off with another company's wood ones.",
      'R: Good question to raise. What did he see go wrong with vinyl?',
      'H: He says they warp.',
      "R: He'd be right if the frames were junk, but these aren't: they are welded and reinforced, which is why they carry a lifetime warranty against warping. Does that sit right with you?",
      'H: Yeah, that helps.',
    ).objections;
    expect(a.gaps).not.toContain('argued with the homeowner instead of exploring the concern');
    expect(a.score).toBeGreaterThanOrEqual(8);
  });

  it('hears a lower figure named right after a quote as push-back, and an instant markdown as low', () => {
    const a = run(
      'Roofing',
      'R: For the full tear-off with the new underlayment it comes to fourteen thousand two hundred.',
      'H: Oh. We were figuring more like six, honestly.',
      "R: Tell you what, I'll knock three thousand off right now if we do it today.",
      'H: I still need to think.',
    ).objections;
    expect(a.raised).toBeGreaterThanOrEqual(1);
    expect(a.score).toBeLessThan(5);
    // A figure named in discovery, before any price, is a budget, not push-back.
    const budget = run(
      'Roofing',
      'R: Have you two talked about a number you want to stay around?',
      'H: We were thinking about eight thousand.',
      'R: That helps. Let me go take a look.',
    ).objections;
    expect(budget.raised).toBe(0);
  });

  it.each([
    ["R: I can't hold this number past today, so shall we get the paperwork started?"],
    ['R: Tomorrow the price goes back up to eleven, so would you like to sign now?'],
    [
      'R: My manager will do it for nine, but only if you put the deposit down tonight. Shall we write it up?',
    ],
  ])('gives a low close when it leans on a made-up deadline: %s', (line) => {
    const a = run('General', 'H: It does look nice.', line, "H: I don't know.");
    expect(a.closing.score).toBeLessThan(5);
  });

  it.each([
    ["R: I'll follow up with you later this week and we'll see where you are."],
    ["R: Okay, I'll check in with you again early next week."],
    ["R: Great, I'll swing back by in April."],
  ])('gives a low follow-up for a span of days with no agreed day: %s', (line) => {
    const a = run('General', 'H: We need some time.', line, 'H: Okay, sounds good.');
    expect(a.followUp.score).toBeLessThan(5);
  });

  it.each([
    ['R: So would this be something the two of you might want to do?'],
    ['r: so uh would the middle one be something you folks might be interested in or'],
    ['R: Any chance you might want to go ahead with it?'],
  ])('reads a hedged invitation to decide as a soft ask: %s', (line) => {
    const a = run(
      'HVAC',
      'H: Okay, the middle one looks good.',
      line.replace(/^r:/, 'R:'),
      'H: I need to ask my wife.',
    );
    expect(a.closing.score).toBeGreaterThanOrEqual(5);
    expect(a.closing.score).toBeLessThanOrEqual(7);
  });
});

describe('discovery asked as a request, a number and a reason for now', () => {
  it('"could you walk me through..." is an open question', () => {
    const a = run(
      'Windows',
      'R: Could you talk me through what a winter evening in the front room is like?',
      'H: Cold. We sit in blankets and the glass fogs up by eight.',
    );
    expect(a.questions[0].form).toBe('open');
  });

  it.each([
    ["R: Did you two land on a figure you'd be comfortable with?"],
    ['R: Is there a number you were hoping to stay under?'],
  ])('a number they would stay around is the budget: %s', (line) => {
    const a = run('HVAC', line, 'H: Maybe eight, tops.');
    expect(a.needAreasCovered).toContain('budget');
  });

  it('asking whether something is part of why they are looking now is asking why now', () => {
    const a = run(
      'Roofing',
      "R: Is the new baby part of the reason you're looking at this now?",
      'H: Honestly, yes.',
    );
    expect(a.needAreasCovered).toContain('motivation');
  });
});

describe('round F classes: value push-back, absence fallbacks, permission asks, stacked and pre-empted worries', () => {
  const low = (l: string) => l.slice(0, 2) + noisy(l.slice(2));

  it.each([
    ["H: Honestly we'd rather not sink eleven grand into a kitchen we're leaving next spring."],
    ["H: I don't really want to throw that kind of money at windows in a rental."],
    ["H: With the move coming up, it's just not worth it for us."],
  ])(
    'reluctance to spend on a house they will leave is a price objection, and arguing it is low: %s',
    (line) => {
      const a = run(
        'General',
        'R: The full job comes to eleven thousand.',
        line,
        "R: No, that's not true, you get every penny back when you sell, trust me.",
        'H: I read it was more like half.',
        "R: That's national numbers, around here it's way higher.",
      );
      expect(a.objections.kinds).toContain('price');
      expect(a.objections.score).toBeLessThanOrEqual(4);
    },
  );

  it.each([
    ["R: I'll drop by Friday with the paperwork, and if nobody's home I'll leave it on the porch."],
    ["R: I'll come by Tuesday with the contract, and if I miss you I'll slide it under the door."],
  ])('a fallback for the homeowner being out is no ask: %s', (line) => {
    for (const l of [line, low(line)]) {
      const a = run('Roofing', 'H: I have to talk to my husband.', l, 'H: Okay.');
      expect(a.closing.score).toBeLessThanOrEqual(4);
    }
  });

  it.each([
    ["R: I'll email you both prices, nobody will call you. Would that be alright?"],
    ["R: What I'd suggest is I send you the write-up with photos. Is that okay with you?"],
  ])('asking permission for the step the rep laid out is a soft ask: %s', (line) => {
    for (const l of [line, low(line)]) {
      const a = run('HVAC', "H: I'm not buying anything today.", l, 'H: Fine.');
      expect(a.closing.score).toBeGreaterThanOrEqual(5);
      expect(a.closing.score).toBeLessThanOrEqual(7);
    }
  });

  it.each([
    ['R: You’ll get the whole report by email this evening.'],
    ["R: I'll text it over to you once I'm back at the office."],
  ])('a written quote promised, with no meeting, is a mid follow-up: %s', (line) => {
    const a = run(
      'HVAC',
      'H: Just send me something.',
      'R: Sure.',
      'H: Okay.',
      'R: Let me finish up here.',
      'H: Fine.',
      line,
      'H: Okay.',
    );
    expect(a.followUp.score).toBeGreaterThanOrEqual(5);
    expect(a.followUp.score).toBeLessThanOrEqual(7);
  });

  it.each([
    ['R: With the rebate that comes to forty-two hundred. Would that feel more doable?'],
    ['R: So that knocks it down to nine thousand. Is that any better for you?'],
  ])('checking whether a revised offer fits is a trial close: %s', (line) => {
    for (const l of [line, low(line)]) {
      const a = run('Windows', "H: That's a lot of money.", l, 'H: Maybe.');
      expect(a.closing.score).toBeGreaterThanOrEqual(5);
      expect(a.closing.score).toBeLessThanOrEqual(7);
    }
  });

  it('the homeowner naming the day and time back agrees to it, without punctuation too', () => {
    const a = run(
      'HVAC',
      'H: He is home Tuesdays.',
      low('R: Tuesday the ninth at four then, you and your husband and me, about an hour.'),
      low('H: Tuesday at four, yeah, I am writing it down.'),
    );
    expect(a.closing.score).toBeGreaterThanOrEqual(8);
  });

  it('objections raised back to back share the handling', () => {
    const a = run(
      'HVAC',
      "H: I've had two other companies out already and both tried to upsell me.",
      "R: Two visits already, that's exhausting. I'm sorry.",
      "H: And I'm not signing anything today.",
      'R: Totally fair, nothing to sign. Can I ask what the other companies told you was wrong?',
      'H: One said the compressor, the other said the coil.',
      "R: Then I'll check both and write up what I find with photos, because you deserve a straight answer, and you can read it on your own time. Would that be fair?",
      'H: Fine.',
    );
    expect(a.objections.score).toBeGreaterThanOrEqual(8);
  });

  it.each([
    [
      'R: Before you decide, one thing that surprises a lot of homeowners is how loud the tear-off is. Would the noise be a problem with the baby napping?',
    ],
    [
      "R: People don't expect how much dust a sander throws. How would that work with you cooking in here every day?",
    ],
  ])('raising the usual worry yourself, asking, answering and checking is high: %s', (line) => {
    const a = run(
      'Roofing',
      'H: That sounds good.',
      line,
      'H: Oh, I had not thought about that. It would be a problem midday.',
      "R: Then we'd start at seven and be done with the loud part by eleven, and we tape plastic over every doorway so nothing drifts. Does that cover it?",
      'H: Yes, that helps a lot.',
    );
    expect(a.objections.preEmpted).toBe(1);
    expect(a.objections.score).toBeGreaterThanOrEqual(8);
  });

  it('a recommended option and a priced fallback tied to what was said are high', () => {
    const a = run(
      'Roofing',
      'R: How long are you planning to stay?',
      "H: For good, we're not going anywhere. The drip over the nursery is what worries me.",
      "R: Then here's what I'd do. A full tear-off with new flashing, since you told me you're staying for good, and it ends the nursery drip, at twelve thousand.",
      'R: The cheaper route would be re-flashing the chimney for nine hundred, but it only buys you a couple of years.',
      'H: Okay.',
    );
    expect(a.options.score).toBeGreaterThanOrEqual(8);
  });

  it('a second option named without its price stays mid', () => {
    const a = run(
      'Flooring',
      'H: I just want something I can mop.',
      "R: I'd go with the laminate, it's waterproof and you can mop it, at four thousand eight hundred. We also carry a solid oak, but it runs more.",
      'H: Okay.',
    );
    expect(a.options.score).toBeGreaterThanOrEqual(5);
    expect(a.options.score).toBeLessThanOrEqual(7);
  });

  it('two questions with nothing built on the answers is low needs analysis', () => {
    const a = run(
      'Roofing',
      'H: There is a stain on the ceiling.',
      "R: What's going on up there?",
      'H: It dripped after the storm and my son has asthma so I worry about mold.',
      'R: How old is the roof?',
      'H: Older than fifteen years.',
      'R: Okay, a full tear-off is fourteen thousand, or a patch for eight hundred.',
    );
    expect(a.needs.score).toBeLessThanOrEqual(4);
  });

  it('a question split across recogniser fragments is read whole', () => {
    const a = run(
      'General',
      'H: The kitchen is just tired.',
      'R: okay so if money were no object what would',
      'R: you want the new kitchen to do for you',
      'H: More counter space and light.',
    );
    expect(a.questions.some((q) => /what would you want/.test(q.text))).toBe(true);
  });

  it('a clarifying question that mentions a day in passing still clarifies, across fragments', () => {
    const a = run(
      'General',
      "H: I really can't decide without my husband.",
      'R: of course that makes sense can i',
      'R: ask what he is going to want to know first when you talk to him tomorrow',
      'H: The price and how long we would be without a kitchen.',
      'R: it is nine days start to finish and we set up a temporary sink so you are never without water does that cover it',
      'H: Yeah.',
    );
    expect(a.objections.positives).toContain('clarified');
  });

  it.each([
    ["R: You're not being picky at all, it's your home."],
    ['R: Does your mom get around okay on the stairs?'],
    ['R: I had a beagle that used to do the exact same thing.'],
  ])('empathy reads validation, care and shared experience in other words: %s', (line) => {
    const a = run(
      'Flooring',
      "H: I know it's picky but the carpet drives me crazy, my mom trips on it.",
      line,
    );
    expect(a.empathy.evidence.some((e) => e.turn === 1 && e.label !== 'acknowledged the homeowner')).toBe(
      true,
    );
  });

  it('cutting the homeowner off with only small talk for warmth is low empathy', () => {
    const a = run(
      'Windows',
      'H: Come in, mind the dog.',
      'R: Beautiful home, Sam!',
      'H: Thanks, we like it.',
      'R: And what a great dog. Take your time, no rush.',
      'H: Thanks. So the ones upstairs are—',
      "R: And our company has been around forty years, we've done thirty thousand homes.",
      'H: Okay.',
    );
    expect(a.empathy.score).toBeLessThanOrEqual(4);
  });
});

describe('round G classes, in other words', () => {
  it.each([
    ["R: How's April getting on after the surgery?"],
    ['R: Is May still upstairs, or has she moved down?'],
    ['R: Does August usually handle the bills?'],
  ])('a month that is a name is not a date, so the question asks for nothing: %s', (line) => {
    const a = run('General', 'H: My wife had her operation last month.', line, 'H: She is doing better.');
    expect(a.closing.score).toBeLessThanOrEqual(4);
  });

  it('a month in a date frame still makes a firm ask', () => {
    const a = run(
      'General',
      'H: When could you start?',
      'R: Could we book you in for June the ninth?',
      'H: Yes.',
    );
    expect(a.closing.score).toBeGreaterThanOrEqual(8);
  });

  it.each([
    ['H: Fine, but I want to run it by my brother first, he knows contractors.'],
    ["H: I'd want my accountant to go over the numbers first."],
    ["H: I won't commit to anything without checking with my daughter."],
  ])('wanting someone else to review it is a stall objection: %s', (objection) => {
    const a = run(
      'Roofing',
      'R: The full replacement is twelve thousand four hundred, the repair is two thousand.',
      objection,
      "R: There's nothing for anyone to check. Every week you wait the damage gets worse.",
      'H: I still want to.',
    );
    expect(a.objections.raised).toBeGreaterThan(0);
    expect(a.objections.score).toBeLessThanOrEqual(4);
  });

  it.each([
    ['R: Which package are you leaning toward?'],
    ["R: Is the mid-range system the one you'd be leaning toward?"],
    ['R: Are you leaning toward the fiberglass?'],
  ])('asking which option they lean toward is a trial close, not nothing: %s', (line) => {
    const a = run(
      'Windows',
      'R: Vinyl is nine thousand, fiberglass is thirteen thousand.',
      'H: Okay.',
      line,
      'H: Maybe. I need to think.',
    );
    expect(a.closing.score).toBeGreaterThanOrEqual(5);
    expect(a.closing.score).toBeLessThanOrEqual(7);
  });

  it.each([
    ['R: I could come back Friday and we will just take it from there.'],
    ['R: I can stop by on Monday and see where things land.'],
    ['R: We could come back out Wednesday and sort of play it by ear.'],
  ])('a bare day left open-ended is a soft ask, not a firm one: %s', (line) => {
    const a = run('Roofing', 'H: So what now?', line, 'H: Okay I guess.');
    expect(a.closing.score).toBeLessThanOrEqual(7);
  });

  it.each([
    ['H: I already told you that.'],
    ['H: Like I said, all of them.'],
    ['H: You asked me that already.'],
  ])('a homeowner who has to repeat herself caps empathy below high: %s', (rebuke) => {
    const a = run(
      'Windows',
      'H: All eight windows are drafty, and the kids are cold at night.',
      "R: That sounds miserable, I'm sorry. Nice to meet you, thanks for having me. Which windows are drafty?",
      rebuke,
      "R: Right, sorry, that's completely fair. I'll keep this short so you can get to the kids.",
      'H: Okay.',
    );
    expect(a.empathy.score).toBeLessThanOrEqual(7);
  });
});

describe('round-H classes: parting wishes, hedged sends, unmet hardship, shared good news', () => {
  const lead = [
    'H: Hi, come in.',
    'R: Thanks. So what made you call us?',
    'H: The old unit is loud and the bills are high.',
    'R: Got it. Here is what we would do: a new high-efficiency unit for about nine thousand.',
    'H: Okay, I need to think about it.',
  ];

  it.each([
    ['R: Have a great Saturday with the kids, and I will be in touch at some point.'],
    ['R: Best of luck at the recital on Friday! I will reach out sometime.'],
    ['R: Enjoy the rest of your Sunday, we can circle back whenever.'],
  ])('a day in a parting wish is not a day for the next step: %s', (line) => {
    const a = run('HVAC', ...lead, 'R: No problem at all.', 'H: Thanks.', line, 'H: Okay, bye.');
    expect(a.followUp.score).toBeLessThanOrEqual(4);
  });

  it.each([
    ['R: I will send the estimate over and ring you sometime in the next few days.'],
    ['R: I will text you the pricing and we can touch base at some point next week.'],
    ['R: I will mail you the proposal, and give you a buzz in a week or so.'],
  ])('an undated send hedged by a "sometime" call is not a next step: %s', (line) => {
    const a = run('HVAC', ...lead, 'R: Sure.', 'H: Thanks.', line, 'H: Fine.');
    expect(a.followUp.score).toBeLessThanOrEqual(4);
  });

  it('a send promise that says when it arrives is still a one-sided step', () => {
    const a = run(
      'HVAC',
      ...lead,
      'R: Sure.',
      'H: Thanks.',
      'R: I will email you the quote tonight.',
      'H: Fine.',
    );
    expect(a.followUp.score).toBe(5);
  });

  it.each([
    ['H: My mother has been in tears most nights because her room is so hot.'],
    ["H: The baby's room is unbearable, he wakes up drenched every afternoon."],
    ['H: Honestly the kids have been miserable all summer with the heat upstairs.'],
  ])('a hardship answered with a filler and a new topic is moved past: %s', (share) => {
    const a = run(
      'HVAC',
      'R: How is the upstairs in summer?',
      share,
      'R: Yeah for sure. And how old is the unit?',
    );
    expect(a.empathy.missteps.some((m) => m.label === 'moved past what the homeowner shared')).toBe(true);
  });

  it.each([
    [
      'R: How did the recital go?',
      'H: She got a standing ovation, she was thrilled.',
      'R: Wow, good for her!',
    ],
    [
      "R: How'd the big game go?",
      'H: We won, and my son scored the winner.',
      'R: Congratulations! You must be so proud. Anyway, the windows.',
    ],
    [
      'R: So what brings you to redo the nursery?',
      'H: We just found out we are having twins.',
      "R: That's wonderful news! How are you feeling about twins?",
    ],
  ])('joy met about news the rep drew out is a feeling met: %s', (ask, news, reply) => {
    const a = run('Windows', ask, news, reply, 'H: Thanks.');
    expect(a.empathy.evidence.some((e) => e.label === "shared the homeowner's good news")).toBe(true);
  });

  it.each([
    ['H: We moved in last month, still unpacking.', 'R: Congrats on the house! How many windows are there?'],
    ['H: We just got married in June.', 'R: Congratulations. Are these the original windows?'],
  ])('a stock congratulation before business is politeness, not a feeling met: %s', (news, reply) => {
    const a = run('Windows', news, reply, 'H: Yes.');
    expect(a.empathy.evidence.some((e) => e.label === "shared the homeowner's good news")).toBe(false);
  });

  it.each([
    ['H: My dad always said get at least two estimates before you sign anything.'],
    ["H: I think I'd like to shop around a bit first."],
    ['H: We usually compare bids on anything this size.'],
  ])('wanting other quotes is an objection to handle: %s', (line) => {
    const a = run(
      'Roofing',
      'R: The full replacement is fourteen thousand.',
      line,
      'R: Makes sense.',
      'H: Okay.',
    );
    expect(a.objections.raised).toBeGreaterThanOrEqual(1);
  });

  it.each([
    [
      "R: I hear you. But the cheaper crews skip the underlayment, which means a redo in two years, so you'd be flushing good money down the drain.",
    ],
    [
      "R: I understand. Our price includes the permit, the warranty and a licensed crew, because that is what lasts. You want your family safe and warm, don't you?",
    ],
    [
      "R: Fair. The difference is the warranty and the insured crew, which means no surprises later, and honestly you're gonna regret it if you cut corners.",
    ],
    [
      "R: Look, that's what they all say. Ours includes the warranty and the permit, which means nothing comes back on you in five years.",
    ],
    [
      'R: Yeah, I hear that all the time. The cheap crews skip the permit, which means the warranty is void, and we include both.',
    ],
  ])('meeting a price worry with guilt, waste or a brush-off is low: %s', (reply) => {
    const a = run('General', 'H: Honestly that is way more than we wanted to spend.', reply, 'H: Hm.');
    expect(a.objections.score).toBeLessThan(5);
  });

  it.each([
    ['R: A new roof runs about eleven to thirteen thousand, and a patch is closer to one or two.'],
    [
      'R: Replacing the whole unit is around nine to ten thousand, while a coil swap is more like three to four.',
    ],
    ['R: Hardwood comes to about eight thousand. Laminate is probably five to six.'],
  ])('a second range in shorthand after a priced one is a second priced option: %s', (line) => {
    const a = run('Roofing', 'H: What would it cost?', line, 'H: Okay.');
    expect(a.options.gaps).not.toContain('offered a single package instead of a choice');
  });

  it.each([
    ["H: We're retired on a fixed income, so it has to be sensible."],
    ['H: We have some money set aside for the house, but not a lot.'],
    ["H: We're not going anywhere, this is where the grandkids come every summer."],
  ])('an answer that reveals money or plans in other words counts as depth: %s', (answer) => {
    const a = run(
      'Roofing',
      'R: What matters most to you with the house over the next few years?',
      answer,
      'R: That helps. And what has the leak been doing lately?',
      'H: It gets worse every time it rains hard.',
    );
    expect(a.needs.gaps).not.toContain('never explored budget, timing, plans or who else decides');
  });

  it.each([
    ['R: So, does the fiberglass line sound like the right choice for you?'],
    ['R: Would the mid-range system feel like a good fit?'],
    ['R: Does the laminate look like your pick?'],
  ])('asking whether an option feels like the one is a trial close, not nothing: %s', (line) => {
    const a = run(
      'Windows',
      'R: Vinyl is nine thousand, fiberglass is thirteen thousand.',
      'H: Okay.',
      line,
      'H: Yeah, I think so.',
    );
    expect(a.closing.score).toBeGreaterThanOrEqual(5);
    expect(a.closing.score).toBeLessThanOrEqual(7);
  });
});

describe('round I classes: refused quotes, repeat-ordeal worries, budget dismissal, stalled asks', () => {
  const quote =
    'R: The full system with the new ductwork comes to about nine thousand four hundred installed.';
  it.each([
    ['H: Nine-four. Nope. We were never going to spend that.'],
    ['H: Whoa. No way.'],
    ['H: ' + noisy('nine four no we were never going to spend that on a furnace')],
    ["H: We can't do that."],
  ])('a flat refusal straight after a quoted price is a price objection: %s', (refusal) => {
    const a = run('HVAC', 'H: So what would it cost?', quote, refusal, 'R: Okay, fair enough. Thanks.');
    expect(a.objections.raised).toBeGreaterThanOrEqual(1);
    expect(a.objections.kinds).toContain('price');
  });

  it('a "no" that answers the rep\'s own question is not a price objection', () => {
    const a = run(
      'HVAC',
      'R: The full system comes to about nine thousand four hundred. Any questions about what is in it?',
      'H: No.',
      'R: Great.',
    );
    expect(a.objections.kinds).not.toContain('price');
  });

  it.each([
    ["H: Honestly the part I keep thinking about is the dust. We can't live through that again."],
    ["H: Our bathroom took three months. I just couldn't go through all that again."],
    ["H: I don't want to relive the last remodel again, with strangers in the house."],
  ])('a worry about going through a past ordeal again is an objection: %s', (worry) => {
    const a = run(
      'General',
      'R: The addition would be about forty-two thousand.',
      worry,
      'R: That makes sense. What made the last one so hard, the length or the people in the house?',
      'H: Mostly that nobody ever told us what was going on.',
      'R: We give you a written schedule before we start, the site lead calls you twice a week, and the crew works from the outside, so nobody comes through the house. Would all that make it manageable for you?',
      'H: Yes, that would help a lot.',
    );
    expect(a.objections.raised).toBeGreaterThanOrEqual(1);
    expect(a.objections.score).toBeGreaterThanOrEqual(8);
  });

  it.each([
    ["R: Well, that's simply what roofs cost these days. Anybody charging you eight is cutting corners."],
    ["R: Honestly, nobody can get you a bathroom for that kind of money. That's just the going rate."],
    ["R: Look, you won't find a furnace for eight thousand. It's just what they run now."],
  ])('waving the budget away as unrealistic is arguing: %s', (reply) => {
    const a = run(
      'Roofing',
      'R: The replacement is about fourteen thousand.',
      'H: That is way more than we thought, we were thinking eight.',
      reply,
      'H: Okay.',
    );
    expect(a.objections.gaps).toContain('argued with the homeowner instead of exploring the concern');
    expect(a.objections.score).toBeLessThanOrEqual(4);
  });

  it.each([
    ['H: Hmm, I have to run it by my husband first.'],
    ['H: Maybe. I want to talk it over with Jordan, he has opinions.'],
    ['H: ' + noisy("i'd need to check with my sister first she's helping pay")],
  ])('a stall naming someone to consult, let stand, keeps a direct ask mid: %s', (stall) => {
    const a = run(
      'Windows',
      'R: So, shall we get you on the schedule for the install?',
      stall,
      "R: Sure, no problem. I'll leave the brochure.",
      'H: Thanks.',
    );
    expect(a.closing.score).toBeLessThanOrEqual(7);
    expect(a.closing.gaps).toContain("took the first 'no' without finding out what was holding them back");
  });

  it.each([
    ['R: Do you run the air much in August, or mostly just July?'],
    ['R: Would the kids really use the room in December?'],
  ])('a question about when the homeowner uses the thing is not an ask: %s', (q) => {
    const a = run('HVAC', q, 'H: Mostly in the heat waves.', 'R: Got it.', 'H: Okay.');
    expect(a.closing.score).toBeLessThan(5);
  });

  it.each([['H: I guess so.'], ['H: Fine, I suppose.'], ['H: Okay, I guess.']])(
    "a grudging yes to the rep's errand after an unexplored 'no' does not win the close back: %s",
    (grudging) => {
      const a = run(
        'Flooring',
        'R: Would you like to go ahead with the oak today?',
        "H: Not today, I'd have to think it over.",
        "R: Sure. I'll come by Thursday with more samples, alright?",
        grudging,
      );
      expect(a.closing.score).toBeLessThanOrEqual(7);
    },
  );

  it.each([
    ['R: Sure. The site lead calls you each Monday with the plan for next week.'],
    ['R: Sure. We send you photos every Wednesday so you always know what happens next week.'],
    ['R: Sure. You get a weekly update on Fridays about next week.'],
  ])('a routine of the job running names no next step: %s', (routine) => {
    const a = run(
      'General',
      'R: What would you use the sunroom for?',
      'H: Reading, mostly, and the kids.',
      'R: The sunroom would be about thirty thousand.',
      'H: Okay. I just want to know what is going on while it is built.',
      routine,
      'H: Okay, good.',
      "R: Great. I'll be in touch sometime down the road.",
      'H: Okay.',
    );
    expect(a.followUp.score).toBeLessThanOrEqual(4);
  });

  it.each([
    ['R: When do you need the new floor finished by?'],
    ["R: Is there a date you're working toward?"],
    ['R: What is the soonest it could go in, given the move?'],
  ])('asking about a deadline explores timing: %s', (q) => {
    const a = run(
      'Flooring',
      'R: What made you start looking at new floors?',
      'H: The carpet is worn through and my mother is moving in with us.',
      q,
      'H: Before the end of May, she arrives in June.',
      'R: Okay. How will she use the room day to day?',
      'H: It will be her bedroom, so it has to be easy with a walker.',
    );
    expect(a.needs.gaps).not.toContain('never explored budget, timing, plans or who else decides');
  });

  it.each([
    ["R: Oh, that wears you down, checking it every hour. Let's get that sorted."],
    ["R: Hm, that gets old real fast, I'm sorry. Let's get that sorted."],
    ["R: That's no way to live, up every hour. Let's get that sorted."],
  ])('naming the toll of an ordeal in an idiom names the feeling: %s', (line) => {
    const a = run(
      'HVAC',
      'H: The sump pump kicks on all night and I get up every hour to check it.',
      line,
      'H: Thank you.',
    );
    expect(a.empathy.gaps).not.toContain('never put into words how the homeowner felt');
  });

  it.each([
    ['H: Fourteen? I already told you we have ten.'],
    ['H: No, like I said, ten is the most we can do.'],
  ])('"I said" against a pitch that overshot is push-back, not being made to repeat: %s', (line) => {
    const a = run(
      'Windows',
      'R: What budget did you have in mind?',
      'H: Ten thousand at the very most.',
      'R: Okay. Option one is nine thousand, option two is fourteen thousand, and I would recommend option two.',
      line,
    );
    expect(a.empathy.gaps).not.toContain('asked again what the homeowner had already said, and she noticed');
  });

  it('"I already told you" after the rep asks again is still being made to repeat', () => {
    const a = run(
      'Windows',
      'R: What budget did you have in mind?',
      'H: Ten thousand at the very most.',
      'R: And what were you hoping to spend?',
      'H: I already told you, ten.',
    );
    expect(a.empathy.gaps).toContain('asked again what the homeowner had already said, and she noticed');
  });

  it('a clarifying question split across recogniser entries still waits for the answer', () => {
    const a = run(
      'Roofing',
      'R: ' + noisy('the whole roof with the porch is about twenty two thousand'),
      'H: ' + noisy('twenty two no we are not spending that'),
      'R: ' + noisy('i hear you that is real money can i ask is'),
      'R: ' + noisy('it the total or the porch part that bothers you'),
      'H: ' + noisy('the porch is fine so why pay for it'),
      'R: ' +
        noisy(
          'fair point we can leave the porch and do the house only at the same rate which comes to sixteen thousand with the same warranty on the house',
        ),
      'R: ' + noisy('does that work for you'),
      'H: ' + noisy('yes that works'),
    );
    expect(a.objections.positives).toContain('answered with reasons');
    expect(a.objections.score).toBeGreaterThanOrEqual(8);
  });
});
