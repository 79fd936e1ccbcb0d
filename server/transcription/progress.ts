import type { ProcessingStep } from '../../core/processing';

/** The steps the transcription pipeline reports (coaching follows in its own job). */
export type PipelineStep = Exclude<ProcessingStep, 'coaching'>;

/**
 * What the pipeline says as it goes: the share of the recording a step has done (0..1, over the
 * whole recording), and for a recogniser call under way, the share of the recording it holds
 * (`inflight`), so the time it takes can be shown as it passes.
 */
export type StepListener = (step: PipelineStep, done: number, inflight?: number) => void;

/**
 * Expected cost of each step per millisecond of audio on the 2-core development machine
 * (docs/benchmarks.md, "A 5-minute call through the whole pipeline"); the recogniser's comes from
 * recordings it transcribed before. Coaching is a couple of seconds whatever the length.
 */
const STEP_COST: Record<Exclude<PipelineStep, 'transcribing'>, number> = {
  decoding: 0.04,
  'finding-speech': 0.004,
  speakers: 0.03,
};
/** Share of a recording's time that is speech the recogniser hears (the rest is skipped). */
const SPEECH_SHARE = 0.8;
export const COACHING_EXPECTED_MS = 2500;

export interface ProgressSnapshot {
  step: ProcessingStep;
  /** 0..100, never going back. */
  percent: number;
  /** The whole processing's expected length as now measured (ms), and the time left. */
  expectedMs: number;
  leftMs: number;
}

/**
 * Turns the pipeline's step reports into one percentage over the whole processing (each step
 * weighted by its expected time, coaching included) and an estimate of the time left. A
 * recogniser call in flight is shown as it passes: its share grows with the time it has run
 * against the pace measured so far (capped short of its end), and the engine's own report wins
 * as soon as it comes. The estimate starts from the recording's length and the recogniser's
 * past real-time factor, and follows the pace actually measured once a tenth is done.
 */
export class ProcessingProgress {
  private readonly weights: Record<ProcessingStep, number>;
  private readonly total: number;
  private readonly done: Record<PipelineStep, number> = {
    decoding: 0,
    'finding-speech': 0,
    transcribing: 0,
    speakers: 0,
  };
  private step: ProcessingStep = 'decoding';
  /**
   * The recogniser call in flight: where it started (time, share done before it, its share of
   * the recording) and its reports so far.
   */
  private call: {
    at: number;
    from: number;
    share: number;
    lastAt: number;
    last: number;
    reports: number;
  } | null = null;
  /** Recogniser ms per share of the recording: expected at first, then as measured. */
  private msPerShare: number;
  private best = 0;
  private readonly started: number;

  constructor(
    private readonly opts: {
      durationMs: number;
      /** Recogniser time per audio time measured on earlier recordings (real-time factor). */
      sttRealTimeFactor: number;
      now?: () => number;
    },
  ) {
    const ms = Math.max(1000, opts.durationMs);
    const rtf = Math.max(0.01, opts.sttRealTimeFactor);
    this.weights = {
      decoding: ms * STEP_COST.decoding,
      'finding-speech': ms * STEP_COST['finding-speech'],
      transcribing: ms * SPEECH_SHARE * rtf,
      speakers: ms * STEP_COST.speakers,
      coaching: COACHING_EXPECTED_MS,
    };
    this.msPerShare = this.weights.transcribing;
    this.total = Object.values(this.weights).reduce((a, b) => a + b, 0);
    this.started = this.now();
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** The listener to hand the pipeline. */
  readonly report: StepListener = (step, done, inflight) => {
    this.step = step;
    const at = this.now();
    if (step === 'transcribing') {
      const call = this.call;
      if (call && inflight && Math.abs(done + inflight - (call.from + call.share)) < 1e-9) {
        // A report from the call in flight: its pace so far, over the whole call.
        if (done > call.last) {
          call.reports++;
          call.last = done;
          call.lastAt = at;
          if (done > call.from) this.msPerShare = (at - call.at) / (done - call.from);
        }
      } else {
        this.call = inflight ? { at, from: done, share: inflight, lastAt: at, last: done, reports: 0 } : null;
      }
    }
    this.done[step] = Math.max(this.done[step], Math.min(1, done));
  };

  /**
   * The recogniser work in flight beyond its last report, as the time since then against the
   * pace measured so far; it never runs further ahead than one more report's worth (the mean
   * gain of a report so far) and never reaches the call's end.
   */
  private inflightShare(at: number): number {
    const call = this.call;
    if (!call) return 0;
    const left = call.from + call.share - call.last;
    const stride = call.reports ? (call.last - call.from) / call.reports : call.share;
    const ahead = this.msPerShare > 0 ? (at - call.lastAt) / this.msPerShare : 0;
    return Math.max(0, Math.min(ahead, stride, left * 0.95));
  }

  /** Marks the transcription done: what is left is coaching. */
  finishTranscription(): void {
    for (const k of Object.keys(this.done) as PipelineStep[]) this.done[k] = 1;
    this.call = null;
    this.step = 'coaching';
  }

  snapshot(): ProgressSnapshot {
    const at = this.now();
    const transcribing = Math.min(1, this.done.transcribing + this.inflightShare(at));
    const doneMs =
      this.weights.decoding * this.done.decoding +
      this.weights['finding-speech'] * this.done['finding-speech'] +
      this.weights.transcribing * transcribing +
      this.weights.speakers * this.done.speakers;
    const fraction = Math.min(0.99, doneMs / this.total);
    this.best = Math.max(this.best, fraction);
    const elapsed = at - this.started;
    // Expected at the start; then the pace measured on this very recording.
    const expectedMs = this.best >= 0.1 && elapsed > 0 ? Math.max(elapsed / this.best, elapsed) : this.total;
    return {
      step: this.step,
      percent: Math.floor(this.best * 100),
      expectedMs: Math.round(expectedMs),
      leftMs: Math.max(0, Math.round(expectedMs * (1 - this.best))),
    };
  }
}
