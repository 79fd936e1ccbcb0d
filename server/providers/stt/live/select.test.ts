import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { selectLiveRecognizer } from './select';
import { findStreamingModels, onlineRecognizerConfig } from './sherpa-online';

let models: string;

function modelDir(name: string, files: Record<string, string | number>) {
  const dir = path.join(models, 'stt', name);
  fs.mkdirSync(dir, { recursive: true });
  for (const [file, content] of Object.entries(files))
    fs.writeFileSync(path.join(dir, file), typeof content === 'number' ? Buffer.alloc(content) : content);
  return dir;
}

beforeEach(() => {
  models = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-live-select-'));
});
afterEach(() => {
  fs.rmSync(models, { recursive: true, force: true });
});

/** PocketSphinx as the speech engine, with the live decoder not built. */
const withoutBuild = () => ({
  modelsDir: models,
  sttEngine: 'pocketsphinx',
  mode: 'auto' as const,
  sphinxLivePath: path.join(models, 'no-such-binary'),
});

describe('choosing the live-call recogniser', () => {
  it('decodes utterances as clips when switched off', () => {
    const live = selectLiveRecognizer({ modelsDir: models, sttEngine: 'pocketsphinx', mode: 'off' });
    expect(live.info.engine).toBe('utterance-decodes');
    expect(live.info.reason).toBe('VOICE_STREAMING_STT=off');
    expect(live.create()).toBeNull();
  });

  it('says how to build the warm decoder when it is missing', () => {
    const live = selectLiveRecognizer(withoutBuild());
    expect(live.info.engine).toBe('utterance-decodes');
    expect(live.info.reason).toMatch(/not built/);
    expect(live.info.upgradeHint).toMatch(/npm run setup/);
    expect(live.info.ok).toBe(true);
    expect(live.create()).toBeNull();
  });

  it('leaves a better configured speech engine to decode utterances, and names the streaming model', () => {
    const live = selectLiveRecognizer({
      modelsDir: models,
      sttEngine: 'sherpa-onnx:whisper-base.en',
      mode: 'auto',
    });
    expect(live.info.engine).toBe('utterance-decodes');
    expect(live.info.upgradeHint).toMatch(/streaming-zipformer/);
  });

  it('refuses a damaged streaming model with the reason, and falls back', () => {
    modelDir('sherpa-onnx-streaming-zipformer-en-20M-2023-02-17', {
      'encoder-epoch-99-avg-1.onnx': 10,
      'decoder-epoch-99-avg-1.onnx': 10,
      'joiner-epoch-99-avg-1.onnx': 10,
      'tokens.txt': '<blk> 0\n',
    });
    const live = selectLiveRecognizer(withoutBuild());
    expect(live.info.engine).toBe('utterance-decodes');
    expect(live.info.reason).toMatch(/streaming model failed to load .*damaged/);
  });
});

describe('streaming models', () => {
  it('finds streaming transducers only, and configures them for our own endpointing', () => {
    modelDir('sherpa-onnx-whisper-tiny.en', {
      'tiny.en-encoder.onnx': 1,
      'tiny.en-decoder.onnx': 1,
      'tokens.txt': 'a 0',
    });
    const dir = modelDir('sherpa-onnx-streaming-zipformer-en-20M-2023-02-17', {
      'encoder-epoch-99-avg-1.int8.onnx': 1,
      'encoder-epoch-99-avg-1.onnx': 1,
      'decoder-epoch-99-avg-1.onnx': 1,
      'joiner-epoch-99-avg-1.onnx': 1,
      'tokens.txt': 'a 0',
    });
    const found = findStreamingModels(models);
    expect(found.map((m) => m.dir)).toEqual([dir]);
    const config = onlineRecognizerConfig(found[0]) as any;
    expect(config.modelConfig.transducer.encoder).toMatch(/encoder-epoch-99-avg-1\.int8\.onnx$/);
    expect(config.modelConfig.tokens).toMatch(/tokens\.txt$/);
    expect(config.enableEndpoint).toBe(0);
    expect(config.featConfig.sampleRate).toBe(16_000);
  });
});
