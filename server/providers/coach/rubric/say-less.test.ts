import { describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../../../core/transcript';
import { rubricCoaching } from './rubric';

const T0 = 1_700_000_000_000;
const convo = (...lines: string[]): TranscriptEntry[] =>
  lines.map((l, i) => ({
    role: l.startsWith('R:') ? 'user' : 'assistant',
    transcript: l.slice(2).trim(),
    timestamp: T0 + (i + 1) * 6000,
  }));

/** The coaching text's Summary, up to the first section. */
const summaryOf = (text: string) => text.split('\n---')[0];
const sectionOf = (text: string, title: string) => {
  const at = text.indexOf(`: ${title}**`);
  return at < 0 ? '' : text.slice(at, text.indexOf('\n---', at) < 0 ? undefined : text.indexOf('\n---', at));
};

// A flooring visit in which the rep does each step the coaching's advice names.
const thorough = convo(
  "H: Come on in, mind the dog. She's friendly, just loud.",
  "R: Thanks, Priya. No problem at all. What's got you thinking about new floors?",
  "H: The carpet in the den is twenty years old and the grandkids' juice has left stains everywhere. My daughter Anjali keeps telling me to do it before she has the baby in June.",
  'R: A baby in June, congratulations. That is lovely news.',
  "H: Thank you! And I'm not going anywhere, this is my forever home, so I want it done once.",
  'R: When you picture the den done, what matters most to you?',
  "H: Something I can mop. And it can't be slippery, my knees aren't what they were.",
  'R: That makes sense. And what budget did you have in mind?',
  'H: I was hoping to stay under eight thousand.',
  "R: Then two ways fit. A waterproof vinyl plank with a matte grip finish is sixty-two hundred installed. A porcelain tile that looks like wood is ninety-four hundred. For your knees and the juice, I'd go with the vinyl.",
  "H: Vinyl, though. My neighbour's vinyl peeled up at the seams after a year.",
  'R: I can see why that would put you off. Do you know whether hers was glued down or clicked together?',
  'H: Glued, I think. The installer was in and out in half a day.',
  "R: Ours clicks together over a cushioned underlay, and the seams carry a fifteen-year warranty, in writing, with the installer's name on it. We come back and fix any seam that lifts, free. Does that help with the seam worry?",
  'H: It does, actually.',
  'R: Would you like to go ahead with the vinyl for the den?',
  'H: Yes, I think so. But Anjali will want to see the sample first.',
  'R: Of course. Could I bring the samples back Thursday at five, with Anjali here so you can both pick the shade together?',
  'H: Thursday at five is fine, she finishes work at four.',
);

describe('coaching that says less when the call does not support it', () => {
  it('counts a check on the answer said as the last line of a long turn', () => {
    const r = rubricCoaching({ stage: 'Flooring', transcript: thorough, personaName: 'Priya' });
    const objections = sectionOf(r.text, 'Objection Handling');
    expect(objections).toMatch(/checked it landed/);
    expect(objections).not.toMatch(/check your answer resolved the concern/);
  });

  it('does not claim no one was named for a step that names a person', () => {
    const r = rubricCoaching({ stage: 'Flooring', transcript: thorough, personaName: 'Priya' });
    expect(r.text).not.toMatch(/say who will be there/i);
  });

  it('names nothing to change that the call shows done, and no strength as a thing to change', () => {
    const r = rubricCoaching({ stage: 'Flooring', transcript: thorough, personaName: 'Priya' });
    const summary = summaryOf(r.text);
    // Each listed fix is a section below eight, with advice of its own.
    for (const m of summary.matchAll(/\((\d+)\/10\): (.+)\./g)) {
      expect(Number(m[1])).toBeLessThan(8);
      expect(m[2]).not.toMatch(/check it landed|who attends/);
    }
  });

  it('lists no topics to explore where the rep already explored', () => {
    const r = rubricCoaching({ stage: 'Flooring', transcript: thorough, personaName: 'Priya' });
    expect(sectionOf(r.text, 'Needs Analysis')).not.toMatch(/explore/);
  });

  it('leaves out of the topics to explore one the homeowner talked through unasked', () => {
    const pitchFirst = convo(
      'H: Hello there, come in.',
      'R: Thanks. Is it just the den you want done?',
      'H: Just the den, yes.',
      "R: Great. So I'll get right to it, we do a waterproof vinyl plank that's sixty-two hundred for the den, installed, and it looks just like oak.",
      "H: Well, I'm not going anywhere, this is my forever home, so whatever goes down has to last.",
      "R: This will last. It's got a fifteen-year warranty and it's the most popular floor we sell.",
      'H: I see. It is a lot of money though.',
      "R: It's a fair price for what you get. I can come back Thursday at five to measure properly.",
      "H: Thursday's fine.",
    );
    const r = rubricCoaching({ stage: 'Flooring', transcript: pitchFirst });
    const needs = sectionOf(r.text, 'Needs Analysis');
    expect(needs).toMatch(/explore/);
    expect(needs).not.toMatch(/how long they will stay/);
  });

  it('still names what a weak call lacked, one thing or two', () => {
    const weak = convo(
      'H: Hi. You the floor guy?',
      "R: Yep, that's me. So we've got a great laminate on special right now, it's forty-one hundred for the whole room, but that price is today only.",
      "H: That seems like a lot, I haven't even decided what I want.",
      "R: Honestly it's the best deal you'll find anywhere in town, everybody on this street went with it.",
      "H: Well, I'll think about it.",
      "R: Sure. I'll call you sometime next week then.",
      'H: Okay.',
    );
    const summary = summaryOf(rubricCoaching({ stage: 'Flooring', transcript: weak }).text);
    expect(summary).toMatch(/\*\*Top two things to change\*\*, in order:\n1\. .+\n2\. .+/);
  });

  it('never advises a recommendation, a recap or a day that the call already has', () => {
    const r = rubricCoaching({ stage: 'Flooring', transcript: thorough, personaName: 'Priya' });
    expect(r.text).not.toMatch(/carry it into your offer: say which option you would pick/);
    expect(r.text).not.toMatch(/put a day on the next step/);
  });
});
