import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { rms } from '../../audio/wav';
import { VAD_SAMPLE_RATE, VAD_WINDOW, type FrameVad } from './types';

const require = createRequire(import.meta.url);

interface SherpaVadHandle {
  acceptWaveform(samples: Float32Array): void;
  isDetected(): boolean;
  isEmpty(): boolean;
  pop(): void;
  reset(): void;
}

/**
 * Below this level (RMS of full scale, about -54 dBFS) a window is silence without asking the
 * model. Browsers' noise suppression brings a quiet room well under it, so most of the silence
 * in a call skips inference; speech, even soft speech after auto gain, is far above it.
 */
export const QUIET_RMS = 0.002;

/** Silero VAD through sherpa-onnx. The detector's own hangover is short; turn-taking adds its own. */
export class SileroVad implements FrameVad {
  readonly id = 'silero';
  private readonly vad: SherpaVadHandle;
  /** The model has not seen the last windows (they were quiet): its state restarts on the next. */
  private skipped = false;

  constructor(modelPath: string) {
    const sherpa = require('sherpa-onnx-node') as {
      Vad: new (c: unknown, bufferSec: number) => SherpaVadHandle;
    };
    this.vad = new sherpa.Vad(
      {
        sileroVad: {
          model: modelPath,
          threshold: 0.5,
          minSilenceDuration: 0.05,
          minSpeechDuration: 0.06,
          windowSize: VAD_WINDOW,
          maxSpeechDuration: 30,
        },
        sampleRate: VAD_SAMPLE_RATE,
        numThreads: 1,
        debug: 0,
      },
      40,
    );
  }

  isSpeech(window: Float32Array): boolean {
    if (rms(window) < QUIET_RMS) {
      this.skipped = true;
      return false;
    }
    if (this.skipped) {
      this.vad.reset();
      this.skipped = false;
    }
    this.vad.acceptWaveform(window);
    // Finished segments are not used (turn-taking keeps its own audio); drop them to bound memory.
    while (!this.vad.isEmpty()) this.vad.pop();
    return this.vad.isDetected();
  }

  reset(): void {
    this.vad.reset();
    this.skipped = false;
  }

  close(): void {}
}

/**
 * Loading the Silero model takes about 300 ms of the main thread, a stall every live call
 * would hear when another call starts; detectors are reset and reused instead.
 */
export class SileroPool {
  private readonly idle: SileroVad[] = [];

  constructor(
    private readonly modelPath: string,
    private readonly maxIdle = 64,
  ) {}

  take(): FrameVad {
    const vad = this.idle.pop() ?? new SileroVad(this.modelPath);
    vad.reset();
    let released = false;
    return {
      id: vad.id,
      isSpeech: (w) => vad.isSpeech(w),
      reset: () => vad.reset(),
      close: () => {
        if (released) return;
        released = true;
        if (this.idle.length < this.maxIdle) this.idle.push(vad);
      },
    };
  }

  /** Keeps a detector made elsewhere (the one that proved the model loads). */
  give(vad: SileroVad): void {
    this.idle.push(vad);
  }

  /** Idle detectors the background warm-up is making toward, and whether it is running. */
  private target = 0;
  private warming = false;

  /**
   * Makes spare detectors one at a time in the background (at boot, and as calls arrive), so
   * the next calls of a busy moment do not each stall the others while a model loads (about
   * 70 ms of CPU and 14 MB each). Asked again while running, it raises its target.
   */
  warm(spares: number): void {
    this.target = Math.max(this.target, Math.min(spares, this.maxIdle));
    if (this.warming) return;
    this.warming = true;
    const next = () => {
      if (this.idle.length >= this.target) {
        this.warming = false;
        this.target = 0;
        return;
      }
      try {
        this.idle.push(new SileroVad(this.modelPath));
      } catch {
        this.warming = false;
        return;
      }
      setTimeout(next, 50).unref();
    };
    setTimeout(next, 50).unref();
  }

  get spares(): number {
    return this.idle.length;
  }
}

/** Silero model files in preference order: v5 is the version sherpa-onnx's support targets. */
const SILERO_FILES = ['silero_vad_v5.1.2.onnx', 'silero_vad.onnx'];

/**
 * The Silero v5 model shipped inside the `@ricky0123/vad-web` npm package (ISC; the model is
 * Silero's, MIT): byte-identical to silero_vad_v5.1.2.onnx, so a plain `npm install` gives
 * calls Silero without a download. Null when the package is not installed.
 */
export function bundledSileroModel(): string | null {
  try {
    const dir = path.dirname(require.resolve('@ricky0123/vad-web'));
    const p = path.join(dir, 'silero_vad_v5.onnx');
    return fs.existsSync(p) ? p : null;
  } catch {
    return null;
  }
}

/** A Silero model under MODELS_DIR (it wins when present). */
export function findSileroModel(modelsDir: string): string | null {
  for (const dir of [path.join(modelsDir, 'silero-vad'), modelsDir]) {
    for (const f of SILERO_FILES) {
      const p = path.join(dir, f);
      if (fs.existsSync(p)) return p;
    }
  }
  return null;
}
