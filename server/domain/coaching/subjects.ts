import type { StoredCoaching } from '../../../core/coaching-document';
import type { CoachingDocument } from '../../../core/coaching-format';
import { personaFor } from '../../../core/stages';
import { finalEntries, type TranscriptEntry } from '../../../core/transcript';
import type { Db } from '../../db/client';
import { applySwap } from '../../transcription/attribution';
import { findAudioSession } from '../audio/data';
import { storeAudioCoaching } from '../audio/mutations';
import { findSession } from '../sessions/data';
import { storeSessionCoaching } from '../sessions/mutations';
import { recordingContext, rolePlayContext, type CoachContext } from './context';

/** What gets coached: a role-play session, or an uploaded call recording. */
export type CoachingKind = 'roleplay' | 'audio';
export const COACHING_KINDS = ['roleplay', 'audio'] as const;

/** A transcript to coach, and the coaching stored for it, whichever kind it is. */
export interface CoachingSubject {
  kind: CoachingKind;
  id: string;
  /** The transcript's version: coaching is stored against it (null for rows from before versions). */
  version: string | null;
  stage: string;
  /** Final entries, speakers as the rep set them. */
  transcript: TranscriptEntry[];
  durationSec?: number;
  personaName?: string;
  coaching: StoredCoaching | null;
  coachingEngine: string | null;
  metrics: unknown;
  unlocked: boolean;
  /** Whether the transcript is complete: a call that ended, a recording transcribed. */
  complete: boolean;
  /** A live call on the server is under way: it saves the transcript when it ends. */
  callLive: boolean;
  /** A recording in which only one voice could be made out (every line has one role). */
  oneVoice: boolean;
  /** How the call reached the coach: role-play or recording, typed or spoken, its recognition. */
  context: CoachContext;
}

const positive = (n: number | undefined) => (n !== undefined && Number.isFinite(n) && n > 0 ? n : undefined);

export async function loadSubject(db: Db, kind: CoachingKind, id: string): Promise<CoachingSubject | null> {
  if (kind === 'roleplay') {
    const row = await findSession(db, id);
    if (!row) return null;
    return {
      kind,
      id: row.id,
      version: row.transcriptVersion,
      stage: row.stage,
      transcript: finalEntries(row.transcript ?? []),
      durationSec: positive(row.duration ? Number(row.duration) : undefined),
      personaName: personaFor(row.stage)?.name,
      coaching: row.coaching,
      coachingEngine: row.coachingEngine,
      metrics: row.metrics,
      unlocked: row.unlocked,
      complete: row.endedAt !== null,
      callLive: row.callStartedAt !== null && row.endedAt === null,
      oneVoice: false,
      context: rolePlayContext(row.engines),
    };
  }
  const row = await findAudioSession(db, id);
  if (!row) return null;
  const transcript = finalEntries(applySwap(row.transcript ?? [], row.speakersSwapped));
  return {
    kind,
    id: row.id,
    version: row.transcriptVersion,
    stage: row.stage,
    transcript,
    durationSec: positive(row.durationMs ? row.durationMs / 1000 : undefined),
    coaching: row.coaching,
    coachingEngine: row.coachingEngine,
    metrics: row.metrics,
    unlocked: row.unlocked,
    complete: row.status === 'transcribed',
    callLive: false,
    oneVoice: row.attribution === 'single' || new Set(transcript.map((e) => e.role)).size === 1,
    context: recordingContext(row.sttEngine),
  };
}

/** Whether anyone said anything worth coaching. */
export function hasWords(subject: Pick<CoachingSubject, 'transcript'>): boolean {
  return subject.transcript.some((e) => e.transcript.trim() !== '');
}

/** Stores coaching for the subject's transcript version; false when it changed or was coached meanwhile. */
export function storeSubjectCoaching(
  db: Db,
  subject: Pick<CoachingSubject, 'kind' | 'id' | 'version'>,
  input: { coaching: CoachingDocument; coachingEngine: string; metrics: unknown },
): Promise<boolean> {
  return subject.kind === 'roleplay'
    ? storeSessionCoaching(db, subject.id, subject.version, input)
    : storeAudioCoaching(db, subject.id, subject.version, input);
}
