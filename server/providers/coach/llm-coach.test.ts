import { afterEach, describe, expect, it } from 'vitest';
import { coachingProblems, parseCoaching } from '../../../core/coaching-format';
import type { TranscriptEntry } from '../../../core/transcript';
import { loadConfig } from '../../env';
import { OpenAIChatClient } from '../llm/chat-client';
import { LlamaCppChatClient } from '../llm/llama-cpp';
import { startFakeChatServer } from '../llm/test-server';
import { selectCoach } from './index';
import { extractCoaching, LlmCoach } from './llm-coach';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

const t0 = 1_700_000_000_000;
const transcript: TranscriptEntry[] = [
  { role: 'assistant', transcript: 'Hi, you must be the window person.', timestamp: t0 + 3000 },
  { role: 'user', transcript: 'I am. What got you thinking about new windows?', timestamp: t0 + 7000 },
  {
    role: 'assistant',
    transcript: 'The back bedroom is freezing and the road noise is awful.',
    timestamp: t0 + 12000,
  },
  {
    role: 'user',
    transcript: 'That sounds rough. How long are you planning to stay in the house?',
    timestamp: t0 + 17000,
  },
  { role: 'assistant', transcript: 'Ten years at least.', timestamp: t0 + 19000 },
];

const VALID = `**Summary**
A warm start with a good open question. Change: ask about budget; book a firm next step.

---

**Best: Open question**
Score: 8/10
> "What got you thinking about new windows?"

---

**To Improve: Empathy and Connection**
Score: 7/10
> "That sounds rough."

---

**To Improve: Needs Analysis**
Score: 7/10
Good start.

---

**To Improve: Exploring Options**
Score: 2/10
No options yet.

---

**To Improve: Objection Handling**
Score: 5/10
Handle the worry behind the noise before the price.

---

**To Improve: Closing**
Score: 1/10
No ask.

---

**Follow-Up**
Score: 1/10
No next step.
`;

const MALFORMED = 'Great call! You did well overall. Score: 9 out of 10.';

async function coachWith(replies: (n: number) => import('../llm/test-server').FakeReply, timeoutMs = 5000) {
  const fake = await startFakeChatServer((_req, n) => replies(n));
  close = fake.close;
  const coach = new LlmCoach(new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'test-model' }), {
    timeoutMs,
  });
  const result = await coach.coach({ stage: 'Windows', transcript, durationSec: 20, personaName: 'Linda' });
  return { result, fake };
}

describe('LLM coach over an OpenAI-compatible server', () => {
  it('uses a valid answer and sends the transcript and measured metrics', async () => {
    const { result, fake } = await coachWith(() => ({ kind: 'text', content: '```\n' + VALID + '\n```' }));
    expect(result.engine).toBe('llm:openai-chat');
    expect(result.note).toBeUndefined();
    const doc = parseCoaching(result.text);
    expect(coachingProblems(doc)).toEqual([]);
    expect(doc?.best?.title).toBe('Open question');
    expect(fake.requests).toHaveLength(1);
    const prompt = fake.requests[0].messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('Rep: That sounds rough.');
    expect(prompt).toContain('Linda: Ten years at least.');
    expect(prompt).toMatch(/Your talk time: \d+% of words/);
    expect(prompt).toContain('Value Comparison / Skeptical');
  });

  it('gives the model the evidence the rubric found', async () => {
    const { fake } = await coachWith(() => ({ kind: 'text', content: VALID }));
    const prompt = JSON.stringify(fake.requests[0].messages);
    expect(prompt).toContain('Evidence the rule-based analysis found');
  });

  it('replaces a malformed section, or one quoting words the rep never said, with the rubric section', async () => {
    const broken = VALID.replace('Score: 2/10\nNo options yet.', 'No options yet.').replace(
      '> "That sounds rough."',
      '> "The back bedroom is freezing"',
    );
    const { result, fake } = await coachWith(() => ({ kind: 'text', content: broken }));
    expect(fake.requests).toHaveLength(1);
    expect(result.engine).toBe('llm:openai-chat');
    expect(result.note).toMatch(/Empathy and Connection, Exploring Options sections were unusable/);
    const doc = parseCoaching(result.text)!;
    expect(coachingProblems(doc)).toEqual([]);
    expect(doc.sections.find((x) => x.key === 'needsAnalysis')!.content).toBe('Good start.');
    expect(result.text).not.toContain('> "The back bedroom is freezing"');
    expect(doc.best!.score).toBe(Math.max(...doc.sections.map((x) => x.score ?? 0)));
  });

  it('re-asks once after a malformed answer, naming the problems', async () => {
    const { result, fake } = await coachWith((n) => ({ kind: 'text', content: n === 1 ? MALFORMED : VALID }));
    expect(fake.requests).toHaveLength(2);
    const retry = fake.requests[1].messages;
    expect(retry[retry.length - 2]).toMatchObject({ role: 'assistant', content: MALFORMED });
    expect(retry[retry.length - 1].content).toContain('Summary');
    expect(result.engine).toBe('llm:openai-chat');
    expect(result.note).toBeUndefined();
  });

  it('falls back to the rubric coach, with a note, after two malformed answers', async () => {
    const { result, fake } = await coachWith(() => ({ kind: 'text', content: MALFORMED }));
    expect(fake.requests).toHaveLength(2);
    expect(result.engine).toBe('rubric');
    expect(result.note).toMatch(/did not follow the coaching format.*built-in rubric coach/);
    expect(coachingProblems(parseCoaching(result.text))).toEqual([]);
    expect(result.metrics).toMatchObject({ version: 1, repWords: expect.any(Number) });
  });

  it('falls back when the model times out, without a second attempt', async () => {
    const { result, fake } = await coachWith(() => ({ kind: 'hang' }), 200);
    expect(fake.requests).toHaveLength(1);
    expect(result.engine).toBe('rubric');
    expect(result.note).toMatch(/did not answer within 200 ms/);
    expect(coachingProblems(parseCoaching(result.text))).toEqual([]);
  });

  it('streams the answer and gives up on one that takes too long overall', async () => {
    const fake = await startFakeChatServer(() => ({
      kind: 'stream',
      pieces: VALID.match(/[\s\S]{1,200}/g) ?? [],
      gapMs: 80,
    }));
    close = fake.close;
    const client = new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'slow' });
    const slow = await new LlmCoach(client, { timeoutMs: 5000, totalTimeoutMs: 150 }).coach({
      stage: 'Windows',
      transcript,
    });
    expect(fake.requests[0].stream).toBe(true);
    expect(slow.engine).toBe('rubric');
    expect(slow.note).toMatch(/took longer than 150 ms/);
    const patient = await new LlmCoach(client, { timeoutMs: 5000, totalTimeoutMs: 60_000 }).coach({
      stage: 'Windows',
      transcript,
    });
    expect(patient.engine).toBe('llm:openai-chat');
  });

  it('falls back when the server answers with an error', async () => {
    const { result } = await coachWith(() => ({ kind: 'status', status: 500, body: 'model crashed' }));
    expect(result.engine).toBe('rubric');
    expect(result.note).toContain('500');
    // What the model's server said is for the operator's log, not the rep's screen.
    expect(result.note).not.toContain('model crashed');
  });

  it('falls back when the model cannot be reached, without naming its host to the rep', async () => {
    const lines: string[] = [];
    const client = new OpenAIChatClient({ baseUrl: 'http://127.0.0.1:9/v1', model: 'gone' });
    const result = await new LlmCoach(client, {
      log: { warn: (o: object) => lines.push(JSON.stringify(o)) },
    }).coach({ stage: 'Windows', transcript });
    expect(result.engine).toBe('rubric');
    expect(result.note).toMatch(/could not be reached/);
    expect(result.note).not.toContain('127.0.0.1');
    expect(lines.join('\n')).toContain('Could not reach the language model');
  });
});

describe('LLM coach over node-llama-cpp', () => {
  it('falls back to the rubric coach with a clear note when the GGUF file is missing', async () => {
    const coach = new LlamaCppChatClient('/missing/dir/coach.gguf');
    const result = await new LlmCoach(coach).coach({ stage: 'Roofing', transcript });
    expect(result.engine).toBe('rubric');
    expect(result.note).toMatch(/its model is not installed on this server/);
    expect(result.note).not.toContain('/missing/dir');
    expect(coachingProblems(parseCoaching(result.text))).toEqual([]);
  });
});

describe('extractCoaching', () => {
  it('drops a preamble and code fences', () => {
    expect(extractCoaching('Sure! Here is the coaching:\n\n**Summary**\nHi')).toBe('**Summary**\nHi');
    expect(extractCoaching('```markdown\n## Summary\nHi\n```')).toBe('## Summary\nHi');
  });
});

describe('selectCoach', () => {
  it('is the rubric coach without an LLM, with an upgrade hint', async () => {
    const { engine, info } = await selectCoach(loadConfig({}));
    expect(engine.id).toBe('rubric');
    expect(info).toMatchObject({
      capability: 'coach',
      quality: 'basic',
      label: 'Built-in rubric coach',
      ok: true,
    });
    expect(info.upgradeHint).toContain('LLM_BASE_URL');
  });

  it('is the LLM coach when LLM_BASE_URL and LLM_MODEL are set', async () => {
    const { engine, info } = await selectCoach(
      loadConfig({ LLM_BASE_URL: 'http://127.0.0.1:1/v1', LLM_MODEL: 'm' }),
    );
    expect(engine.id).toBe('llm:openai-chat');
    expect(info.quality).toBe('enhanced');
  });

  it('explains a missing GGUF file and keeps the rubric coach', async () => {
    const { engine, info } = await selectCoach(loadConfig({ LLM_GGUF_PATH: '/missing/coach.gguf' }));
    expect(engine.id).toBe('rubric');
    expect(info.reason).toContain('/missing/coach.gguf, which does not exist');
  });
});

describe('the grounding check on a language model’s coaching', () => {
  const widow: TranscriptEntry[] = [
    {
      role: 'assistant',
      transcript: 'Come in. My husband passed in March, so it is just me now.',
      timestamp: t0 + 3000,
    },
    {
      role: 'user',
      transcript: 'I am so sorry. What is going on with the roof since the storm?',
      timestamp: t0 + 8000,
    },
    {
      role: 'assistant',
      transcript: 'There is a stain on the ceiling and it drips when it rains.',
      timestamp: t0 + 13000,
    },
    {
      role: 'user',
      transcript: 'A repair is about twenty-four hundred. Could I come back Thursday at ten to go over it?',
      timestamp: t0 + 19000,
    },
    { role: 'assistant', transcript: 'Thursday at ten works.', timestamp: t0 + 22000 },
  ];
  const answer = VALID.replace(
    '**Follow-Up**\nScore: 1/10\nNo next step.',
    '**Follow-Up**\nScore: 8/10\nYou booked a visit. Text Linda what you agreed: Tuesday, with your husband there too. Name who comes.',
  ).replace(
    '**Best: Open question**\nScore: 8/10',
    '**Best: A firm close**\nScore: 8/10\nYour best area was Closing.',
  );

  it('drops the sentences the call does not support before a rep sees them', async () => {
    const fake = await startFakeChatServer(() => ({ kind: 'text', content: answer }));
    close = fake.close;
    const coach = new LlmCoach(new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'test-model' }));
    const result = await coach.coach({ stage: 'Roofing', transcript: widow, personaName: 'Linda' });
    const doc = parseCoaching(result.text)!;
    const follow = doc.sections.find((s) => s.key === 'followUp')!.content;
    expect(follow).toContain('You booked a visit.');
    expect(follow).toContain('Name who comes.');
    expect(follow).not.toMatch(/husband|Tuesday/);
    expect(doc.best?.content ?? '').not.toContain('Closing');
  });

  it('tells the model how the call reached the coach', async () => {
    const fake = await startFakeChatServer(() => ({ kind: 'text', content: VALID }));
    close = fake.close;
    const coach = new LlmCoach(new OpenAIChatClient({ baseUrl: fake.baseUrl, model: 'test-model' }));
    await coach.coach({
      stage: 'General',
      transcript,
      source: 'recording',
      input: 'typed',
      recognition: 'basic',
    });
    const prompt = fake.requests[0].messages.map((m) => m.content).join('\n');
    expect(prompt).toContain('not a role-play');
    expect(prompt).not.toContain('Friendly & Curious');
    expect(prompt).toContain('say nothing about speaking pace');
    expect(prompt).toContain('quotes are approximate');
    expect(prompt).not.toMatch(/Speaking pace:|Patience:/);
  });
});
