import { spanFeatures, VoiceFeatureTracker } from '../../audio/voice-features';
import type { SpeakerEmbedder } from './types';

/**
 * A speaker "model" for tests about the code around embeddings: the voice print is the median
 * pitch as a direction on a circle (a quarter turn per octave and a half), so voices an octave
 * apart point far apart and one voice points one way. It also counts what it was given.
 */
export class FakeSpeakerEmbedder implements SpeakerEmbedder {
  readonly id = 'fake-speaker';
  readonly label = 'Test speaker embeddings';
  /** Length of each span it was asked about, in samples. */
  readonly calls: number[] = [];

  constructor(private readonly opts: { failAfter?: number } = {}) {}

  async embed(samples: Float32Array): Promise<Float32Array | null> {
    this.calls.push(samples.length);
    if (this.opts.failAfter !== undefined && this.calls.length > this.opts.failAfter) {
      throw new Error('the speaker worker stopped');
    }
    const pcm = Int16Array.from(samples, (v) => Math.max(-32768, Math.min(32767, Math.round(v * 32767))));
    const tracker = new VoiceFeatureTracker();
    tracker.push(pcm);
    const f = spanFeatures(tracker.track, 0, (pcm.length / 16_000) * 1000);
    if (f.voicedFrames < 5) return null;
    const angle = ((12 * Math.log2(f.pitchHz / 80)) / 18) * (Math.PI / 2);
    return Float32Array.of(Math.cos(angle), Math.sin(angle));
  }
}
