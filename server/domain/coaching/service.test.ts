import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { conversationMetrics } from '../../understanding/metrics';
import { finalEntries, type TranscriptEntry } from '../../../core/transcript';
import { RubricCoach } from '../../providers/coach/rubric-coach';
import type { Coach, CoachInput } from '../../providers/coach/types';
import { sharedDir } from '../../test-support/harness';
import { coachTranscript } from './service';

const fixture = JSON.parse(
  fs.readFileSync(path.join(sharedDir, 'fixtures/transcripts/dev-02-windows.json'), 'utf8'),
) as { stage: string; durationSec: number; transcript: TranscriptEntry[] };

/** A coach whose metrics are a marker, to see whose numbers coachTranscript keeps. */
function markerCoach(measuresMetrics: boolean): Coach & { inputs: CoachInput[] } {
  const inputs: CoachInput[] = [];
  return {
    id: 'marker',
    label: 'Marker',
    measuresMetrics,
    inputs,
    async coach(input) {
      inputs.push(input);
      return {
        text: '**Summary**\nok',
        document: { summary: 'ok', best: null, sections: [] },
        metrics: { marker: true },
        engine: 'marker',
      };
    },
  };
}

describe('coachTranscript metrics', () => {
  const input = { stage: fixture.stage, transcript: fixture.transcript, durationSec: fixture.durationSec };

  it('measures the metrics itself unless the coach says it measured them', async () => {
    const result = await coachTranscript(markerCoach(false), input);
    expect(result.metrics).toEqual(
      conversationMetrics(finalEntries(fixture.transcript), { durationSec: fixture.durationSec }),
    );
  });

  it("keeps a measuring coach's metrics instead of measuring again on the request thread", async () => {
    const coach = markerCoach(true);
    const result = await coachTranscript(coach, input);
    expect(result.metrics).toEqual({ marker: true });
    // The coach was given exactly what coachTranscript would have measured.
    expect(coach.inputs[0].transcript).toEqual(finalEntries(fixture.transcript));
    expect(coach.inputs[0].durationSec).toBe(fixture.durationSec);
  });

  it("the rubric coach's metrics are the numbers coachTranscript would measure", async () => {
    const result = await coachTranscript(new RubricCoach(), { ...input, personaName: 'Dana' });
    expect(result.metrics).toEqual(
      conversationMetrics(finalEntries(fixture.transcript), { durationSec: fixture.durationSec }),
    );
  });
});
