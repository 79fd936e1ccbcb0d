import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  coachingProblems,
  GATED_SECTIONS,
  parseCoaching,
  SECTION_TITLES,
} from '../../../core/coaching-format';
import { api, dbKinds, startTestServer, type TestServer } from '../../test-support/harness';
import { startFakeChatServer } from '../llm/test-server';

const T0 = 1_700_000_000_000;
const transcript = [
  {
    role: 'assistant',
    transcript: 'Hi, you must be the roofer.',
    timestamp: T0 + 3000,
    transcriptType: 'final',
  },
  {
    role: 'user',
    transcript: 'I am. Where is the leak showing up?',
    timestamp: T0 + 7000,
    transcriptType: 'final',
  },
  {
    role: 'assistant',
    transcript: 'The back bedroom ceiling, since the storm.',
    timestamp: T0 + 11000,
    transcriptType: 'final',
  },
  {
    role: 'user',
    transcript: 'Sorry to hear that. Have you talked to your insurance?',
    timestamp: T0 + 15000,
    transcriptType: 'final',
  },
];

async function coachOnce(t: TestServer) {
  const created = await api(t.url, 'POST', '/api/sessions', { stage: 'Roofing' });
  const id = created.body.id as string;
  await api(t.url, 'PUT', `/api/sessions/${id}/transcript`, { transcript, duration: '15' });
  return api(t.url, 'POST', `/api/sessions/${id}/coaching`);
}

for (const db of dbKinds) {
  describe(`coaching through the sessions API with a language model that fails, on ${db}`, () => {
    let t: TestServer;
    let fake: Awaited<ReturnType<typeof startFakeChatServer>>;
    beforeAll(async () => {
      fake = await startFakeChatServer(() => ({ kind: 'text', content: 'You did great. 9/10.' }));
      t = await startTestServer({ db, env: { LLM_BASE_URL: fake.baseUrl, LLM_MODEL: 'test-model' } });
    });
    afterAll(async () => {
      await t?.close();
      await fake?.close();
    });

    it('reports the LLM coach on the status page', async () => {
      const health = await api(t.url, 'GET', '/api/status');
      const coach = health.body.engines.find((e: { capability: string }) => e.capability === 'coach');
      expect(coach).toMatchObject({ engine: 'llm:openai-chat', quality: 'enhanced', ok: true });
    });

    it('re-asks once, then answers with the rubric coach, a note and the measured metrics', async () => {
      const before = fake.requests.length;
      const res = await coachOnce(t);
      expect(res.status).toBe(200);
      expect(fake.requests.length - before).toBe(2);
      // Before the email unlock the server withholds the gated sections' scores and words.
      const gated = GATED_SECTIONS.map((k) => SECTION_TITLES[k]);
      expect(
        coachingProblems(parseCoaching(res.body.coaching)).filter((p) => !gated.some((g) => p.includes(g))),
      ).toEqual([]);
      expect(res.body.engine.id).toBe('rubric');
      expect(res.body.note).toMatch(/built-in rubric coach/);
      expect(res.body.metrics).toMatchObject({ version: 1, repWords: 18, questions: { total: 2 } });
    });
  });
}
