import { z } from 'zod';
import { parseServedBy } from '../../../core/engines';
import { engineInfoSchema } from '../../../core/voice-protocol';
import type { CoachInput } from '../../providers/coach/types';

/** What the coach is told about how a call reached it: its source, how turns arrived, recognition. */
export type CoachContext = Pick<CoachInput, 'source' | 'input' | 'recognition'>;

const SPEECH_TO_TEXT = new Set(['speech-to-text', 'live-speech-to-text']);
const storedEngines = z.array(engineInfoSchema);

/**
 * A role-play's context from the engines saved with the call: no recogniser among them means
 * the rep typed (the call heard nothing); a basic recogniser means its words are approximate.
 * Calls saved without engines read as spoken, with the recognition unknown.
 */
export function rolePlayContext(engines: unknown): CoachContext {
  const parsed = storedEngines.safeParse(engines);
  if (!parsed.success || parsed.data.length === 0) return { source: 'roleplay' };
  const stt = parsed.data.find((e) => SPEECH_TO_TEXT.has(e.capability));
  if (!stt) return { source: 'roleplay', input: 'typed' };
  return { source: 'roleplay', input: 'speech', recognition: stt.quality };
}

/** An uploaded recording's context from its stored speech-to-text engine. */
export function recordingContext(sttEngine: string | null): CoachContext {
  const engine = parseServedBy(sttEngine)?.engine;
  return { source: 'recording', input: 'speech', ...(engine ? { recognition: engine.quality } : {}) };
}
