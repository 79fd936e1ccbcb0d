import { STT_SAMPLE_RATE, type SpeechToText, type SttSegment, type TranscribeOptions } from './types';

/** Peak level (of 32767) below which the fake hears nothing. */
const QUIET = 500;

/**
 * A speech-to-text engine for tests about what happens around transcription (uploads, calls,
 * the pipeline), not about recognition: it records each clip it is given and answers fixed words
 * spread over the stretch of the clip that is louder than silence, or nothing for a silent clip.
 */
export class FakeStt implements SpeechToText {
  readonly id = 'fake-stt';
  readonly label = 'Fixed-words speech engine (tests)';
  /** Length in samples of every clip transcribed. */
  readonly calls: number[] = [];
  closed = false;

  constructor(private readonly words = 'what is the weather like') {}

  async transcribe(pcm: Int16Array, opts: TranscribeOptions = {}): Promise<SttSegment[]> {
    opts.signal?.throwIfAborted();
    if (this.closed) throw new Error('The fake speech engine was closed.');
    this.calls.push(pcm.length);
    let first = -1;
    let last = -1;
    for (let i = 0; i < pcm.length; i++) {
      if (Math.abs(pcm[i]) < QUIET) continue;
      if (first < 0) first = i;
      last = i;
    }
    opts.onProgress?.(1);
    if (first < 0) return [];
    const startMs = Math.round((first / STT_SAMPLE_RATE) * 1000);
    const endMs = Math.round(((last + 1) / STT_SAMPLE_RATE) * 1000);
    const words = this.words.split(/\s+/).filter(Boolean);
    const step = (endMs - startMs) / words.length;
    return [
      {
        startMs,
        endMs,
        text: words.join(' '),
        words: words.map((word, i) => ({
          word,
          startMs: Math.round(startMs + i * step),
          endMs: Math.round(startMs + (i + 1) * step),
        })),
      },
    ];
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}
