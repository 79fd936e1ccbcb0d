import { afterEach, describe, expect, it } from 'vitest';
import { LlmError, OpenAIChatClient } from './chat-client';
import { LlamaCppChatClient } from './llama-cpp';
import { chooseLlm } from './index';
import { startFakeChatServer } from './test-server';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const messages = [{ role: 'user' as const, content: 'Hello' }];

describe('OpenAI-compatible chat client', () => {
  it('sends the model, messages and key, and returns the answer', async () => {
    const fake = await startFakeChatServer(() => ({ kind: 'text', content: 'Hi there' }));
    close = fake.close;
    const client = new OpenAIChatClient({ baseUrl: fake.baseUrl, apiKey: 'k-123', model: 'tiny' });
    expect(await client.chat({ messages })).toBe('Hi there');
    expect(fake.requests[0]).toMatchObject({
      model: 'tiny',
      messages,
      stream: false,
      authorization: 'Bearer k-123',
    });
  });

  it('streams pieces in order', async () => {
    const fake = await startFakeChatServer(() => ({ kind: 'stream', pieces: ['Wel', 'come ', 'in'] }));
    close = fake.close;
    const client = new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'tiny' });
    const got: string[] = [];
    for await (const p of client.streamChat({ messages })) got.push(p);
    expect(got).toEqual(['Wel', 'come ', 'in']);
    expect(fake.requests[0].stream).toBe(true);
  });

  it('reports an HTTP error with its status and body', async () => {
    const fake = await startFakeChatServer(() => ({ kind: 'status', status: 401, body: 'bad key' }));
    close = fake.close;
    const client = new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'tiny' });
    const err = await client.chat({ messages }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(err).toMatchObject({ kind: 'http', status: 401 });
    expect((err as Error).message).toContain('bad key');
  });

  it('times out a server that never answers', async () => {
    const fake = await startFakeChatServer(() => ({ kind: 'hang' }));
    close = fake.close;
    const client = new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'tiny' });
    await expect(client.chat({ messages, timeoutMs: 150 })).rejects.toMatchObject({ kind: 'timeout' });
    const stream = async () => {
      for await (const _ of client.streamChat({ messages, timeoutMs: 150 })) void _;
    };
    await expect(stream()).rejects.toMatchObject({ kind: 'timeout' });
  });

  it('stops when the caller aborts', async () => {
    const fake = await startFakeChatServer(() => ({ kind: 'hang' }));
    close = fake.close;
    const client = new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'tiny' });
    const controller = new AbortController();
    const pending = client.chat({ messages, signal: controller.signal, timeoutMs: 10_000 });
    setTimeout(() => controller.abort(), 20);
    await expect(pending).rejects.toMatchObject({ kind: 'aborted' });
  });

  it('says so when nothing listens at the address', async () => {
    const client = new OpenAIChatClient({ baseUrl: 'http://127.0.0.1:9/v1', model: 'tiny' });
    await expect(client.chat({ messages, timeoutMs: 5000 })).rejects.toMatchObject({ kind: 'network' });
  });
});

describe('node-llama-cpp client', () => {
  it('fails with a clear message when the GGUF file is missing', async () => {
    const client = new LlamaCppChatClient('/nonexistent/model.gguf');
    const err = await client.chat({ messages }).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'model-missing' });
    expect((err as Error).message).toMatch(/LLM_GGUF_PATH points to .*model\.gguf, which does not exist/);
  });
});

describe('chooseLlm', () => {
  it('prefers an OpenAI-compatible server, then a GGUF file, and explains half-set config', () => {
    expect(
      chooseLlm({
        LLM_BASE_URL: 'http://x/v1',
        LLM_MODEL: 'm',
        LLM_API_KEY: undefined,
        LLM_GGUF_PATH: undefined,
      }).client?.id,
    ).toBe('openai-chat');
    const missing = chooseLlm({
      LLM_BASE_URL: undefined,
      LLM_MODEL: undefined,
      LLM_API_KEY: undefined,
      LLM_GGUF_PATH: '/nope.gguf',
    });
    expect(missing.client).toBeNull();
    expect(missing.reason).toContain('does not exist');
    expect(
      chooseLlm({
        LLM_BASE_URL: 'http://x/v1',
        LLM_MODEL: undefined,
        LLM_API_KEY: undefined,
        LLM_GGUF_PATH: undefined,
      }).reason,
    ).toContain('LLM_MODEL');
    expect(
      chooseLlm({
        LLM_BASE_URL: undefined,
        LLM_MODEL: undefined,
        LLM_API_KEY: undefined,
        LLM_GGUF_PATH: undefined,
      }).client,
    ).toBeNull();
  });
});
