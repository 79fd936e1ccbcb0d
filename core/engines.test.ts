import { describe, expect, it } from 'vitest';
import { parseServedBy, parseSpeakerEngine } from './engines';
import { audioSessionViewSchema, coachingViewSchema } from './views';

describe('parseServedBy', () => {
  it('reads a stored description and splits off the note', () => {
    const stored = JSON.stringify({ id: 'llm', label: 'Coach', quality: 'enhanced', note: 'fell back' });
    expect(parseServedBy(stored)).toEqual({
      engine: { id: 'llm', label: 'Coach', quality: 'enhanced' },
      note: 'fell back',
    });
  });

  it('reads an older bare engine id as a basic engine of that name, and nothing as null', () => {
    expect(parseServedBy('pocketsphinx')).toEqual({
      engine: { id: 'pocketsphinx', label: 'pocketsphinx', quality: 'basic' },
    });
    expect(parseServedBy(null)).toBeNull();
    expect(parseServedBy('')).toBeNull();
  });
});

describe('parseSpeakerEngine', () => {
  it('reads the speaker split stored beside the speech engine, without the operator’s reason', () => {
    const stored = JSON.stringify({
      id: 'pocketsphinx',
      label: 'PocketSphinx',
      quality: 'basic',
      speakers: {
        id: 'voice-features',
        label: 'Voice features',
        quality: 'basic',
        fallback: 'the speaker model failed on this recording: /data/models/speaker/x.onnx',
      },
    });
    expect(parseSpeakerEngine(stored)).toEqual({
      id: 'voice-features',
      label: 'Voice features',
      quality: 'basic',
    });
    // The speech engine's own view is unchanged by it.
    expect(parseServedBy(stored)).toEqual({
      engine: { id: 'pocketsphinx', label: 'PocketSphinx', quality: 'basic' },
    });
  });

  it('reads rows stored before it, two-channel rows and bare ids as null', () => {
    expect(
      parseSpeakerEngine(JSON.stringify({ id: 'pocketsphinx', label: 'P', quality: 'basic' })),
    ).toBeNull();
    expect(parseSpeakerEngine('pocketsphinx')).toBeNull();
    expect(parseSpeakerEngine(null)).toBeNull();
  });
});

describe('API views', () => {
  it('hold the engine view the server stores, and refuse a quality the page cannot show', () => {
    const engine = { id: 'rubric', label: 'Built-in coach', quality: 'basic' as const };
    expect(
      coachingViewSchema.parse({ coaching: '', document: null, metrics: null, engine, unlocked: false }),
    ).toEqual({
      coaching: '',
      document: null,
      metrics: null,
      engine,
      unlocked: false,
    });
    expect(
      coachingViewSchema.safeParse({
        coaching: '',
        document: null,
        metrics: null,
        engine: { ...engine, quality: 'best' },
        unlocked: true,
      }).success,
    ).toBe(false);
    expect(audioSessionViewSchema.shape.status.options).toEqual([
      'uploaded',
      'transcribing',
      'transcribed',
      'failed',
    ]);
  });
});
