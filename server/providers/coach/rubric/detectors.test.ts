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
