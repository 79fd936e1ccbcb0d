import type { Stage } from '../../../core/stages';

export interface BrainTurn {
  role: 'user' | 'assistant';
  text: string;
}

/** The homeowner: conversation so far in, the next line out, streamed as text pieces. */
export interface PersonaBrain {
  readonly id: string;
  readonly label: string;
  /** One conversation per call; state (memory, revealed needs, objections) lives in it. */
  startConversation(opts: { stage: Stage; seed?: number }): BrainConversation;
}

/**
 * Why the call should end once the current reply has been heard: `goodbye` when the rep said
 * goodbye and the homeowner answered it (the call ends as the rep's hang-up), `homeowner` when
 * the homeowner closed the door (sustained pressure or rudeness).
 */
export type CallEnd = 'goodbye' | 'homeowner';

export interface BrainConversation {
  /** The homeowner's opening line when the rep arrives. */
  opening(): string;
  /** True once the homeowner has ended the conversation (e.g. after repeated pressure). */
  readonly finished?: boolean;
  /**
   * Read after a reply has been streamed: set when the call should end once that reply has been
   * played (see CallEnd); null or absent to go on.
   */
  readonly endCall?: CallEnd | null;
  /** Streams the reply to the history (the last turn is the rep's). */
  reply(history: BrainTurn[], opts?: { signal?: AbortSignal }): AsyncIterable<string>;
}
