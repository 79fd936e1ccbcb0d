import { MAX_CALL_SEC, MAX_CALL_TRANSCRIPT_CHARS, MAX_CALL_TRANSCRIPT_ENTRIES } from '../../core/constants';
import { clipText, type TranscriptEntry } from '../../core/transcript';
import type { BrainTurn } from '../providers/brain/types';
import type { EngineList, VoiceSessionDeps } from './session-deps';

/**
 * What was said on a call: the final lines the session saves against the role-play session,
 * and the history the homeowner's brain reads (the same array throughout, growing as the call
 * goes on). It holds at most what a call of the longest length can produce
 * (MAX_CALL_TRANSCRIPT_ENTRIES entries, MAX_CALL_TRANSCRIPT_CHARS characters): a line past that
 * is cut to the room left and the record is `full`, and the session ends the call.
 */
export class CallRecord {
  readonly history: BrainTurn[] = [];
  private readonly entries: TranscriptEntry[] = [];
  private chars = 0;
  private isFull = false;

  /** Keeps a line; false when the record was already full and nothing was kept. */
  add(role: 'user' | 'assistant', text: string): boolean {
    if (this.isFull) return false;
    const room = MAX_CALL_TRANSCRIPT_CHARS - this.chars;
    const kept = clipText(text, room);
    if (text.length >= room) this.isFull = true;
    if (this.entries.length + 1 >= MAX_CALL_TRANSCRIPT_ENTRIES) this.isFull = true;
    if (!kept) return false;
    this.chars += kept.length;
    this.entries.push({ role, transcript: kept, timestamp: Date.now(), transcriptType: 'final' });
    this.history.push({ role, text: kept });
    return true;
  }

  /** The record holds all a call may: nothing more is kept. */
  get full(): boolean {
    return this.isFull;
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
