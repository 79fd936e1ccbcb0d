import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import { afterAll, describe, expect, it } from 'vitest';
import { installedPath, MODEL_CATALOGUE } from '../../models/catalogue';
import {
  findSpeakerModels,
  selectSpeakerEngine,
  SherpaSpeakerEmbedder,
  SPEAKER_MODEL_ID,
  SPEAKER_UPGRADE_HINT,
} from '.';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-speaker-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function modelsDir(name: string, files: Record<string, Buffer> = {}): string {
  const dir = path.join(tmp, name);
  fs.mkdirSync(path.join(dir, 'speaker'), { recursive: true });
  for (const [file, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, 'speaker', file), bytes);
  return dir;
}

/** Bytes that are not an ONNX model (a cut-off or corrupted download). */
const garbage = () => Buffer.from(Array.from({ length: 200_000 }, (_, i) => (i * 7919 + 13) % 251));

describe('choosing how one-channel recordings are split into voices', () => {
  it('without a speaker model, the voice features serve and the operator is told how to add one', async () => {
    const { engine, info } = await selectSpeakerEngine(path.join(tmp, 'nothing-here'));
    expect(engine.embedder).toBeNull();
    expect(info).toMatchObject({
      capability: 'speaker-attribution',
      engine: 'voice-features',
      quality: 'basic',
      ok: true,
      upgradeHint: SPEAKER_UPGRADE_HINT,
    });
    expect(info.reason).toMatch(/no speaker model under .*speaker/);
    expect(info.reason).toContain(`npm run models -- ${SPEAKER_MODEL_ID}`);
  });

  it('a file that is not a model is refused without harm, and the reason names it', async () => {
    const dir = modelsDir('broken', {
      'nemo_en_titanet_small.onnx': garbage(),
      'stub.onnx': Buffer.from('not a model'),
    });
    const { engine, info } = await selectSpeakerEngine(dir);
    // This process is still here: the model was tried in a child process, which sherpa-onnx ended.
    expect(engine.embedder).toBeNull();
    expect(info.engine).toBe('voice-features');
    expect(info.ok).toBe(true);
    expect(info.upgradeHint).toBe(SPEAKER_UPGRADE_HINT);
    expect(info.reason).toMatch(
      /nemo_en_titanet_small\.onnx failed to load \(the loader (stopped with SIG\w+|exited with code \d+)/,
    );
    expect(info.reason).toMatch(/stub\.onnx looks incomplete or damaged \(11 bytes\)/);
  });

  it('an ONNX model that is not a speaker model is refused too', async () => {
    const require = createRequire(import.meta.url);
    const silero = path.join(path.dirname(require.resolve('@ricky0123/vad-web')), 'silero_vad_v5.onnx');
    const dir = modelsDir('wrong-kind', { 'wespeaker_en_voxceleb_CAM++.onnx': fs.readFileSync(silero) });
    const { engine, info } = await selectSpeakerEngine(dir);
    expect(engine.embedder).toBeNull();
    expect(info.reason).toMatch(/CAM\+\+\.onnx failed to load/);
  });

  it('finds models directly under speaker/, TitaNet first, and only .onnx files', () => {
    const dir = modelsDir('several', {
      'wespeaker_en_voxceleb_CAM++.onnx': Buffer.alloc(10),
      'nemo_en_titanet_small.onnx': Buffer.alloc(10),
      'another.onnx': Buffer.alloc(10),
      'README.md': Buffer.alloc(10),
    });
    expect(findSpeakerModels(dir).map((m) => m.name)).toEqual([
      'nemo_en_titanet_small',
      'wespeaker_en_voxceleb_CAM++',
      'another',
    ]);
    expect(findSpeakerModels(path.join(tmp, 'none'))).toEqual([]);
  });

  it('the catalogue offers the model the hint names, where the engine looks, unpinned and by hand only', () => {
    const entry = MODEL_CATALOGUE.find((m) => m.id === SPEAKER_MODEL_ID)!;
    expect(entry).toMatchObject({ kind: 'file', target: 'speaker', capability: 'speaker-embedding' });
    expect(entry.url).toContain('/releases/download/speaker-recongition-models/');
    expect(entry.sha256).toBeUndefined();
    expect(entry.upgrade).toBeFalsy();
    expect(entry.default).toBeFalsy();
    const dir = path.join(tmp, 'installed');
    const file = installedPath(dir, entry);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, 'x');
    expect(findSpeakerModels(dir).map((m) => m.file)).toEqual([file]);
  });
});

describe('the speaker thread', () => {
  it('a model gone by the time a recording comes fails that recording’s prints, not the server', async () => {
    const embedder = new SherpaSpeakerEmbedder({ name: 'gone', file: path.join(tmp, 'gone.onnx') });
    try {
      await expect(embedder.embed(new Float32Array(32_000))).rejects.toThrow(
        /the speaker model .*gone\.onnx could not be loaded/,
      );
    } finally {
      await embedder.close();
    }
  });
});
