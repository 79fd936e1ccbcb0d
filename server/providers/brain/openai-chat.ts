import type { Stage } from '../../../core/stages';
import { PERSONA_FACTS } from './personas';
import { personaSystemPrompt } from './prompt';
import { ScriptedConversation } from './scripted';
import type { BrainConversation, BrainTurn, PersonaBrain } from './types';

export interface ChatBrainOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Give up on the first token after this long and answer with the scripted engine. */
  firstTokenTimeoutMs?: number;
}

/** Reads an OpenAI-style server-sent-event stream of chat completion chunks. */
export async function* streamChatDeltas(body: ReadableStream<Uint8Array>): AsyncIterable<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    buffer += decoder.decode(chunk, { stream: true });
    let newline: number;
    while ((newline = buffer.indexOf('\n')) >= 0) {
      const line = buffer.slice(0, newline).trim();
      buffer = buffer.slice(newline + 1);
      if (!line.startsWith('data:')) continue;
      const data = line.slice(5).trim();
      if (data === '[DONE]') return;
      try {
        const parsed = JSON.parse(data) as { choices?: { delta?: { content?: string } }[] };
        const piece = parsed.choices?.[0]?.delta?.content;
        if (piece) yield piece;
      } catch {
        // A malformed keep-alive line is skipped rather than ending the reply.
      }
    }
  }
}

/** The homeowner played by any OpenAI-compatible chat completions API, streamed token by token. */
export class ChatCompletionsBrain implements PersonaBrain {
  readonly id = 'openai-chat';
  readonly label: string;

  constructor(private readonly opts: ChatBrainOptions) {
    this.label = `LLM homeowner (${opts.model})`;
  }

  startConversation({ stage, seed }: { stage: Stage; seed?: number }): BrainConversation {
    const facts = PERSONA_FACTS[stage];
    const system = personaSystemPrompt(facts);
    // The scripted engine answers when the LLM fails mid-call, so the call goes on.
    const fallback = new ScriptedConversation(stage, seed ?? Date.now());
    const opts = this.opts;
    return {
      opening: () => fallback.opening(),
      async *reply(history: BrainTurn[], replyOpts: { signal?: AbortSignal } = {}) {
        const messages = [
          { role: 'system', content: system },
          ...history.map((t) => ({ role: t.role, content: t.text })),
        ];
        const controller = new AbortController();
        const onAbort = () => controller.abort();
        replyOpts.signal?.addEventListener('abort', onAbort);
        const timer = setTimeout(() => controller.abort(), opts.firstTokenTimeoutMs ?? 8000);
        let gotAny = false;
        try {
          const res = await fetch(`${opts.baseUrl.replace(/\/$/, '')}/chat/completions`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              ...(opts.apiKey ? { authorization: `Bearer ${opts.apiKey}` } : {}),
            },
            body: JSON.stringify({
              model: opts.model,
              messages,
              stream: true,
              temperature: 0.8,
              max_tokens: 120,
            }),
            signal: controller.signal,
          });
          if (!res.ok || !res.body) throw new Error(`chat completions answered ${res.status}`);
          for await (const piece of streamChatDeltas(res.body)) {
            if (!gotAny) clearTimeout(timer);
            gotAny = true;
            yield piece;
          }
        } catch (err) {
          if (replyOpts.signal?.aborted) return;
          if (gotAny) return;
          void err;
          yield* fallback.reply(history, replyOpts);
        } finally {
          clearTimeout(timer);
          replyOpts.signal?.removeEventListener('abort', onAbort);
        }
      },
    };
  }
}
