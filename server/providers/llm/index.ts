import type { Config } from '../../env';
import { OpenAIChatClient, type ChatClient } from './chat-client';
import { checkGgufPath, LlamaCppChatClient } from './llama-cpp';

export * from './chat-client';
export { checkGgufPath, LlamaCppChatClient } from './llama-cpp';

export type LlmChoice =
  { client: ChatClient; reason: string } | { client: null; reason: string; misconfigured: boolean };

/**
 * The language model the configuration asks for: an OpenAI-compatible server when
 * LLM_BASE_URL and LLM_MODEL are set, else a local GGUF file (LLM_GGUF_PATH), else none.
 * A half-finished setting comes back with a reason that says what to fix.
 */
export function chooseLlm(
  config: Pick<Config, 'LLM_BASE_URL' | 'LLM_API_KEY' | 'LLM_MODEL' | 'LLM_GGUF_PATH'>,
): LlmChoice {
  if (config.LLM_BASE_URL && config.LLM_MODEL) {
    return {
      client: new OpenAIChatClient({
        baseUrl: config.LLM_BASE_URL,
        apiKey: config.LLM_API_KEY,
        model: config.LLM_MODEL,
      }),
      reason: `LLM_BASE_URL and LLM_MODEL are set (${config.LLM_MODEL})`,
    };
  }
  if (config.LLM_GGUF_PATH) {
    const problem = checkGgufPath(config.LLM_GGUF_PATH);
    if (problem) return { client: null, reason: problem, misconfigured: true };
    return {
      client: new LlamaCppChatClient(config.LLM_GGUF_PATH),
      reason: `LLM_GGUF_PATH is set (${config.LLM_GGUF_PATH})`,
    };
  }
  if (config.LLM_BASE_URL) {
    return {
      client: null,
      reason: 'LLM_BASE_URL is set but LLM_MODEL is not; set LLM_MODEL to the model name to use',
      misconfigured: true,
    };
  }
  return { client: null, reason: 'No language model configured', misconfigured: false };
}
