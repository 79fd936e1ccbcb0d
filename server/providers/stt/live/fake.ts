import type { LiveRecognizer, LiveRecognizerFactory } from './types';

/**
 * A recogniser for tests about the call, not about recognition: it records how the call
 * drives it and answers with fixed words (the caption, then the final words of each utterance).
 */
export class FakeLiveRecognizer implements LiveRecognizer {
  readonly id = 'fake-live';
  alive = true;
  readonly calls: string[] = [];
  /** Samples written inside utterances. */
  written = 0;
  private open = false;

  constructor(
    private readonly words = 'how old is your furnace',
    private readonly caption = 'how old is',
    /** How long closing an utterance takes (a recogniser behind on a busy machine). */
    private readonly endDelayMs = 0,
  ) {}

  begin(): void {
    this.calls.push('begin');
    this.open = true;
  }

  write(pcm: Int16Array): void {
    if (this.open) this.written += pcm.length;
  }

  async partial(): Promise<string | null> {
    this.calls.push('partial');
    return this.alive ? this.caption : null;
  }

  async end(): Promise<string | null> {
    this.calls.push('end');
    this.open = false;
    if (this.endDelayMs) await new Promise((r) => setTimeout(r, this.endDelayMs));
    return this.alive ? this.words : null;
  }

  close(): void {
    this.alive = false;
  }
}

export function fakeLiveFactory(
  make: () => FakeLiveRecognizer = () => new FakeLiveRecognizer(),
): LiveRecognizerFactory {
  return {
    create: () => make(),
    info: {
      capability: 'live-speech-to-text',
      engine: 'fake-live',
      label: 'Test live recogniser',
      reason: 'tests',
      quality: 'basic',
      ok: true,
    },
  };
}
