import fs from 'node:fs';
import path from 'node:path';
import { LlmError, type ChatClient, type ChatRequest } from './chat-client';
import { PushQueue } from '../../push-queue';

/**
 * A local GGUF model through node-llama-cpp (CPU only). The model loads once, on first use,
 * and is shared by every caller in the process; requests run one at a time on one sequence.
 */
export function checkGgufPath(ggufPath: string): string | null {
  const resolved = path.resolve(ggufPath);
  if (!fs.existsSync(resolved)) {
    return `LLM_GGUF_PATH points to ${resolved}, which does not exist. Download a GGUF chat model (for example a small instruct model) and set LLM_GGUF_PATH to its file, or unset it.`;
  }
  if (!fs.statSync(resolved).isFile()) return `LLM_GGUF_PATH points to ${resolved}, which is not a file.`;
  return null;
}

type Loaded = {
  session: import('node-llama-cpp').LlamaChatSession;
  dispose: () => Promise<void>;
};

export class LlamaCppChatClient implements ChatClient {
  readonly id = 'node-llama-cpp';
  readonly model: string;
  private loading: Promise<Loaded> | null = null;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly ggufPath: string) {
    this.model = path.basename(ggufPath);
  }

  private load(): Promise<Loaded> {
    if (!this.loading) {
      this.loading = (async () => {
        const problem = checkGgufPath(this.ggufPath);
        if (problem) throw new LlmError('model-missing', problem);
        try {
          const { getLlama, LlamaChatSession } = await import('node-llama-cpp');
          const llama = await getLlama({ gpu: false });
          const model = await llama.loadModel({ modelPath: path.resolve(this.ggufPath) });
          const context = await model.createContext();
          const session = new LlamaChatSession({ contextSequence: context.getSequence() });
          return {
            session,
            dispose: async () => {
              await context.dispose();
              await model.dispose();
            },
          };
        } catch (err) {
          throw new LlmError(
            'runtime',
            `node-llama-cpp could not load ${this.ggufPath}: ${err instanceof Error ? err.message : String(err)}`,
          );
        }
      })();
      // A failed load may be retried later (the file may appear), so forget the failure.
      this.loading.catch(() => {
        this.loading = null;
      });
    }
    return this.loading;
  }

  /** Runs one prompt with the whole message history; pieces go to onPiece as they arrive. */
  private run(req: ChatRequest, onPiece?: (piece: string) => void): Promise<string> {
    const task = async () => {
      const { session } = await this.load();
      const history = req.messages.slice(0, -1);
      const last = req.messages[req.messages.length - 1];
      if (!last || last.role !== 'user')
        throw new LlmError('bad-response', 'The last message must be from the user');
      session.setChatHistory(
        history.map((m) =>
          m.role === 'system'
            ? { type: 'system' as const, text: m.content }
            : m.role === 'user'
              ? { type: 'user' as const, text: m.content }
              : { type: 'model' as const, response: [m.content] },
        ),
      );
      const controller = new AbortController();
      let timedOut = false;
      const timer = req.timeoutMs
        ? setTimeout(() => {
            timedOut = true;
            controller.abort();
          }, req.timeoutMs)
        : undefined;
      const onAbort = () => controller.abort();
      req.signal?.addEventListener('abort', onAbort, { once: true });
      try {
        return await session.prompt(last.content, {
          signal: controller.signal,
          maxTokens: req.maxTokens,
          temperature: req.temperature,
          onTextChunk: onPiece,
        });
      } catch (err) {
        if (timedOut)
          throw new LlmError('timeout', `The local model did not answer within ${req.timeoutMs} ms`);
        if (req.signal?.aborted) throw new LlmError('aborted', 'The request was cancelled');
        throw err instanceof LlmError ? err : new LlmError('runtime', String(err));
      } finally {
        clearTimeout(timer);
        req.signal?.removeEventListener('abort', onAbort);
      }
    };
    const next = this.queue.then(task, task);
    this.queue = next.catch(() => undefined);
    return next;
  }

  chat(req: ChatRequest): Promise<string> {
    return this.run(req);
  }

  async *streamChat(req: ChatRequest): AsyncIterable<string> {
    const pieces = new PushQueue<string>();
    void this.run(req, (p) => pieces.push(p)).then(
      () => pieces.end(),
      (err) => pieces.fail(err),
    );
    yield* pieces;
  }

  async close(): Promise<void> {
    const loading = this.loading;
    this.loading = null;
    if (loading) await loading.then((l) => l.dispose()).catch(() => undefined);
  }
}
