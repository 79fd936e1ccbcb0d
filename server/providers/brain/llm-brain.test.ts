import { afterEach, describe, expect, it } from 'vitest';
import { OpenAIChatClient } from '../llm/chat-client';
import { startFakeChatServer } from '../llm/test-server';
import { LlmBrain } from './llm-brain';
import { PERSONA_FACTS } from './personas';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  while (closers.length) await closers.pop()!();
});

async function collect(it: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const p of it) out.push(p);
  return out;
}

describe('LLM homeowner', () => {
  it('streams the model reply with the persona facts as its system prompt', async () => {
    const fake = await startFakeChatServer(() => ({
      kind: 'stream',
      pieces: ['The roof ', 'leaks. ', 'Who are you?'],
    }));
    closers.push(() => fake.close());
    const brain = new LlmBrain(new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'test-model' }));
    const conv = brain.startConversation({ stage: 'Roofing', seed: 1 });
    const pieces = await collect(conv.reply([{ role: 'user', text: 'hi im with acme roofing' }]));
    expect(pieces.join('')).toBe('The roof leaks. Who are you?');
    expect(pieces.length).toBe(3);
    const sent = fake.requests[0];
    expect(sent.stream).toBe(true);
    expect(sent.messages[0].role).toBe('system');
    expect(sent.messages[0].content).toContain(PERSONA_FACTS.Roofing.household.problem);
    expect(sent.messages[1]).toEqual({ role: 'user', content: 'hi im with acme roofing' });
  });

  it('answers with the scripted homeowner when the model fails before speaking', async () => {
    const fake = await startFakeChatServer(() => ({ kind: 'status', status: 500, body: 'boom' }));
    closers.push(() => fake.close());
    const brain = new LlmBrain(new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'test-model' }));
    const conv = brain.startConversation({ stage: 'General', seed: 1 });
    const text = (await collect(conv.reply([{ role: 'user', text: 'how old is the house' }]))).join('');
    expect(text).toContain('25 years');
  });
});
