import { describe, expect, it } from 'vitest';
import { PERSONA_VOICES } from '../core/persona-voice';
import { STAGES } from '../core/stages';
import { loadConfig } from './env';
import { PERSONA_FACTS } from './providers/brain/personas';

describe('device speech settings', () => {
  it('parses DEVICE_SPEECH and DEVICE_SPEECH_CLOUD with safe defaults', () => {
    const defaults = loadConfig({});
    expect([defaults.DEVICE_SPEECH, defaults.DEVICE_SPEECH_CLOUD]).toEqual(['auto', 'ask']);
    const set = loadConfig({ DEVICE_SPEECH: 'listen', DEVICE_SPEECH_CLOUD: 'never' });
    expect([set.DEVICE_SPEECH, set.DEVICE_SPEECH_CLOUD]).toEqual(['listen', 'never']);
    expect(() => loadConfig({ DEVICE_SPEECH: 'sometimes' })).toThrow();
  });

  it("gives browser voices the server personas' gender, rate and pitch", () => {
    for (const stage of STAGES) {
      const facts = PERSONA_FACTS[stage];
      const voice = PERSONA_VOICES[stage];
      expect(voice.rate, stage).toBe(facts.rate);
      expect(voice.pitch, stage).toBe(facts.pitch);
      const variant = facts.voice.split('+')[1] ?? '';
      expect(voice.gender, stage).toBe(variant.startsWith('f') ? 'female' : 'male');
    }
  });
});
