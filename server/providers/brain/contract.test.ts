import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STAGES } from '../../../core/stages';
import { OpenAIChatClient } from '../llm/chat-client';
import { startFakeChatServer } from '../llm/test-server';
import { FakeBrain } from './fake';
import { LlmBrain } from './llm-brain';
import { scriptedBrain } from './scripted';
import type { BrainTurn, PersonaBrain } from './types';

/**
 * The suite every homeowner engine passes: each stage opens with a line, a rep turn gets a reply
 * streamed in pieces, a conversation starts neither finished nor ending, and a cancelled reply
 * gives nothing. The LLM brain runs against a local OpenAI-compatible server, so nothing here
 * needs a model or the network.
 */

// A well-behaved model: one short homeowner line, streamed.
let fake: Awaited<ReturnType<typeof startFakeChatServer>>;
beforeAll(async () => {
  fake = await startFakeChatServer(() => ({
    kind: 'stream',
    pieces: ['We had the windows ', 'done ten years ago. ', 'What would you change?'],
  }));
});
afterAll(async () => {
  await fake?.close();
});

/** Each engine, and words its reply must hold when it (not a fallback) answered. */
const engines: [string, () => PersonaBrain, RegExp][] = [
  ['scripted', () => scriptedBrain, /\w/],
  ['fake', () => new FakeBrain(), /How old are your windows/],
  [
    'llm (OpenAI-compatible)',
    () => new LlmBrain(new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'm' })),
    /ten years ago/,
  ],
];

async function collect(pieces: AsyncIterable<string>): Promise<string[]> {
  const out: string[] = [];
  for await (const p of pieces) out.push(p);
  return out;
}

describe.each(engines)('homeowner contract: %s', (_name, make, answered) => {
  it('names itself and opens every stage with a line', () => {
    const brain = make();
    expect(brain.id).toMatch(/\S/);
    expect(brain.label).toMatch(/\S/);
    for (const stage of STAGES) {
      const conversation = brain.startConversation({ stage, seed: 7 });
      expect(conversation.opening().trim().length).toBeGreaterThan(0);
      expect(conversation.finished ?? false).toBe(false);
      expect(conversation.endCall ?? null).toBeNull();
    }
  });

  it("streams a reply to the rep's turn", async () => {
    const conversation = make().startConversation({ stage: 'Windows', seed: 7 });
    const history: BrainTurn[] = [
      { role: 'assistant', text: conversation.opening() },
      { role: 'user', text: 'Hi, I am with the window company. How old are your windows?' },
    ];
    const pieces = await collect(conversation.reply(history));
    expect(pieces.length).toBeGreaterThan(0);
    for (const p of pieces) expect(typeof p).toBe('string');
    const reply = pieces.join('').trim();
    expect(reply).toMatch(answered);
    // The homeowner's words only: no speaker labels or markup for the voice to read out.
    expect(reply).not.toMatch(/^(assistant|homeowner|user)\s*:/i);
    expect(reply).not.toMatch(/[<>{}]/);
  });

  it('gives nothing for a cancelled reply', async () => {
    const conversation = make().startConversation({ stage: 'HVAC', seed: 7 });
    const abort = new AbortController();
    abort.abort();
    const pieces = await collect(
      conversation.reply([{ role: 'user', text: 'How is your furnace doing?' }], { signal: abort.signal }),
    );
    expect(pieces.join('').trim()).toBe('');
  });
});
