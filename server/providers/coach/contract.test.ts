import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { coachingProblems, GATED_SECTIONS, parseCoaching, SECTION_KEYS } from '../../../core/coaching-format';
import { isConversationMetrics } from '../../../core/conversation-metrics';
import { normalizeText } from '../../understanding/text/normalise';
import type { TranscriptEntry } from '../../../core/transcript';
import { OpenAIChatClient } from '../llm/chat-client';
import { startFakeChatServer } from '../llm/test-server';
import { FakeCoach } from './fake-coach';
import { LlmCoach } from './llm-coach';
import { RubricCoach } from './rubric-coach';
import type { Coach } from './types';

/**
 * The suite every coach engine passes: the answer parses with the spec's parser, every
 * section carries an integer score, metrics come back, and a cancelled request stops.
 */
const T0 = 1_700_000_000_000;
const transcript: TranscriptEntry[] = [
  { role: 'assistant', transcript: 'Hello? Oh, the flooring person.', timestamp: T0 + 3000 },
  {
    role: 'user',
    transcript: 'Hi, thanks for having me. How do you use this room day to day?',
    timestamp: T0 + 8000,
  },
  { role: 'assistant', transcript: 'Kids and a dog, so it gets wrecked.', timestamp: T0 + 11000 },
  {
    role: 'user',
    transcript: 'Ha, I get it. Would you like to see a tougher vinyl at about four thousand?',
    timestamp: T0 + 16000,
  },
];

// An LLM that writes the coaching the rubric coach would (a well-behaved model).
let fake: Awaited<ReturnType<typeof startFakeChatServer>>;
beforeAll(async () => {
  const good = (await new RubricCoach().coach({ stage: 'Flooring', transcript })).text;
  fake = await startFakeChatServer(() => ({ kind: 'text', content: good }));
});
afterAll(async () => {
  await fake?.close();
});

const engines: [string, () => Coach][] = [
  ['rubric', () => new RubricCoach()],
  ['fake', () => new FakeCoach({ closing: 9, empathy: 3 })],
  [
    'llm (OpenAI-compatible)',
    () => new LlmCoach(new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'm' })),
  ],
];

describe.each(engines)('coach contract: %s', (_name, make) => {
  it('answers in the spec format with integer scores and metrics', async () => {
    const result = await make().coach({
      stage: 'Flooring',
      transcript,
      durationSec: 16,
      personaName: 'Priya',
    });
    const doc = parseCoaching(result.text);
    expect(coachingProblems(doc)).toEqual([]);
    for (const key of SECTION_KEYS) {
      const s = doc!.sections.find((x) => x.key === key)!;
      expect(Number.isInteger(s.score)).toBe(true);
      expect(s.score).toBeGreaterThanOrEqual(0);
      expect(s.score).toBeLessThanOrEqual(10);
    }
    expect(isConversationMetrics(result.metrics)).toBe(true);
    expect(result.engine).toBeTruthy();
    // Best, when there is one, is an open section that scored 6 or more; every quote is the rep's.
    if (doc!.best) {
      const open = doc!.sections.filter((s) => !GATED_SECTIONS.includes(s.key));
      expect(doc!.best.score).toBeGreaterThanOrEqual(6);
      expect(open.map((s) => s.score)).toContain(doc!.best.score);
    }
    const rep = normalizeText(
      transcript
        .filter((e) => e.role === 'user')
        .map((e) => e.transcript)
        .join(' '),
    );
    for (const line of result.text.split('\n').filter((l) => l.trim().startsWith('>')))
      expect(rep).toContain(normalizeText(line.replace(/^\s*>\s*/, '').replace(/\.\.\."?$/, '')));
  });

  it('stops when the request is cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      make().coach({ stage: 'Flooring', transcript }, { signal: controller.signal }),
    ).rejects.toThrow();
  });
});
