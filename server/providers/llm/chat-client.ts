/**
 * A small chat client shared by the LLM engines (coach, homeowner): any OpenAI-compatible
 * chat-completions server (OpenAI, Ollama, vLLM, llama.cpp server) or a local GGUF model.
 * `chat` returns the whole answer; `streamChat` yields it piece by piece.
 */
export interface ChatMessage {
  role: 'system' | 'user' | 'assistant';
  content: string;
}

export interface ChatRequest {
  messages: ChatMessage[];
  signal?: AbortSignal;
  /** chat: the whole answer must arrive within this; streamChat: the first piece, then each gap. */
  timeoutMs?: number;
  temperature?: number;
  maxTokens?: number;
}

export interface ChatClient {
  readonly id: string;
  readonly model: string;
  chat(req: ChatRequest): Promise<string>;
  streamChat(req: ChatRequest): AsyncIterable<string>;
  close?(): Promise<void>;
}

export type LlmErrorKind =
  'timeout' | 'aborted' | 'http' | 'network' | 'bad-response' | 'model-missing' | 'runtime';

export class LlmError extends Error {
  constructor(
    readonly kind: LlmErrorKind,
    message: string,
    readonly status?: number,
  ) {
    super(message);
    this.name = 'LlmError';
  }
}

export interface OpenAIChatOptions {
  baseUrl: string;
  apiKey?: string;
  model: string;
  /** Default per-request limit when the caller gives none. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 60_000;

/** A timer-backed abort that also follows the caller's signal; `touch` restarts the timer. */
function deadline(timeoutMs: number, outer?: AbortSignal) {
  const controller = new AbortController();
  let timedOut = false;
  let timer: NodeJS.Timeout | undefined;
  const arm = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      timedOut = true;
      controller.abort();
    }, timeoutMs);
  };
  const onAbort = () => controller.abort();
  if (outer?.aborted) controller.abort();
  else outer?.addEventListener('abort', onAbort, { once: true });
  arm();
  return {
    signal: controller.signal,
    touch: arm,
    timedOut: () => timedOut,
    done: () => {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
    },
  };
}

function describeFailure(
  err: unknown,
  timedOut: boolean,
  outer: AbortSignal | undefined,
  timeoutMs: number,
): LlmError {
  if (err instanceof LlmError) return err;
  if (timedOut) return new LlmError('timeout', `The language model did not answer within ${timeoutMs} ms`);
  if (outer?.aborted) return new LlmError('aborted', 'The request was cancelled');
  const msg = err instanceof Error ? err.message : String(err);
  return new LlmError('network', `Could not reach the language model: ${msg}`);
}

/** Reads an OpenAI-style server-sent-event stream of chat completion chunks. */
export async function* readChatStream(
  body: ReadableStream<Uint8Array>,
  onChunk?: () => void,
): AsyncIterable<string> {
  const decoder = new TextDecoder();
  let buffer = '';
  for await (const chunk of body as unknown as AsyncIterable<Uint8Array>) {
    onChunk?.();
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
        // Keep-alive comments and partial junk lines are skipped, not fatal.
      }
    }
  }
}

export class OpenAIChatClient implements ChatClient {
  readonly id = 'openai-chat';
  readonly model: string;
  private readonly url: string;

  constructor(private readonly opts: OpenAIChatOptions) {
    this.model = opts.model;
    this.url = `${opts.baseUrl.replace(/\/+$/, '')}/chat/completions`;
  }

  private request(req: ChatRequest, stream: boolean, signal: AbortSignal) {
    return fetch(this.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        ...(this.opts.apiKey ? { authorization: `Bearer ${this.opts.apiKey}` } : {}),
      },
      body: JSON.stringify({
        model: this.model,
        messages: req.messages,
        stream,
        ...(req.temperature !== undefined ? { temperature: req.temperature } : {}),
        ...(req.maxTokens !== undefined ? { max_tokens: req.maxTokens } : {}),
      }),
      signal,
    });
  }

  private static async failure(res: Response): Promise<LlmError> {
    const body = (await res.text().catch(() => '')).slice(0, 300);
    return new LlmError(
      'http',
      `The language model answered ${res.status}${body ? `: ${body}` : ''}`,
      res.status,
    );
  }

  async chat(req: ChatRequest): Promise<string> {
    const timeoutMs = req.timeoutMs ?? this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const d = deadline(timeoutMs, req.signal);
    try {
      const res = await this.request(req, false, d.signal);
      if (!res.ok) throw await OpenAIChatClient.failure(res);
      const json = (await res.json().catch(() => null)) as {
        choices?: { message?: { content?: unknown } }[];
      } | null;
      const content = json?.choices?.[0]?.message?.content;
      if (typeof content !== 'string')
        throw new LlmError('bad-response', 'The language model sent no message content');
      return content;
    } catch (err) {
      throw describeFailure(err, d.timedOut(), req.signal, timeoutMs);
    } finally {
      d.done();
    }
  }

  async *streamChat(req: ChatRequest): AsyncIterable<string> {
    const timeoutMs = req.timeoutMs ?? this.opts.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    const d = deadline(timeoutMs, req.signal);
    try {
      const res = await this.request(req, true, d.signal);
      if (!res.ok) throw await OpenAIChatClient.failure(res);
      if (!res.body) throw new LlmError('bad-response', 'The language model sent an empty stream');
      for await (const piece of readChatStream(res.body, d.touch)) {
        d.touch();
        yield piece;
      }
    } catch (err) {
      throw describeFailure(err, d.timedOut(), req.signal, timeoutMs);
    } finally {
      d.done();
    }
  }
}
