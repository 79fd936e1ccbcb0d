import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../env';
import { selectSpeechToText, STT_UPGRADE_HINT } from './index';
import { POCKETSPHINX_LABEL } from './pocketsphinx';
import { describeSherpaModel, findSherpaSttModels, recognizerConfig, wordsFromTokens } from './sherpa-onnx';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'stt-select-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function modelDir(name: string, files: string[]): string {
  const dir = path.join(tmp, 'models', 'stt', name);
  fs.mkdirSync(dir, { recursive: true });
  for (const f of files) fs.writeFileSync(path.join(dir, f), 'not a real model');
  return dir;
}

describe('speech-to-text selection', () => {
  it('falls back to PocketSphinx with the upgrade hint when no model is present', async () => {
    const { engine, info } = await selectSpeechToText(loadConfig({ MODELS_DIR: path.join(tmp, 'empty') }));
    expect(engine.id).toBe('pocketsphinx');
    expect(info).toMatchObject({
      label: POCKETSPHINX_LABEL,
      quality: 'basic',
      upgradeHint: STT_UPGRADE_HINT,
    });
  });

  it('keeps going when a model folder is broken, and says why', async () => {
    modelDir('sherpa-onnx-whisper-tiny.en', [
      'tiny.en-encoder.int8.onnx',
      'tiny.en-decoder.int8.onnx',
      'tiny.en-tokens.txt',
    ]);
    const { engine, info } = await selectSpeechToText(loadConfig({ MODELS_DIR: path.join(tmp, 'models') }));
    expect(engine.id).toBe('pocketsphinx');
    expect(info.reason).toMatch(/sherpa-onnx-whisper-tiny\.en failed to load/);
  });

  it('asks for an address when STT_PROVIDER=openai has none, and uses it when set', async () => {
    const missing = await selectSpeechToText(
      loadConfig({ STT_PROVIDER: 'openai', MODELS_DIR: path.join(tmp, 'empty') }),
    );
    expect(missing.info.reason).toMatch(/needs STT_BASE_URL/);
    const set = await selectSpeechToText(
      loadConfig({ STT_PROVIDER: 'openai', STT_BASE_URL: 'http://127.0.0.1:9/v1', STT_MODEL: 'base.en' }),
    );
    expect(set.engine.id).toBe('openai');
    expect(set.info.quality).toBe('enhanced');
  });
});

describe('sherpa-onnx model folders', () => {
  it('recognises the published layouts and ranks better models first', () => {
    modelDir('sherpa-onnx-moonshine-tiny-en-int8', [
      'preprocess.onnx',
      'encode.int8.onnx',
      'uncached_decode.int8.onnx',
      'cached_decode.int8.onnx',
      'tokens.txt',
    ]);
    modelDir('sherpa-onnx-nemo-parakeet-tdt-0.6b-v2-int8', [
      'encoder.int8.onnx',
      'decoder.int8.onnx',
      'joiner.int8.onnx',
      'tokens.txt',
    ]);
    modelDir('sherpa-onnx-streaming-zipformer-en-20M-2023-02-17', [
      'encoder.onnx',
      'decoder.onnx',
      'joiner.onnx',
      'tokens.txt',
    ]);
    const found = findSherpaSttModels(path.join(tmp, 'models'));
    expect(found.map((m) => m.kind)).toEqual(['parakeet', 'moonshine', 'whisper']);
    const parakeet = recognizerConfig(found[0], 2) as any;
    expect(parakeet.modelConfig.modelType).toBe('nemo_transducer');
    expect(parakeet.modelConfig.transducer.joiner).toMatch(/joiner\.int8\.onnx$/);
    const whisper = recognizerConfig(found[2], 2) as any;
    expect(whisper.modelConfig.whisper.encoder).toMatch(/tiny\.en-encoder\.int8\.onnx$/);
    expect(describeSherpaModel(path.join(tmp, 'nowhere'))).toBeNull();
  });

  it('joins sub-word tokens into timed words', () => {
    const words = wordsFromTokens(
      ['▁hel', 'lo', '▁there', '▁fri', 'end'],
      [0.1, 0.2, 0.5, 0.9, 1.0],
      1000,
      2500,
    );
    expect(words.map((w) => w.word)).toEqual(['hello', 'there', 'friend']);
    expect(words[0].startMs).toBe(1100);
    expect(words[1].startMs).toBe(1500);
    expect(words[2].endMs).toBe(2500);
  });
});
