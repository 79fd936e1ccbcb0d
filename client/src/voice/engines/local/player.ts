/**
 * Plays the homeowner's PCM chunks gaplessly through a small jitter buffer: the first chunk
 * of a reply is scheduled a little in the future so that network jitter does not starve
 * playback; later chunks are queued back to back. `flush()` stops everything at once (barge-in).
 */
export const JITTER_BUFFER_SEC = 0.12;

export class PcmPlayer {
  private nextTime = 0;
  private readonly sources = new Set<AudioBufferSourceNode>();
  private readonly analyser: AnalyserNode;
  private readonly samples: Float32Array<ArrayBuffer>;
  /** Chunks that arrived after the queue ran dry (a gap the rep could hear). */
  underruns = 0;

  constructor(private readonly ctx: AudioContext) {
    this.analyser = ctx.createAnalyser();
    this.analyser.fftSize = 1024;
    this.analyser.connect(ctx.destination);
    this.samples = new Float32Array(this.analyser.fftSize);
  }

  get playing(): boolean {
    return this.sources.size > 0;
  }

  /** Queues a chunk of 16-bit mono PCM at the given sample rate. */
  enqueue(pcm: Int16Array, sampleRate: number): void {
    if (pcm.length === 0) return;
    const buffer = this.ctx.createBuffer(1, pcm.length, sampleRate);
    const data = buffer.getChannelData(0);
    for (let i = 0; i < pcm.length; i++) data[i] = pcm[i] / 32768;
    const source = this.ctx.createBufferSource();
    source.buffer = buffer;
    source.connect(this.analyser);
    const now = this.ctx.currentTime;
    if (this.nextTime < now + 0.005) {
      if (this.sources.size > 0) this.underruns++;
      this.nextTime = now + JITTER_BUFFER_SEC;
    }
    source.start(this.nextTime);
    this.nextTime += buffer.duration;
    this.sources.add(source);
    source.onended = () => {
      this.sources.delete(source);
      source.disconnect();
    };
  }

  /** Stops all queued and playing audio now. */
  flush(): void {
    for (const s of this.sources) {
      try {
        s.stop();
      } catch {
        // Not started yet or already stopped.
      }
      s.disconnect();
    }
    this.sources.clear();
    this.nextTime = 0;
  }

  /** The current output level (RMS, 0..1). */
  level(): number {
    this.analyser.getFloatTimeDomainData(this.samples);
    let sum = 0;
    for (let i = 0; i < this.samples.length; i++) sum += this.samples[i] * this.samples[i];
    return Math.sqrt(sum / this.samples.length);
  }
}
