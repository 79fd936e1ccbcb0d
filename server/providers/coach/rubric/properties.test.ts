import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  GATED_SECTIONS,
  parseCoaching,
  SECTION_KEYS,
  type CoachingDocument,
} from '../../../../core/coaching-format';
import { normalizeText } from '../../../understanding/text/normalise';
import type { TranscriptEntry } from '../../../../core/transcript';
import { sharedDir } from '../../../test-support/harness';
import { rubricCoaching } from './rubric';

/**
 * Properties of the coaching every call must keep, checked over all labelled fixtures and
 * over synthetic calls written here: quotes are the rep's own words, Best is the best
 * section, "Try this next time" invents no people, pets or dates and differs between calls,
 * and degenerate calls are named rather than scored.
 */
const T0 = 1_700_000_000_000;
const convo = (...lines: string[]): TranscriptEntry[] =>
  lines.map((l, i) => ({
    role: l.startsWith('R:') ? 'user' : 'assistant',
    transcript: l.slice(2).trim(),
    timestamp: T0 + (i + 1) * 6000,
  }));

interface Call {
  id: string;
  stage: string;
  personaName?: string;
  transcript: TranscriptEntry[];
}

const fixturesDir = path.join(sharedDir, 'fixtures/transcripts');
const fixtures: Call[] = fs.existsSync(fixturesDir)
  ? fs
      .readdirSync(fixturesDir)
      .filter((f) => f.endsWith('.json'))
      .map((f) => JSON.parse(fs.readFileSync(path.join(fixturesDir, f), 'utf8')) as Call)
  : [];

const synthetic: Record<string, Call> = {
  oneLine: { id: 'one-line', stage: 'Windows', transcript: convo('H: Hello?', 'R: Hi, windows. Bye.') },
  spanish: {
    id: 'spanish',
    stage: 'Roofing',
    personaName: 'Lucía',
    transcript: convo(
      'H: Hola, buenas tardes. ¿Usted es el del techo?',
      'R: Sí señora, vengo por la gotera. ¿Dónde la ve usted y desde cuándo pasa esto en la casa?',
      'H: En la cocina, desde la tormenta del mes pasado. Cae agua cuando llueve mucho.',
      'R: Entiendo, qué molestia. Puedo revisar el techo hoy mismo y darle tres opciones con precio para que usted decida.',
      'H: Está bien, pero mi esposo tiene que verlo también.',
      'R: Claro que sí. ¿Le parece bien el sábado por la mañana, cuando estén los dos en casa?',
    ),
  },
  abusive: {
    id: 'abusive',
    stage: 'HVAC',
    personaName: 'Carol',
    transcript: convo(
      "H: I'm not sure we need a whole new system, the furnace still runs most days.",
      "R: Look lady, that's a stupid thing to say. Your furnace is junk and you'd be an idiot to keep it.",
      "H: Excuse me? There's no need to talk to me like that.",
      'R: Whatever. The new system is twelve thousand installed, and it is the only one I sell. Do you want to sign today or not?',
      'H: No. I think you should leave.',
      "R: Your loss. Good luck freezing this winter, you'll call us crying.",
    ),
  },
  noObjection: {
    id: 'no-objection',
    stage: 'Flooring',
    personaName: 'Ann',
    transcript: convo(
      'H: Come in, the living room is through here.',
      'R: Thanks for having me. What got you thinking about new floors in here?',
      'H: The carpet is worn through by the sofa and it never looks clean.',
      'R: Worn through and never clean, that gets old fast. How do you use the room day to day, and how long do you plan to stay?',
      'H: Mostly reading and the odd dinner. We plan to stay for good.',
      'R: Then there are three ways to go: a new carpet at about two thousand, laminate at three thousand two hundred, or oak at five thousand. For reading and staying for good, I would pick the laminate.',
      'H: The laminate sounds right.',
      'R: Would you like to get it on the schedule? I can do Thursday at nine, with you and the installer.',
      'H: Thursday at nine works.',
    ),
  },
};

const FAMILY =
  /\b(wife|husband|partner|spouse|son|daughter|kids?|children|mom|mother|dad|father|sister|brother|grandkids?|dog|cat|pets?|puppy)\b/;
const FIXED_TIME =
  /\b\d{1,2}(:\d\d)? ?(am|pm|a\.m\.|p\.m\.)|\b(the )?\d{1,2}(st|nd|rd|th)\b|\b(january|february|march|april|june|july|august|september|october|november|december)\b/i;
const DAYS = /\b(monday|tuesday|wednesday|thursday|friday|saturday|sunday)\b/g;

const tryLines = (doc: CoachingDocument) =>
  doc.sections.map((s) => (s.content.match(/\*\*Try this next time:\*\*\s*(.+)/) ?? [])[1] ?? '');
const quotes = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim().startsWith('>'))
    .map((l) =>
      l
        .replace(/^\s*>\s*"?/, '')
        .replace(/"\s*$/, '')
        .replace(/\.\.\.$/, ''),
    );

function coach(c: Call) {
  const r = rubricCoaching({ stage: c.stage, transcript: c.transcript, personaName: c.personaName });
  const doc = parseCoaching(r.text);
  if (!doc) throw new Error(`${c.id}: coaching did not parse`);
  return { r, doc };
}

const all: Call[] = [...fixtures, ...Object.values(synthetic)];

describe('coaching properties over every labelled and synthetic call', () => {
  it.each(all.map((c) => [c.id, c] as const))(
    '%s: quotes are the rep’s own words, at most 30 words',
    (_id, c) => {
      const { r } = coach(c);
      const rep = normalizeText(
        c.transcript
          .filter((e) => e.role === 'user')
          .map((e) => e.transcript)
          .join(' '),
      );
      for (const q of quotes(r.text)) {
        const n = normalizeText(q);
        expect(n.split(' ').length).toBeLessThanOrEqual(30);
        expect(rep).toContain(n);
      }
    },
  );

  it.each(all.map((c) => [c.id, c] as const))(
    '%s: Best is the top unlocked section scoring 6 or more, or there is none',
    (_id, c) => {
      const { doc } = coach(c);
      const open = doc.sections.filter((s) => !GATED_SECTIONS.includes(s.key) && (s.score ?? 0) >= 6);
      if (!doc.best) {
        // None only when no open section earned one with a line to quote.
        for (const s of open) expect(s.content).not.toContain('> "');
        return;
      }
      const best = Math.max(...open.map((s) => s.score ?? 0));
      expect(doc.best.score).toBe(best);
      const section = open.find((s) => doc.best!.content.includes(s.title));
      expect(section?.score).toBe(best);
    },
  );

  it.each(all.map((c) => [c.id, c] as const))(
    '%s: advice names no person, pet or date the call did not mention',
    (_id, c) => {
      const { doc } = coach(c);
      const said = normalizeText(c.transcript.map((e) => e.transcript).join(' '));
      const names = new Set([...said.split(/[\s-]/), normalizeText(c.personaName ?? '')]);
      for (const line of tryLines(doc)) {
        for (const t of line.match(new RegExp(FIXED_TIME.source, 'gi')) ?? [])
          expect(said).toContain(normalizeText(t));
        for (const d of line.toLowerCase().match(DAYS) ?? []) expect(said).toContain(d);
        for (const m of normalizeText(line).match(new RegExp(FAMILY.source, 'g')) ?? [])
          expect(said).toMatch(new RegExp(`\\b${m}`));
        // Capitalised words inside the advice are names only if the call said them.
        for (const w of line.match(/(?<=[a-z,] )[A-Z][a-z]+/g) ?? [])
          expect(names.has(w.toLowerCase())).toBe(true);
      }
    },
  );

  it.each(all.map((c) => [c.id, c] as const))(
    '%s: what a section lacked is said as advice, never as a fact about the call',
    (_id, c) => {
      const { doc } = coach(c);
      for (const section of doc.sections) {
        const judged = section.content.split('\n').filter((l) => !l.includes('"') && !l.startsWith('**Try'));
        for (const line of judged) {
          expect(line).not.toMatch(
            /\b(never (asked|checked|explored|presented|put)|left unexplored|nothing about who|asked no)\b/,
          );
          expect(line).not.toContain('No line in the conversation');
        }
      }
    },
  );

  it('different calls get different lines in every section, a third of them at least', () => {
    const real = fixtures.map((c) => tryLines(coach(c).doc));
    if (!real.length) return;
    for (let k = 0; k < SECTION_KEYS.length; k++) {
      const distinct = new Set(real.map((lines) => lines[k]));
      // A line names only what the call grounds (a problem in the homeowner's own words), so calls
      // that ground little share the plainer variants: a third distinct at least.
      expect(distinct.size).toBeGreaterThanOrEqual(Math.ceil(real.length / 3));
    }
  });
});

describe('degenerate calls are named, not scored', () => {
  it('a one-line call is too short to judge and nothing scores 5 or more', () => {
    const { r, doc } = coach(synthetic.oneLine);
    expect(r.text).toMatch(/too short to judge/i);
    for (const s of doc.sections) expect(s.score).toBeLessThan(5);
  });

  it('a Spanish call says the built-in coach reads English only', () => {
    const { r, doc } = coach(synthetic.spanish);
    expect(r.text).toMatch(/reads English only/);
    for (const s of doc.sections) expect(s.score).toBeLessThan(5);
  });

  it('an abusive rep gets low empathy and nothing praised', () => {
    const { r, doc } = coach(synthetic.abusive);
    expect(doc.sections.find((s) => s.key === 'empathy')!.score).toBeLessThanOrEqual(3);
    expect(r.text).not.toMatch(/What worked:|Your strengths:/);
    const praised = quotes(doc.best?.content ?? '').join(' ');
    expect(praised).not.toMatch(/stupid|idiot|junk|loss/);
    for (const s of doc.sections) {
      const worked = s.content.split('What cost you:')[0];
      expect(worked).not.toMatch(/stupid|idiot|junk|crying/);
    }
  });

  it('a call with no objection says Objection Handling was not tested, and keeps a mid score', () => {
    const { doc } = coach(synthetic.noObjection);
    const oh = doc.sections.find((s) => s.key === 'objectionHandling')!;
    expect(oh.content).toMatch(/not tested/i);
    expect(oh.score).toBeGreaterThanOrEqual(5);
    expect(oh.score).toBeLessThanOrEqual(7);
  });

  it('a strong section gets a refinement, not the beginner line', () => {
    const { doc } = coach(synthetic.noObjection);
    const strong = doc.sections.filter((s) => (s.score ?? 0) >= 8);
    expect(strong.length).toBeGreaterThan(0);
    for (const s of strong) expect(s.content).toMatch(/Try this next time:\*\* Keep it/);
  });
});

describe('advice names only what the call grounds', () => {
  it('texts the agreed day and the people the homeowner named, never a pasted clause', () => {
    const { r, doc } = coach({
      id: 'doors',
      stage: 'Windows',
      personaName: 'Lee',
      transcript: convo(
        'H: Hi, come in.',
        'R: Thanks for having me, Lee. What has been going on with the doors?',
        'H: The back door sticks. The one by the garage we cannot lock at all.',
        'R: That sounds frustrating. How long has it been like that?',
        'H: Since last winter, and it lets the cold in.',
        'R: I can quote a steel door at two thousand one hundred installed, or fiberglass at two thousand six hundred.',
        'H: Okay.',
        'R: Would Wednesday at four work for you and your wife to pick the finish?',
        'H: Wednesday at four works, my wife Ana will be here.',
      ),
    });
    const text = doc.sections.map((s) => s.content).join(' ');
    expect(text).not.toMatch(/the one by the garage|Since the one|Since last winter/);
    const follow = doc.sections.find((s) => s.key === 'followUp')!.content;
    if (/what you agreed|put it in writing/.test(follow)) expect(follow).toContain('Wednesday at four');
    expect(r.slots.followUp?.every((s) => s.evidence.length > 0 || s.slot === 'who')).toBe(true);
  });
});
