import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCoaching, type CoachingDocument, type SectionKey } from '../../../../core/coaching-format';
import type { TranscriptEntry } from '../../../../core/transcript';
import { understandCall } from '../../../understanding/call-facts';
import { sharedDir } from '../../../test-support/harness';
import { recogniserTranscript } from '../../../../scripts/lib/recogniser-noise';
import { rubricCoaching, type RubricInput } from '../rubric/rubric';
import { statedFigures } from '../rubric/summary';
import { callView } from '../rubric/view';
import { auditCoaching, type GroundingFinding } from './audit';
import { traceSlots } from './trace';

/**
 * The grounding audit over every text the coach writes for the evaluation sets and the probe
 * calls: no claim the call does not support, every value named in advice traced to its words; and
 * the audit itself catches the claims the coach used to make (the probes' `before/` texts and the
 * examples of issue 25, said in several wordings).
 */
interface Call extends RubricInput {
  id: string;
  mustNot?: { sections: string[]; absent: string }[];
  must?: { sections: string[]; present: string }[];
  best?: 'none' | 'unlocked';
}

const root = path.join(import.meta.dirname, '../../../..');
const load = (dir: string): Call[] =>
  fs.existsSync(dir)
    ? fs
        .readdirSync(dir)
        .filter((f) => f.endsWith('.json'))
        .sort()
        .map((f) => JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as Call)
    : [];
const probesDir = path.join(root, 'scripts/coach-probes');
const probes = load(probesDir);
const sets = [
  ...load(path.join(sharedDir, 'fixtures/transcripts')),
  ...load(path.join(root, 'scripts/coach-calls')),
  ...probes,
];
const probe = (id: string) => probes.find((p) => p.id.startsWith(id))!;

function audit(doc: CoachingDocument, call: Call): GroundingFinding[] {
  const r = rubricCoaching(call);
  return auditCoaching(doc, understandCall(call.transcript, { stage: call.stage }), {
    view: callView(call),
    figures: statedFigures(r.analysis),
  });
}

const partText = (doc: CoachingDocument, part: string) =>
  part === '*'
    ? [
        doc.summary,
        doc.best?.title ?? '',
        doc.best?.content ?? '',
        ...doc.sections.map((s) => s.content),
      ].join('\n')
    : part === 'summary'
      ? doc.summary
      : part === 'best'
        ? `${doc.best?.title ?? ''}\n${doc.best?.content ?? ''}`
        : (doc.sections.find((s) => s.key === (part as SectionKey))?.content ?? '');

describe('every coaching text of the evaluation sets is grounded in its call', () => {
  for (const noisy of [false, true])
    it.each(sets.map((c) => [c.id, c] as const))(`%s${noisy ? ' (recogniser-style)' : ''}`, (_id, call) => {
      const input = noisy ? { ...call, transcript: recogniserTranscript(call.transcript, call.id) } : call;
      const r = rubricCoaching(input);
      const view = callView(input);
      const findings = auditCoaching(r.doc, r.facts, { view, figures: statedFigures(r.analysis) });
      expect(findings.map((f) => `${f.part}: ${f.problem}: ${f.text}`)).toEqual([]);
      expect(traceSlots(r.slots, r.doc.sections, r.facts, view)).toEqual([]);
    });
});

describe('the probe calls keep their promises', () => {
  it.each(probes.map((p) => [p.id, p] as const))('%s', (_id, call) => {
    const doc = rubricCoaching(call).doc;
    for (const rule of call.mustNot ?? [])
      for (const part of rule.sections) expect(partText(doc, part)).not.toContain(rule.absent);
    for (const rule of call.must ?? [])
      for (const part of rule.sections) expect(partText(doc, part)).toContain(rule.present);
    if (call.best === 'none') expect(doc.best).toBeNull();
    if (call.best === 'unlocked' && doc.best)
      expect(doc.best.content).not.toMatch(/Objection Handling|Closing|Follow-Up/);
  });
});

describe('the audit catches what the coach used to say', () => {
  it.each(
    probes
      .filter((p) => fs.existsSync(path.join(probesDir, 'before', `${p.id}.txt`)))
      .map((p) => [p.id, p] as const),
  )('%s: the coaching written before this work has findings', (_id, call) => {
    const before = parseCoaching(fs.readFileSync(path.join(probesDir, 'before', `${call.id}.txt`), 'utf8'))!;
    expect(audit(before, call).length).toBeGreaterThan(0);
  });

  const doc = (section: SectionKey, content: string, summary = 'Overall.'): CoachingDocument => ({
    summary,
    best: null,
    sections: [{ key: section, title: section, score: 5, content }],
  });
  const kinds = (d: CoachingDocument, id: string) => audit(d, probe(id)).map((f) => f.kind);

  it.each([
    ['p01', "Of course, your husband should be part of this. Could we set a time when you're both here?"],
    ['p10', 'Before you leave, text Joan what you agreed, with Walt there too.'],
    ['p01', 'Linda, your husband put them in — that sounds like a lot to deal with.'],
  ])('a person who has died, invited or addressed (%s)', (id, line) => {
    expect(kinds(doc('followUp', line), id)).toContain('person');
  });

  it.each([
    ['p02', 'Nancy should be part of this, so set a time when you are both home.'],
    ['p01', "Pin down the time: that's you, Lincoln and me."],
    ['p10', 'Say who will be there: you, Mary and me.'],
  ])('a letter spelled out or a school made a person (%s)', (id, line) => {
    expect(kinds(doc('followUp', line), id)).toContain('person');
  });

  it.each([
    ['p02', 'Keep it, and text Frank what you agreed: Tuesday, the time and who is coming.'],
    ['p04', 'Put it in writing: text Tom what you agreed, Saturday at nine.'],
    ['p10', 'Confirm what you agreed: Friday, with Kevin.'],
  ])('a day of the story given as the agreed day (%s)', (id, line) => {
    expect(kinds(doc('followUp', line), id)).toContain('day');
  });

  it.each([
    ['p03', 'closing', 'Priya never agreed to it.'],
    ['p10', 'followUp', 'Joan never said yes to the visit.'],
    ['p05', 'closing', 'You never asked for the sale or a next step.'],
    ['p09', 'closing', 'You never asked for the decision.'],
    ['p03', 'exploringOptions', 'You offered a single package instead of a choice.'],
    ['p01', 'objectionHandling', 'Not tested: no objection came up in this call.'],
    ['p04', 'objectionHandling', 'When Tom pushed back on the price, ask what he compared it to.'],
  ])('a claim the call contradicts (%s, %s)', (id, section, line) => {
    expect(kinds(doc(section as SectionKey, line), id)).toContain('claim');
  });

  it('summary figures that differ from the sections', () => {
    const d = doc('needsAnalysis', 'You asked 1 open question.', 'You asked 11 questions, 0 of them open.');
    expect(kinds(d, 'p02')).toContain('count');
    expect(kinds(doc('exploringOptions', 'You presented 4 options with prices.'), 'p03')).toContain('count');
  });

  it('a Best from a section behind the gate, or below 6', () => {
    const d: CoachingDocument = {
      summary: 'Overall.',
      best: {
        title: 'Handling the objection',
        score: 6,
        content: 'Your best was Objection Handling (6/10).',
      },
      sections: [{ key: 'objectionHandling', title: 'Objection Handling', score: 6, content: 'Ok.' }],
    };
    expect(kinds(d, 'p09')).toContain('best');
  });

  it('a role-play persona in a recording, timing in a typed call, a garbled quote from basic recognition', () => {
    expect(kinds(doc('empathy', 'The homeowner plays a Friendly & Curious buyer.'), 'p06')).toContain(
      'claim',
    );
    expect(
      kinds(doc('needsAnalysis', 'Instead of "you d c the downspout", ask what happened.'), 'p06'),
    ).toContain('quote');
    expect(kinds(doc('empathy', 'Your pace was 180 words per minute.'), 'p07')).toContain('claim');
  });

  it.each([
    ['p05', 'Since the boards are soft by the steps and one railing wobbles, this is the one that fits.'],
    ['p03', '"Priya, the kids do homework on the floor, Biscuit sleeps on it — that sounds like a lot."'],
    ['p09', "Since the kitchen one won't open anymore, the frame's swollen, there are three ways to go."],
  ])("the homeowner's clause pasted into advice (%s)", (id, line) => {
    expect(kinds(doc('empathy', line), id)).toContain('paste');
  });

  it('quotes words the rep never said', () => {
    expect(kinds(doc('closing', '> "Would you like to sign today for the best price?"'), 'p01')).toContain(
      'quote',
    );
  });
});

describe('different situations get different advice', () => {
  it('no two calls of the fixtures share every line', () => {
    const fixtures = sets.filter((c) => c.id.startsWith('dev-'));
    const lines = fixtures.map((c) =>
      rubricCoaching(c)
        .doc.sections.map((s) => s.content.split('**Try this next time:** ')[1] ?? '')
        .join('\n'),
    );
    expect(new Set(lines).size).toBe(lines.length);
  });
});

export type { TranscriptEntry };
