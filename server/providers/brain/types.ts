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

export interface BrainConversation {
  /** The homeowner's opening line when the rep arrives. */
  opening(): string;
  /** True once the homeowner has ended the conversation (e.g. after repeated pressure). */
  readonly finished?: boolean;
  /** Streams the reply to the history (the last turn is the rep's). */
  reply(history: BrainTurn[], opts?: { signal?: AbortSignal }): AsyncIterable<string>;
}
