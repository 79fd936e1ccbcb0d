import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { operatorStatusSchema } from '../../core/operator-status';
import { concatAudio } from '../audio/test-audio';
import { audioSessions } from '../db/schema';
import { SPEAKER_MODEL_ID } from '../providers/speaker';
import { skipWithout } from '../test-support/engines';
import { api, sharedDir, startTestServer, waitFor } from '../test-support/harness';

const fixtures = path.join(sharedDir, 'fixtures/audio');
const man = (n: string) =>
  path.join(fixtures, `librivox_pocketsphinx/sense_and_sensibility_01_austen_64kb-${n}.wav`);
const woman = (n: string) => path.join(fixtures, `ljspeech_lhotse/LJ002-${n}.wav`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'speaker-model-int-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** What a rep's browser must never receive: commands, model files, folders. */
const OPERATOR_TALK = /npm run|\.onnx|MODELS_DIR|speaker\//;

const noEngines = skipWithout('pocketsphinx');

describe.skipIf(noEngines)('a damaged speaker model', () => {
  it('does not stop uploads: the voice features split the recording, and the operator is told why', async () => {
    const modelsDir = path.join(tmp, 'models');
    fs.mkdirSync(path.join(modelsDir, 'speaker'), { recursive: true });
    // A cut-off download: not an ONNX model (sherpa-onnx would end the process that loads it).
    fs.writeFileSync(
      path.join(modelsDir, 'speaker', 'nemo_en_titanet_small.onnx'),
      Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 31 + 7) % 256)),
    );
    const lines: string[] = [];
    const t = await startTestServer({
      env: { MODELS_DIR: modelsDir, LOG_LEVEL: 'info' },
      logStream: { write: (l) => void lines.push(l) },
    });
    try {
      // Operators: the engine in use, why, and the command that adds the model.
      const status = operatorStatusSchema.parse((await api(t.url, 'GET', '/api/status')).body);
      const speakers = status.engines.find((e) => e.capability === 'speaker-attribution')!;
      expect(speakers).toMatchObject({ engine: 'voice-features', quality: 'basic', ok: true });
      expect(speakers.reason).toMatch(/nemo_en_titanet_small\.onnx failed to load/);
      expect(speakers.upgradeHint).toContain(`npm run models -- ${SPEAKER_MODEL_ID}`);
      const startup = lines.map((l) => JSON.parse(l)).find((l) => l.capability === 'speaker-attribution');
      expect(startup).toMatchObject({ msg: 'engine selected', engine: 'voice-features' });
      expect(startup.reason).toContain(`npm run models -- ${SPEAKER_MODEL_ID}`);
      expect((await api(t.url, 'GET', '/api/health')).body.status).toBe('ok');

      // A mono recording of a man and a woman taking turns.
      const file = concatAudio(
        [man('0870'), woman('0020'), man('0880'), woman('0035')],
        path.join(tmp, 'call.wav'),
      );
      const form = new FormData();
      form.append(
        'audio',
        new Blob([new Uint8Array(fs.readFileSync(file))], { type: 'audio/wav' }),
        'call.wav',
      );
      const up = await fetch(`${t.url}/api/audio/upload`, { method: 'POST', body: form });
      expect(up.status).toBe(201);
      const { id } = (await up.json()) as { id: string };
      const done = await waitFor(
        async () => {
          const res = await api(t.url, 'GET', `/api/audio/${id}`);
          return res.body.status === 'transcribed' || res.body.status === 'failed' ? res.body : null;
        },
        'the transcription to finish',
        150_000,
        250,
      );
      expect(done.status).toBe('transcribed');
      expect(done.transcript.length).toBeGreaterThan(0);
      expect(done.attributionIsGuess).toBe(true);
      // The recording says which engine split it, by a plain name only.
      expect(done.speakerEngine).toEqual({ id: 'voice-features', label: 'Voice features', quality: 'basic' });
      expect(JSON.stringify(done)).not.toMatch(OPERATOR_TALK);
      const [row] = await t.server.ctx.database.db
        .select()
        .from(audioSessions)
        .where(eq(audioSessions.id, id));
      expect(JSON.parse(row.sttEngine!).speakers).toEqual(done.speakerEngine);
    } finally {
      await t.close();
    }
  });
});
