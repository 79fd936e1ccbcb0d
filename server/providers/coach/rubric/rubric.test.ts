import fs from 'node:fs';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { coachingProblems, parseCoaching, SECTION_KEYS } from '../../../../core/coaching-format';
import { normalizeText } from '../../../understanding/text/normalise';
import type { TranscriptEntry } from '../../../../core/transcript';
import { sharedDir } from '../../../test-support/harness';
import { rubricCoaching } from './rubric';

const T0 = 1_700_000_000_000;
const convo = (...lines: string[]): TranscriptEntry[] =>
  lines.map((l, i) => ({
    role: l.startsWith('R:') ? 'user' : 'assistant',
    transcript: l.slice(2).trim(),
    timestamp: T0 + (i + 1) * 6000,
  }));

const fixturesDir = path.join(sharedDir, 'fixtures/transcripts');
const fixtures = fs.existsSync(fixturesDir)
  ? fs
      .readdirSync(fixturesDir)
      .filter((f) => f.endsWith('.json'))
      .map(
        (f) =>
          JSON.parse(fs.readFileSync(path.join(fixturesDir, f), 'utf8')) as {
            id: string;
            stage: string;
            personaName: string;
            durationSec: number;
            transcript: TranscriptEntry[];
          },
      )
  : [];

const valid = (text: string) => coachingProblems(parseCoaching(text));

// Two calls written for this test, unlike any fixture: a strong HVAC visit and a weak one.
const strongHvac = convo(
  'H: Yeah? I only have a few minutes.',
  "R: Totally fair, I'll keep it short. What made you call about the AC?",
  'H: The upstairs bedrooms never cool down and our bill was four hundred last month.',
  'R: Four hundred, ouch, that sounds frustrating. How old is the system, and how long do you plan to stay in the house?',
  'H: Around fifteen years old. We plan to stay at least ten more years.',
  "R: Got it. So there are three ways to go. Option one, repair the blower for about six hundred. Option two, a standard system at about nine thousand. Option three, a variable-speed heat pump at twelve thousand that evens out the upstairs. For ten years and those bills I'd recommend option three.",
  'H: Twelve thousand is more than I wanted to spend.',
  'R: I hear you. Can I ask what number you had in mind?',
  'H: Maybe ten.',
  'R: With the rebate, option three comes to ten thousand two hundred, because the utility pays for the efficiency. Does that help?',
  'H: Yeah, that helps.',
  'R: Would you like to go ahead and get the install on the schedule?',
  "H: Yes, let's do it.",
  'R: Great. So Tuesday the 14th at 8 am, our installer Maria and me, and you and your wife. I will email the paperwork tonight. Does that work?',
  'H: Tuesday works, sounds good.',
);
const weakHvac = convo(
  'H: Yeah? I only have a few minutes.',
  "R: Sure. We're the best HVAC company in the county, family owned, thirty years. Our premium system is the only one I'd put in a home like this, it's our flagship.",
  'R: It is fourteen thousand but this price is only good today, after midnight it goes back up.',
  "H: That's way too expensive.",
  'R: Trust me, you get what you pay for. I can take two thousand off if you sign tonight.',
  'H: No. I have to go.',
  "R: Okay. I'll give you a call sometime.",
);

describe('rubric coach output', () => {
  it.each(fixtures.map((f) => [f.id, f] as const))(
    '%s parses with the spec parser and quotes the rep',
    (_id, f) => {
      const r = rubricCoaching({
        stage: f.stage,
        transcript: f.transcript,
        durationSec: f.durationSec,
        personaName: f.personaName,
      });
      expect(valid(r.text)).toEqual([]);
      const repText = normalizeText(
        f.transcript
          .filter((e) => e.role === 'user')
          .map((e) => e.transcript)
          .join(' '),
      );
      const quotes = r.text
        .split('\n')
        .filter((l) => l.startsWith('>'))
        .map((l) => normalizeText(l.replace(/^>\s*"?|"$/g, '').replace(/\.\.\.$/, '')));
      expect(quotes.length).toBeGreaterThan(0);
      for (const q of quotes) expect(repText).toContain(q);
      for (const s of parseCoaching(r.text)!.sections) expect(s.content).toContain('Try this next time:');
    },
  );

  it('parses for degenerate transcripts: empty, homeowner only, rep only, one word', () => {
    for (const t of [
      [],
      convo('H: Hello?', 'H: Anyone there?'),
      convo('R: Hi, I am with the window company, we have a special this month.'),
      convo('R: hi'),
    ]) {
      const r = rubricCoaching({ stage: 'Windows', transcript: t });
      expect(valid(r.text)).toEqual([]);
      for (const k of SECTION_KEYS) expect(Number.isInteger(r.scores[k])).toBe(true);
    }
  });

  it('parses for any text at all', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ rep: fc.boolean(), text: fc.string({ maxLength: 200 }) }), { maxLength: 12 }),
        fc.constantFrom('Windows', 'HVAC', 'Roofing', 'Flooring', 'General', 'Unknown'),
        (rows, stage) => {
          const transcript = rows.map((r, i) => ({
            role: r.rep ? ('user' as const) : ('assistant' as const),
            transcript: r.text,
            timestamp: T0 + i * 1000,
          }));
          expect(valid(rubricCoaching({ stage, transcript }).text)).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  });

  it("scores a strong unseen call well above a weak one, and names the weak one's faults", () => {
    const strong = rubricCoaching({ stage: 'HVAC', transcript: strongHvac, personaName: 'Dave' });
    const weak = rubricCoaching({ stage: 'HVAC', transcript: weakHvac, personaName: 'Dave' });
    const mean = (s: Record<string, number>) => Object.values(s).reduce((a, b) => a + b, 0) / 6;
    expect(mean(strong.scores)).toBeGreaterThanOrEqual(7.5);
    expect(mean(weak.scores)).toBeLessThanOrEqual(3);
    for (const k of SECTION_KEYS) expect(strong.scores[k]).toBeGreaterThanOrEqual(weak.scores[k]);
    expect(weak.text).toMatch(/dropped the price|argued/);
    expect(weak.metrics.pressurePhrases.length).toBeGreaterThan(0);
  });

  it('gives a summary with the top two changes, and no Best when no open section earned one', () => {
    const doc = parseCoaching(
      rubricCoaching({ stage: 'HVAC', transcript: weakHvac, personaName: 'Dave' }).text,
    )!;
    expect(doc.best).toBeNull();
    expect(doc.summary).toMatch(/Top two things to change/);
    expect(doc.summary.match(/^\d\. /gm)).toHaveLength(2);
  });

  it('holds up a strong moment from a section everyone can read as Best', () => {
    const doc = parseCoaching(
      rubricCoaching({ stage: 'HVAC', transcript: strongHvac, personaName: 'Dave' }).text,
    )!;
    expect(doc.best?.score).toBeGreaterThanOrEqual(6);
    expect(doc.best?.content).toMatch(/Empathy and Connection|Needs Analysis|Exploring Options/);
    expect(doc.best?.content).not.toMatch(/Objection Handling|Closing|Follow-Up/);
  });

  it('names a call too short to judge instead of scoring it', () => {
    const t = convo('H: Hello.', 'R: Hi.');
    const r = rubricCoaching({ stage: 'Roofing', transcript: t, personaName: 'Frank' });
    expect(r.degenerate).toBe('short');
    expect(r.text).toMatch(/too short to judge/i);
    for (const s of r.doc.sections) expect(s.score).toBeLessThan(5);
  });

  it('coaches a recording where only one voice was heard as one side of a call, never as a short one', () => {
    // What a one-channel recording whose voices could not be told apart comes back as: every
    // line the rep's, merged into one long turn (a 4.2-minute call gave 657 words over 1 turn).
    const fx = fixtures.find((f) => f.transcript.filter((e) => e.role === 'user').length > 8)!;
    const monologue = fx.transcript.map((e) => ({ ...e, role: 'user' as const }));
    const words = monologue
      .map((e) => e.transcript)
      .join(' ')
      .split(/\s+/).length;
    expect(words).toBeGreaterThan(150);
    const asCall = rubricCoaching({
      stage: fx.stage,
      transcript: [{ ...monologue[0], transcript: monologue.map((e) => e.transcript).join(' ') }],
    });
    expect(asCall.degenerate).toBe('short');
    const oneVoice = rubricCoaching({
      stage: fx.stage,
      transcript: [{ ...monologue[0], transcript: monologue.map((e) => e.transcript).join(' ') }],
      oneVoice: true,
    });
    expect(oneVoice.degenerate).toBeUndefined();
    expect(oneVoice.text).not.toMatch(/too short to judge/i);
    expect(oneVoice.doc.summary).toMatch(/^\*\*Only your side of this call could be heard\*\*/);
    expect(coachingProblems(oneVoice.doc)).toEqual([]);

    // The one voice set as the customer's: nothing of the rep's to coach; it asks for a swap.
    const customer = rubricCoaching({
      stage: fx.stage,
      transcript: monologue.map((e) => ({ ...e, role: 'assistant' as const })),
      oneVoice: true,
    });
    expect(customer.text).not.toMatch(/too short/i);
    expect(customer.doc.summary).toMatch(/use Swap speakers/);
    expect(coachingProblems(customer.doc)).toEqual([]);
  });

  it('flags a transcript whose speakers look swapped, and not a normal one', () => {
    const swapped = strongHvac.map((e) => ({
      ...e,
      role: e.role === 'user' ? ('assistant' as const) : ('user' as const),
    }));
    expect(rubricCoaching({ stage: 'HVAC', transcript: swapped }).text).toContain('speakers may be swapped');
    expect(rubricCoaching({ stage: 'HVAC', transcript: strongHvac }).text).not.toContain(
      'speakers may be swapped',
    );
  });

  it('coaches an unseen roofing call in recogniser text sensibly', () => {
    const roof = convo(
      'H: yeah what do you want',
      'R: hi im dan with summit roofing you called about the storm damage',
      'H: my wife did we got some shingles missing after the hail last week',
      'R: sorry to hear that hail is no joke what are you seeing inside any water stains on the ceiling',
      'H: theres a brown spot in the upstairs hallway',
      'R: okay and how old is the roof roughly',
      'H: maybe twenty years',
      'R: got it have you filed a claim with your insurance yet',
      'H: no i dont trust those guys theyll raise my rates',
      'R: that makes sense a lot of people worry about that what id suggest is i document everything with photos first and you decide after that',
      'H: how much is this gonna cost me',
      'R: if insurance covers it youd just pay the deductible usually around a thousand if not a full replacement runs about fourteen thousand and a repair of the damaged section is about nine hundred',
      'H: fourteen grand is a lot',
      'R: i hear you can i ask what number you had in mind',
      'H: i dont know less than that',
      'R: thats fair the repair is the budget option but with a twenty year old roof id lean toward getting the insurance inspection because it could cover most of it does that make sense',
      'H: yeah i guess',
      'R: so would thursday at four work for me to come back with the adjuster you and your wife both there',
      'H: thursday at four works',
    );
    const r = rubricCoaching({ stage: 'Roofing', transcript: roof });
    expect(r.scores.objectionHandling).toBeGreaterThanOrEqual(8);
    expect(r.scores.closing).toBeGreaterThanOrEqual(8);
    expect(r.scores.followUp).toBeGreaterThanOrEqual(8);
    expect(r.scores.empathy).toBeGreaterThanOrEqual(5);
    expect(valid(r.text)).toEqual([]);
    // Without question marks the questions are not counted to a number.
    expect(r.text).not.toMatch(/asked \d+ (open )?questions?/);
  });

  it('coaches an unseen weak flooring pitch low', () => {
    const floor = convo(
      'H: Hi, come on in.',
      'R: Hi! Great house. So we have a sale on carpet this month, forty percent off.',
      'H: Oh, I was thinking more about hardwood actually.',
      "R: Sure, we do hardwood too. Our best seller is the oak plank, it's about nine thousand for the living room.",
      'H: Hmm. We have two cats though.',
      "R: Oh, they'll be fine. Do you want to go ahead and book the install?",
      'H: I need to think about it.',
      "R: Okay, no problem. I'll follow up next week.",
    );
    const r = rubricCoaching({ stage: 'Flooring', transcript: floor });
    expect(r.scores.needsAnalysis).toBeLessThan(5);
    expect(r.scores.exploringOptions).toBeLessThan(5);
    expect(r.scores.closing).toBeLessThan(8);
    expect(r.scores.followUp).toBeLessThan(8);
  });
});
