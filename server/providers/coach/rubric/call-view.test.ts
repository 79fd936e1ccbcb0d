import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseCoaching } from '../../../../core/coaching-format';
import type { TranscriptEntry } from '../../../../core/transcript';
import { rubricCoaching, type RubricInput } from './rubric';

/** The probe calls (scripts/coach-probes): each holds one of the examples the coach got wrong. */
const probe = (id: string): RubricInput & { personaName?: string } => {
  const dir = path.join(import.meta.dirname, '../../../../scripts/coach-probes');
  const file = fs.readdirSync(dir).find((f) => f.startsWith(id))!;
  const fx = JSON.parse(fs.readFileSync(path.join(dir, file), 'utf8')) as RubricInput & {
    transcript: TranscriptEntry[];
  };
  return fx;
};

const quotes = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.startsWith('> '))
    .map((l) => l.slice(2));

describe('how the coaching speaks of the call', () => {
  it('calls an uploaded recording a real call with a customer, never a role-play persona', () => {
    const fx = probe('p06');
    const text = rubricCoaching({ ...fx, source: 'recording' }).text;
    expect(text).toContain('recorded call');
    expect(text).not.toContain('role-play');
    expect(text).not.toContain('plays a');
    expect(text).not.toContain('Friendly & Curious');
    // The same call as a role-play with a named homeowner says so.
    const played = rubricCoaching({ ...fx, source: 'roleplay', personaName: 'Sam' }).text;
    expect(played).toContain('role-play with Sam');
  });

  it('says once that basic recognition makes quotes approximate, and quotes only clear spans', () => {
    const fx = probe('p06');
    const text = rubricCoaching({ ...fx, recognition: 'basic' }).text;
    expect(text.split('approximate').length - 1).toBe(1);
    for (const q of quotes(text)) {
      expect(q.split(' ').length).toBeGreaterThanOrEqual(5);
      expect(q).not.toContain('you d c');
    }
    const enhanced = rubricCoaching({ ...fx, recognition: 'enhanced' }).text;
    expect(enhanced).not.toContain('approximate');
  });

  it('gives no Best box to a call too short to judge', () => {
    const r = rubricCoaching(probe('p08'));
    expect(r.degenerate).toBe('short');
    expect(parseCoaching(r.text)!.best).toBeNull();
  });

  it('never names a gated section as Best, and not without a moment scoring 6 or more', () => {
    const r = rubricCoaching(probe('p09'));
    const best = parseCoaching(r.text)!.best;
    if (best) {
      expect(best.score).toBeGreaterThanOrEqual(6);
      expect(best.content).not.toMatch(/Objection Handling|Closing|Follow-Up/);
    }
  });

  it('says nothing about timing on a typed call', () => {
    const text = rubricCoaching({ ...probe('p07'), input: 'typed' }).text;
    expect(text).not.toMatch(/per minute|pace|of the time|seconds|pause/i);
  });
});
