import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { audioSessions, sessions } from '../db/schema';
import { TRANSCRIPTION_UNAVAILABLE_MESSAGE } from '../domain/audio/transcription';
import { api, sharedDir, startTestServer, waitFor, type TestServer } from '../test-support/harness';

/**
 * What a rep's browser receives about engines: at most which engine served, by a plain name. Set-up
 * hints (commands, settings, paths) are for operators and live on /api/status only.
 */
const OPERATOR_TALK =
  /upgradeHint|npm run|STT_PROVIDER|LLM_BASE_URL|LLM_MODEL|SMTP_URL|setup\)|(^|[\s"'(=])\/[\w.-]+\/[\w.-]+/;

const PLAIN_ENGINE_KEYS = ['id', 'label', 'quality'];

const transcript = [
  { role: 'assistant', transcript: 'Hi, you must be here about the windows.', timestamp: 1000 },
  { role: 'user', transcript: 'I am. What got you thinking about new windows?', timestamp: 5000 },
  { role: 'assistant', transcript: 'The back bedroom is freezing all winter.', timestamp: 9000 },
  { role: 'user', transcript: 'That sounds rough. How long have you noticed it?', timestamp: 13000 },
];

const STALE_HINT = 'Set LLM_BASE_URL and LLM_MODEL (or LLM_GGUF_PATH) to coach with a language model';

describe('rep-facing responses carry no operator set-up hints', () => {
  let t: TestServer | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  it('coaching names its engine plainly while /api/status keeps the hint for operators', async () => {
    t = await startTestServer();
    const { body: session } = await api(t.url, 'POST', '/api/sessions', { stage: 'Windows' });
    await api(t.url, 'PUT', `/api/sessions/${session.id}/transcript`, { transcript, duration: '60' });
    const res = await api(t.url, 'POST', `/api/sessions/${session.id}/coaching`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.engine).sort()).toEqual(PLAIN_ENGINE_KEYS);
    expect(JSON.stringify(res.body)).not.toMatch(OPERATOR_TALK);
    const again = await api(t.url, 'POST', `/api/sessions/${session.id}/coaching`);
    expect(again.body.engine).toEqual(res.body.engine);

    // The operator still learns how to get a better coach (development: open without a token).
    const status = await api(t.url, 'GET', '/api/status');
    const coach = status.body.engines.find((e: any) => e.capability === 'coach');
    expect(coach.upgradeHint).toMatch(/LLM_BASE_URL/);
  });

  it('rows stored with a hint or a technical failure leave without them', async () => {
    t = await startTestServer();
    const db = t.server.ctx.database.db;
    const { body: session } = await api(t.url, 'POST', '/api/sessions', { stage: 'Windows' });
    await api(t.url, 'PUT', `/api/sessions/${session.id}/transcript`, { transcript, duration: '60' });
    await db
      .update(sessions)
      .set({
        coaching: { legacyText: '**Summary**\nGood start.' },
        coachingEngine: JSON.stringify({
          id: 'rubric',
          label: 'Built-in coach',
          quality: 'basic',
          upgradeHint: STALE_HINT,
          note: 'A note.',
        }),
      })
      .where(eq(sessions.id, session.id));
    const coaching = await api(t.url, 'POST', `/api/sessions/${session.id}/coaching`);
    expect(coaching.status).toBe(200);
    expect(coaching.body.engine).toEqual({ id: 'rubric', label: 'Built-in coach', quality: 'basic' });
    expect(coaching.body.note).toBe('A note.');

    const [row] = await db
      .insert(audioSessions)
      .values({
        fileName: 'call.mp3',
        stage: 'General',
        storageKey: 'missing-key',
        status: 'failed',
        error: 'Transcription failed: Install pocketsphinx and pocketsphinx-en-us (npm run setup)',
        sttEngine: JSON.stringify({
          id: 'pocketsphinx',
          label: 'PocketSphinx',
          quality: 'basic',
          upgradeHint: 'Run npm run models to add Whisper, or set STT_PROVIDER=openai',
        }),
        coachingEngine: JSON.stringify({
          id: 'rubric',
          label: 'Built-in coach',
          quality: 'basic',
          upgradeHint: STALE_HINT,
        }),
      })
      .returning();
    const audio = await api(t.url, 'GET', `/api/audio/${row.id}`);
    expect(audio.status).toBe(200);
    expect(JSON.stringify(audio.body)).not.toMatch(OPERATOR_TALK);
    expect(Object.keys(audio.body.sttEngine).sort()).toEqual(PLAIN_ENGINE_KEYS);
    expect(Object.keys(audio.body.coachingEngine).sort()).toEqual(PLAIN_ENGINE_KEYS);
    expect(audio.body.error).toBe(TRANSCRIPTION_UNAVAILABLE_MESSAGE);
  });

  it('a recording that fails for a server-side reason says so plainly, not how to fix the server', async () => {
    // No speech engine can start: the reason names install commands, which only the operator sees.
    t = await startTestServer({
      env: { STT_PROVIDER: 'pocketsphinx', POCKETSPHINX_MODEL_DIR: path.join(sharedDir, 'no-such-model') },
    });
    const wav = fs.readFileSync(path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav'));
    const form = new FormData();
    form.append('audio', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'call.wav');
    const up = await fetch(`${t.url}/api/audio/upload`, { method: 'POST', body: form });
    expect(up.status).toBe(201);
    const { id } = (await up.json()) as { id: string };
    const failed = await waitFor(async () => {
      const res = await api(t!.url, 'GET', `/api/audio/${id}`);
      return res.body.status === 'failed' ? res.body : null;
    }, 'the transcription to fail');
    expect(failed.error).toBe(TRANSCRIPTION_UNAVAILABLE_MESSAGE);
    expect(JSON.stringify(failed)).not.toMatch(OPERATOR_TALK);
  });
});
