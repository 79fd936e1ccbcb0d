import { describe, expect, it } from 'vitest';
import { PERSONA_VOICES, webSpeechSettings } from './persona-voice';

describe('persona voices', () => {
  it('match the server persona facteech values around 1', () => {
    expect(webSpeechSettings({ gender: 'male', rate: 175, pitch: 50 })).toEqual({ rate: 1, pitch: 1 });
    const dave = webSpeechSettings(PERSONA_VOICES.HVAC);
    expect(dave.rate).toBeGreaterThan(1);
    expect(dave.pitch).toBeLessThan(1);
    const frank = webSpeechSettings(PERSONA_VOICES.Roofing);
    expect(frank.rate).toBeLessThan(1);
    expect(frank.pitch).toBe(0.75);
    expect(webSpeechSettings({ gender: 'female', rate: 1000, pitch: 99 })).toEqual({ rate: 2, pitch: 1.49 });
    expect(webSpeechSettings({ gender: 'female', rate: 10, pitch: 0 })).toEqual({ rate: 0.5, pitch: 0.5 });
  });
});
