import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { coachingText } from '../../../core/coaching-document';
import { coachingForGate } from '../../../core/coaching-format';
import type { TranscriptEntry } from '../../../core/transcript';
import { RubricCoach } from '../../providers/coach/rubric-coach';
import { sharedDir } from '../../test-support/harness';
import { coachTranscript } from './service';

const dir = path.join(sharedDir, 'fixtures/transcripts');
const fixtures = fs
  .readdirSync(dir)
  .filter((f) => f.endsWith('.json'))
  .map(
    (f) =>
      JSON.parse(fs.readFileSync(path.join(dir, f), 'utf8')) as {
        stage: string;
        durationSec: number;
        transcript: TranscriptEntry[];
      },
  );

describe('coaching stored as a document keeps the text API as it was', () => {
  it('every fixture: the stored document renders to the coach text, and gates to the same locked text', async () => {
    expect(fixtures.length).toBeGreaterThan(5);
    const coach = new RubricCoach();
    for (const fx of fixtures) {
      const input = { stage: fx.stage, transcript: fx.transcript, durationSec: fx.durationSec };
      const own = await coach.coach(input);
      const stored = JSON.parse(JSON.stringify((await coachTranscript(coach, input)).document));
      expect(coachingText(stored, true)).toBe(own.text);
      expect(coachingText(stored, false)).toBe(coachingForGate(own.text, false));
    }
  });
});
