import { describe, expect, it } from 'vitest';
import { STAGES } from '../../../core/stages';
import { personaVoice, PERSONA_FACTS } from '../brain/personas';
import { skipWithout } from '../../test-support/engines';
import { selectTextToSpeech } from './index';
import { fliteAvailable, fliteVoiceFor } from './flite';
import { loadConfig } from '../../env';
import { festivalVoiceCommand, fliteArgs, FLITE_VOICES } from './unit-voices';

describe('Flite voices', () => {
  it('passes the text after -t, so a line that starts with a dash is spoken, not read as an option', () => {
    const args = fliteArgs({ voice: 'slt' }, '-o /etc/passwd', '/dev/stdout');
    expect(args.slice(-4)).toEqual(['-t', '-o /etc/passwd', '-o', '/dev/stdout']);
    expect(fliteArgs({ voice: 'rms', rate: 1.25 }, 'Hi.', 'x.wav')).toContain('duration_stretch=0.800');
  });

  it('gives each homeowner a distinct voice of the right gender', () => {
    const seen = new Set<string>();
    for (const stage of STAGES) {
      const v = fliteVoiceFor(personaVoice(stage));
      const key = `${v.voice}@${v.pitchShift ?? 1}`;
      expect(seen.has(key), `${stage} shares ${key}`).toBe(false);
      seen.add(key);
      const female = /\+f\d/.test(PERSONA_FACTS[stage].voice);
      expect(FLITE_VOICES[v.voice].gender).toBe(female ? 'female' : 'male');
    }
  });

  it('falls back by gender for a voice without a Flite choice, and refuses odd Festival names', () => {
    expect(fliteVoiceFor({ espeakVoice: 'en-us+f3', rate: 170, pitch: 50, speaker: 0 }).voice).toBe('slt');
    expect(fliteVoiceFor({ espeakVoice: 'en-us+m3', rate: 170, pitch: 50, speaker: 0 }).voice).toBe('rms');
    expect(festivalVoiceCommand('kal_diphone')).toBe('(voice_kal_diphone)');
    expect(() => festivalVoiceCommand('x) (system "rm")')).toThrow();
  });
});

describe.skipIf(skipWithout('flite'))('choosing Flite', () => {
  it('finds the installed Flite and makes it the default voice, espeak-ng only when asked', async () => {
    expect(fliteAvailable()).toBe(true);
    expect(fliteAvailable('/nonexistent/flite')).toBe(false);
    const env = { ...process.env, LOG_LEVEL: 'silent', TTS_PROVIDER: '' };
    expect((await selectTextToSpeech(loadConfig(env))).engine.id).toBe('flite');
    const espeak = await selectTextToSpeech(loadConfig({ ...env, TTS_PROVIDER: 'espeak' }));
    expect(espeak.engine.id).toMatch(/espeak/);
  });
});
