import fs from 'node:fs';
import path from 'node:path';
import { canonicalDocument } from '../../core/coaching-document';
import { parseCoaching } from '../../core/coaching-format';
import type { TranscriptEntry } from '../../core/transcript';
import type { Db } from '../db/client';
// Test setup writes the row a finished role-play leaves behind, without depending on other routes.
import { sessions } from '../db/schema';
import { sharedDir } from './harness';

/** Scores the tests look for in the email: every one distinct so a swap or omission shows. */
export const SAMPLE_SCORES = {
  best: 9,
  empathy: 8,
  needsAnalysis: 6,
  exploringOptions: 5,
  objectionHandling: 3,
  closing: 4,
  followUp: 7,
} as const;

export const SAMPLE_BETTER_LINE = 'What would make you confident this is the right window for your home?';

/** Coaching text in the spec's format, as a coach engine would store it. */
export function sampleCoaching(): string {
  const s = SAMPLE_SCORES;
  return `**Summary**
You opened warmly and kept Linda talking about her drafty rooms.

---

**Best: Warm opener**
Score: ${s.best}/10
You greeted Linda by name and asked about her home first.

---

**To Improve: Empathy and Connection**
Score: ${s.empathy}/10
You reflected her worry about the winter bills.

---

**To Improve: Needs Analysis**
Score: ${s.needsAnalysis}/10
Ask how long she plans to stay in the house.
> How long are you planning to stay in this home?

---

**To Improve: Exploring Options**
Score: ${s.exploringOptions}/10
Offer two options instead of one.

---

**To Improve: Objection Handling**
Score: ${s.objectionHandling}/10
When she compared prices you defended instead of asking.
> ${SAMPLE_BETTER_LINE}

---

**To Improve: Closing**
Score: ${s.closing}/10
You never asked for the appointment.
> Would Tuesday or Thursday work for a full measurement?

---

**Follow-Up**
Score: ${s.followUp}/10
You promised to send a quote by Friday.
`;
}

export function fixtureTranscript(): { stage: string; durationSec: number; transcript: TranscriptEntry[] } {
  const file = path.join(sharedDir, 'fixtures/transcripts/dev-02-windows.json');
  const data = JSON.parse(fs.readFileSync(file, 'utf8'));
  return { stage: data.stage, durationSec: data.durationSec, transcript: data.transcript };
}

/** Inserts a coached Windows session straight into the database (what the sessions API would have saved). */
export async function insertCoachedSession(db: Db, opts: { coaching?: string | null } = {}): Promise<string> {
  const fx = fixtureTranscript();
  if (opts.coaching === null) {
    const [row] = await db
      .insert(sessions)
      .values({
        stage: fx.stage,
        duration: String(fx.durationSec),
        transcript: fx.transcript,
        endedAt: new Date(),
      })
      .returning({ id: sessions.id });
    return row.id;
  }
  const [row] = await db
    .insert(sessions)
    .values({
      stage: fx.stage,
      duration: String(fx.durationSec),
      transcript: fx.transcript,
      coaching: canonicalDocument(
        parseCoaching(opts.coaching === undefined ? sampleCoaching() : opts.coaching)!,
      ),
      endedAt: new Date(),
    })
    .returning({ id: sessions.id });
  return row.id;
}
