import { sentencesOf } from '../../understanding/text/lines';
import type { Stage } from '../../../core/stages';
import type { ChatClient } from '../llm/chat-client';
import { PERSONA_FACTS } from './personas';
import { personaSystemPrompt } from './prompt';
import { ScriptedConversation } from './scripted';
import type { BrainConversation, BrainTurn, CallEnd, PersonaBrain } from './types';

/** A reply slower than this to start is answered by the scripted homeowner instead. */
const FIRST_TOKEN_TIMEOUT_MS = 6000;

/**
 * The homeowner played by a language model (any OpenAI-compatible chat server, or a local
 * GGUF model through node-llama-cpp): the persona facts and the dialogue rules become the
 * system prompt and the reply is streamed. The scripted homeowner follows every turn alongside,
 * so its memory (facts said, objections, pressure, a goodbye) stays current: it answers any turn
 * the model fails (an error, a timeout, an empty reply) and decides when the call ends.
 */
export class LlmBrain implements PersonaBrain {
  readonly id: string;
  readonly label: string;

  constructor(private readonly client: ChatClient) {
    this.id = `llm:${client.id}`;
    this.label = `LLM homeowner (${client.model})`;
  }

  startConversation({ stage, seed }: { stage: Stage; seed?: number }): BrainConversation {
    const system = personaSystemPrompt(PERSONA_FACTS[stage]);
    const scripted = new ScriptedConversation(stage, seed ?? Date.now());
    const client = this.client;
    return {
      opening: () => scripted.opening(),
      get finished(): boolean {
        return scripted.finished;
      },
      get endCall(): CallEnd | null {
        return scripted.endCall;
      },
      async *reply(history: BrainTurn[], opts: { signal?: AbortSignal } = {}) {
        const last = [...history].reverse().find((t) => t.role === 'user');
        const fallback = scripted.respond(last?.text ?? '');
        let said = false;
        try {
          for await (const piece of client.streamChat({
            messages: [
              { role: 'system', content: system },
              ...history.map((t) => ({ role: t.role, content: t.text })),
            ],
            signal: opts.signal,
            timeoutMs: FIRST_TOKEN_TIMEOUT_MS,
            temperature: 0.8,
            maxTokens: 120,
          })) {
            if (piece.trim()) said = true;
            yield piece;
          }
        } catch (err) {
          if (opts.signal?.aborted || said) return;
          void err;
        }
        if (said || opts.signal?.aborted) return;
        for (const sentence of sentencesOf(fallback)) yield sentence;
      },
    };
  }
}
