import type { Stage } from '../../../core/stages';
import type { BrainConversation, BrainTurn, CallEnd, PersonaBrain } from './types';

/**
 * A homeowner for tests about the call (turn order, streaming, ending), not about the
 * conversation: a fixed opening per stage and a reply that echoes the rep's last line, streamed
 * a word at a time. `endAfter` replies end the call the given way.
 */
export class FakeBrain implements PersonaBrain {
  readonly id = 'fake-brain';
  readonly label = 'Echoing homeowner (tests)';
  /** Every history a reply was asked for, across conversations. */
  readonly asked: BrainTurn[][] = [];

  constructor(private readonly opts: { endAfter?: number; end?: CallEnd } = {}) {}

  startConversation({ stage }: { stage: Stage; seed?: number }): BrainConversation {
    let replies = 0;
    let endCall: CallEnd | null = null;
    const asked = this.asked;
    const { endAfter, end } = this.opts;
    return {
      opening: () => `Hello, this is about the ${stage.toLowerCase()}?`,
      get finished() {
        return endCall === 'homeowner';
      },
      get endCall() {
        return endCall;
      },
      async *reply(history: BrainTurn[], opts: { signal?: AbortSignal } = {}) {
        asked.push(history.map((t) => ({ ...t })));
        const last = [...history]
          .reverse()
          .find((t) => t.role === 'user')
          ?.text.trim();
        const text = last ? `You said ${last}.` : 'Sorry, I did not catch that.';
        for (const word of text.split(' ')) {
          await Promise.resolve();
          if (opts.signal?.aborted) return;
          yield `${word} `;
        }
        replies++;
        if (endAfter !== undefined && replies >= endAfter) endCall = end ?? 'goodbye';
      },
    };
  }
}
