import { MAX_CALL_SEC } from '../../core/constants';
import type { TranscriptEntry } from '../../core/transcript';
import type { BrainTurn } from '../providers/brain/types';
import type { EngineList, VoiceSessionDeps } from './session-deps';

/**
 * What was said on a call: the final lines the session saves against the role-play session,
 * and the history the homeowner's brain reads (the same array throughout, growing as the call
 * goes on).
 */
export class CallRecord {
  readonly history: BrainTurn[] = [];
  private readonly entries: TranscriptEntry[] = [];

  add(role: 'user' | 'assistant', text: string): void {
    this.entries.push({ role, transcript: text, timestamp: Date.now(), transcriptType: 'final' });
    this.history.push({ role, text });
  }

  /** Final entries so far. */
  finals(): TranscriptEntry[] {
    return this.entries.slice();
  }

  /**
   * Stores the transcript with the call's length (capped at the call limit) and the engines it
   * used; nothing to store, or no store, does nothing. A failed save is logged, never thrown:
   * the call still ends.
   */
  async save(
    store: VoiceSessionDeps['saveTranscript'],
    target: { sessionId: string; startWall: number; engines: EngineList },
    log?: VoiceSessionDeps['log'],
  ): Promise<void> {
    if (this.entries.length === 0 || !store) return;
    const durationSec = Math.min(Math.round((Date.now() - target.startWall) / 1000), MAX_CALL_SEC);
    await store(target.sessionId, this.finals(), durationSec, target.engines).catch((err) =>
      log?.error({ err }, 'saving the call transcript failed'),
    );
  }
}
