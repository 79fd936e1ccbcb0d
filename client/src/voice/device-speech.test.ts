import { describe, expect, it } from 'vitest';
import { PERSONA_VOICES } from '@core/persona-voice';
import {
  describePlan,
  deviceSpeechConfig,
  pickVoice,
  planSpeech,
  recognitionVendor,
  usesDevice,
  voiceGender,
  type RepChoices,
  type SpeechProbe,
} from './device-speech';
import { chooseVoiceKind } from './engine-registry';

const auto = { mode: 'auto', cloud: 'ask' } as const;
const unasked: RepChoices = { install: 'unasked', cloud: 'unasked' };
const full: SpeechProbe = { recognition: 'on-device', localVoice: true };

describe('planSpeech', () => {
  it('uses the device for both halves when it can do both on the device', () => {
    const plan = planSpeech({ operator: auto, page: null, probe: full, choices: unasked });
    expect(plan).toEqual({ listen: 'device', speak: 'device', ask: null });
    expect(describePlan(plan)).toBe("Using your device's speech");
  });

  it('mixes halves: device recognition with the server voice, and the reverse', () => {
    const noVoice = planSpeech({
      operator: auto,
      page: null,
      probe: { recognition: 'on-device', localVoice: false },
      choices: unasked,
    });
    expect(noVoice).toEqual({ listen: 'device', speak: 'server', ask: null });
    expect(describePlan(noVoice)).toMatch(/device's speech recognition.*voice comes from our server/);
    const noRecogniser = planSpeech({
      operator: auto,
      page: null,
      probe: { recognition: 'none', localVoice: true },
      choices: unasked,
    });
    expect(noRecogniser).toEqual({ listen: 'server', speak: 'device', ask: null });
    expect(describePlan(noRecogniser)).toMatch(/device's voice.*recognised on our server/);
  });

  it('falls back to the server engines when the device has nothing', () => {
    const plan = planSpeech({
      operator: auto,
      page: 'device',
      probe: { recognition: 'none', localVoice: false },
      choices: unasked,
    });
    expect(plan).toEqual({ listen: 'server', speak: 'server', ask: null });
    expect(usesDevice(plan)).toBe(false);
    expect(describePlan(plan)).toBe("Using our server's speech");
  });

  it('asks once before downloading the on-device language pack, and remembers the answer', () => {
    const probe: SpeechProbe = { recognition: 'installable', localVoice: false };
    expect(planSpeech({ operator: auto, page: null, probe, choices: unasked }).ask).toBe('install');
    expect(
      planSpeech({ operator: auto, page: null, probe, choices: { ...unasked, install: 'accepted' } }),
    ).toEqual({ listen: 'device', speak: 'server', ask: null });
    expect(
      planSpeech({ operator: auto, page: null, probe, choices: { ...unasked, install: 'declined' } }),
    ).toEqual({ listen: 'server', speak: 'server', ask: null });
  });

  it('never uses cloud recognition without the rep opting in, nor when the operator forbids it', () => {
    const probe: SpeechProbe = { recognition: 'cloud', localVoice: true };
    const first = planSpeech({ operator: auto, page: null, probe, choices: unasked });
    expect(first).toEqual({ listen: 'server', speak: 'device', ask: 'cloud' });
    const yes = planSpeech({ operator: auto, page: null, probe, choices: { ...unasked, cloud: 'accepted' } });
    expect(yes.listen).toBe('cloud');
    expect(describePlan(yes)).toMatch(/online speech recognition \(you allowed it\)/);
    const no = planSpeech({ operator: auto, page: null, probe, choices: { ...unasked, cloud: 'declined' } });
    expect(no).toEqual({ listen: 'server', speak: 'device', ask: null });
    for (const choices of [unasked, { ...unasked, cloud: 'accepted' as const }]) {
      expect(planSpeech({ operator: { mode: 'auto', cloud: 'never' }, page: null, probe, choices })).toEqual({
        listen: 'server',
        speak: 'device',
        ask: null,
      });
    }
  });

  it('follows the operator: off, listen only, speak only; the page cannot exceed it', () => {
    const off = { mode: 'off', cloud: 'ask' } as const;
    expect(planSpeech({ operator: off, page: 'device', probe: full, choices: unasked })).toEqual({
      listen: 'server',
      speak: 'server',
      ask: null,
    });
    expect(
      planSpeech({ operator: { mode: 'listen', cloud: 'ask' }, page: null, probe: full, choices: unasked }),
    ).toEqual({ listen: 'device', speak: 'server', ask: null });
    expect(
      planSpeech({ operator: { mode: 'speak', cloud: 'ask' }, page: null, probe: full, choices: unasked }),
    ).toEqual({ listen: 'server', speak: 'device', ask: null });
  });

  it('uses the server engines when the page asks for them, even on a capable device', () => {
    expect(planSpeech({ operator: auto, page: 'server', probe: full, choices: unasked })).toEqual({
      listen: 'server',
      speak: 'server',
      ask: null,
    });
  });
});

describe('engine choice with device speech', () => {
  const all = new Set(['local', 'device', 'vapi']);
  it('routes the built-in engine through the device engine unless the operator turned it off', () => {
    expect(chooseVoiceKind({ requested: null, configured: 'local', registered: all })).toBe('device');
    expect(
      chooseVoiceKind({ requested: null, configured: 'local', registered: all, deviceSpeech: 'off' }),
    ).toBe('local');
    expect(chooseVoiceKind({ requested: null, configured: 'vapi', registered: all })).toBe('vapi');
    expect(chooseVoiceKind({ requested: null, configured: 'local', registered: new Set(['local']) })).toBe(
      'local',
    );
  });

  it('honours ?voice=device and ?voice=server', () => {
    expect(chooseVoiceKind({ requested: 'server', configured: 'local', registered: all })).toBe('local');
    expect(chooseVoiceKind({ requested: 'device', configured: 'vapi', registered: all })).toBe('device');
    expect(chooseVoiceKind({ requested: 'local', configured: 'local', registered: all })).toBe('local');
  });
});

describe('operator settings', () => {
  it('reads the config the page gets, tolerating a server without the setting', () => {
    expect(deviceSpeechConfig(undefined)).toEqual({ mode: 'auto', cloud: 'ask' });
    expect(deviceSpeechConfig({ mode: 'off', cloud: 'never' })).toEqual({ mode: 'off', cloud: 'never' });
    expect(deviceSpeechConfig({ mode: 'loud', cloud: 7 })).toEqual({ mode: 'auto', cloud: 'ask' });
  });
});

describe('voice choice', () => {
  const v = (name: string, lang = 'en-US', localService = true, def = false) => ({
    name,
    lang,
    localService,
    default: def,
  });

  it('reads gender from voice names', () => {
    expect(voiceGender('Microsoft Zira - English (United States)')).toBe('female');
    expect(voiceGender('Samantha')).toBe('female');
    expect(voiceGender('Google UK English Female')).toBe('female');
    expect(voiceGender('Google UK English Male')).toBe('male');
    expect(voiceGender('Daniel')).toBe('male');
    expect(voiceGender('English (America)+m3')).toBe('male');
    expect(voiceGender('Nuance Voice 7')).toBeNull();
  });

  it('picks an installed English voice of the persona gender, US English first', () => {
    const voices = [
      v('Google US English', 'en-US', false),
      v('Samantha', 'en-US'),
      v('Daniel', 'en-GB'),
      v('Alex', 'en-US'),
      v('Thomas', 'fr-FR'),
    ];
    expect(pickVoice(voices, PERSONA_VOICES.Windows)?.name).toBe('Samantha');
    expect(pickVoice(voices, PERSONA_VOICES.HVAC)?.name).toBe('Alex');
    expect(pickVoice([v('Daniel', 'en-GB'), v('Samantha', 'en-US')], PERSONA_VOICES.Roofing)?.name).toBe(
      'Daniel',
    );
  });

  it('prefers a neutral-named voice over the wrong gender, and never a network or non-English voice', () => {
    expect(pickVoice([v('Karen', 'en-AU'), v('Voice 2', 'en-US')], PERSONA_VOICES.General)?.name).toBe(
      'Voice 2',
    );
    expect(
      pickVoice([v('Google US English', 'en-US', false), v('Anna', 'de-DE')], PERSONA_VOICES.General),
    ).toBe(null);
    // Only a voice of the other gender: still English, still better than none.
    expect(pickVoice([v('Karen', 'en-AU')], PERSONA_VOICES.General)?.name).toBe('Karen');
  });

  it('names the vendor an online recogniser sends audio to', () => {
    const chrome =
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/140.0.0.0 Safari/537.36';
    expect(recognitionVendor(chrome)).toBe('Google');
    expect(recognitionVendor(`${chrome} Edg/140.0.0.0`)).toBe('Microsoft');
    expect(
      recognitionVendor(
        'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.0 Safari/605.1.15',
      ),
    ).toBe('Apple');
  });
});
