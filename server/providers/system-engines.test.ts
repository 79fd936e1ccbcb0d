import { describe, expect, it } from 'vitest';
import { loadConfig } from '../env';
import {
  annotateMissingEngines,
  missingSystemEngines,
  SETUP_COMMAND,
  systemProbe,
  type SystemProbe,
} from './system-engines';
import type { EngineInfo } from './types';

const all: SystemProbe = {
  pocketsphinx: () => true,
  espeak: () => true,
  sphinxLive: () => true,
  espeakLive: () => true,
};

function infos(): EngineInfo[] {
  return [
    {
      capability: 'speech-to-text',
      engine: 'pocketsphinx',
      label: 'PocketSphinx',
      reason: 'embedded default',
      quality: 'basic',
      ok: true,
    },
    {
      capability: 'text-to-speech',
      engine: 'none',
      label: 'Unavailable',
      reason: 'No text-to-speech engine',
      quality: 'basic',
      ok: false,
    },
    {
      capability: 'live-speech-to-text',
      engine: 'clip',
      label: 'Clips',
      reason: 'not built',
      quality: 'basic',
      ok: true,
    },
    { capability: 'coach', engine: 'rules', label: 'Coach', reason: 'embedded', quality: 'basic', ok: true },
  ];
}

describe('missing embedded engines at start', () => {
  it('says nothing when everything is present', () => {
    const list = infos();
    expect(annotateMissingEngines(list, missingSystemEngines(all))).toBeNull();
    expect(list.some((i) => i.installCommand || i.missing)).toBe(false);
  });

  it('names each missing piece in one line with the one command, and marks the engines it degrades', () => {
    const list = infos();
    const line = annotateMissingEngines(
      list,
      missingSystemEngines({ ...all, espeak: () => false, sphinxLive: () => false }),
    );
    expect(line?.split('\n')).toHaveLength(1);
    expect(line).toMatch(/espeak-ng/);
    expect(line).toMatch(/sphinx-live/);
    expect(line).not.toMatch(/PocketSphinx \(/);
    expect(line).toContain(SETUP_COMMAND);
    const tts = list.find((i) => i.capability === 'text-to-speech')!;
    expect(tts.installCommand).toBe(SETUP_COMMAND);
    expect(tts.missing?.[0]).toMatch(/espeak-ng.*cannot speak/);
    expect(list.find((i) => i.capability === 'live-speech-to-text')!.installCommand).toBe(SETUP_COMMAND);
    expect(list.find((i) => i.capability === 'speech-to-text')!.installCommand).toBeUndefined();
    expect(list.find((i) => i.capability === 'coach')!.installCommand).toBeUndefined();
  });

  it('leaves a capability served by a model or service alone', () => {
    const list = infos();
    list[0] = { ...list[0], engine: 'sherpa-onnx:whisper', quality: 'enhanced' };
    annotateMissingEngines(list, missingSystemEngines({ ...all, pocketsphinx: () => false }));
    expect(list[0].installCommand).toBeUndefined();
  });

  it('checks the configured helper path, so a missing decoder is reported', () => {
    const probe = systemProbe(loadConfig({ SPHINX_LIVE_PATH: '/nonexistent/sphinx-live' }));
    expect(probe.sphinxLive()).toBe(false);
    expect(missingSystemEngines(probe).map((m) => m.capability)).toContain('live-speech-to-text');
  });
});
