import type { Stage } from '../../../core/stages';
import type { ChatClient } from '../llm/chat-client';
import { PERSONA_FACTS } from './personas';
import { personaSystemPrompt } from './prompt';
import { ScriptedConversation } from './scripted';
import type { BrainConversation, BrainTurn, PersonaBrain } from './types';

/** A reply slower than this to start is answered by the scripted homeowner instead. */
const FIRST_TOKEN_TIMEOUT_MS = 6000;

/**
 * The homeowner played by a language model (any OpenAI-compatible chat server, or a local
 * GGUF model through node-llama-cpp): the persona facts become the system prompt and the
 * reply is streamed. If the model fails before saying anything, the scripted homeowner
 * answers that turn so the call goes on.
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
    const fallback = new ScriptedConversation(stage, seed ?? Date.now());
    const client = this.client;
    return {
      opening: () => fallback.opening(),
      async *reply(history: BrainTurn[], opts: { signal?: AbortSignal } = {}) {
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
            said = true;
            yield piece;
          }
        } catch (err) {
          if (opts.signal?.aborted || said) return;
          void err;
          yield* fallback.reply(history, opts);
        }
      },
    };
  }
}
