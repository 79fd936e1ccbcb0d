import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { EngineInfo } from '../providers/types';
import { rms } from '../audio/wav';

const require = createRequire(import.meta.url);

/** Silero and the energy detector both look at 32 ms windows of 16 kHz audio. */
export const VAD_WINDOW = 512;
export const VAD_SAMPLE_RATE = 16_000;
export const VAD_WINDOW_MS = (VAD_WINDOW / VAD_SAMPLE_RATE) * 1000;

/** Decides, one 512-sample window at a time, whether the rep is speaking. */
export interface FrameVad {
  readonly id: string;
  isSpeech(window: Float32Array): boolean;
  reset(): void;
  close(): void;
}

/**
 * Energy detector with an adaptive noise floor: speech is a window well above the floor
 * and above an absolute minimum. Used when no Silero model is present.
 */
export class EnergyVad implements FrameVad {
  readonly id = 'energy';
  private floor = 0.003;

  constructor(private readonly minLevel = 0.012) {}

  isSpeech(window: Float32Array): boolean {
    const level = rms(window);
    const speech = level > Math.max(this.minLevel, this.floor * 3);
    // The floor follows quiet windows quickly and loud ones slowly, so speech does not raise it.
    const rate = level < this.floor ? 0.2 : speech ? 0.002 : 0.02;
    this.floor += (level - this.floor) * rate;
    return speech;
  }

  reset(): void {
    this.floor = 0.003;
  }

  close(): void {}
}

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
class SileroPool {
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

  /**
   * Makes spare detectors one at a time in the background (at boot, before calls arrive), so
   * the first calls of a busy moment do not each stall the others while a model loads.
   */
  warm(spares: number): void {
    const next = () => {
      if (this.idle.length >= spares) return;
      try {
        this.idle.push(new SileroVad(this.modelPath));
      } catch {
        return;
      }
      setTimeout(next, 50).unref();
    };
    setTimeout(next, 50).unref();
  }
}

/** Silero model files in preference order: v5 is the version sherpa-onnx's support targets. */
const SILERO_FILES = ['silero_vad_v5.1.2.onnx', 'silero_vad.onnx'];

export function findSileroModel(modelsDir: string): string | null {
  for (const dir of [path.join(modelsDir, 'silero-vad'), modelsDir]) {
    for (const f of SILERO_FILES) {
      const p = path.join(dir, f);
      if (fs.existsSync(p)) return p;
    }
  }
  return null;
}

export interface VadFactory {
  create(): FrameVad;
  info: EngineInfo;
  /** Prepares detectors for this many calls ahead of time (a no-op for the energy detector). */
  warm?(calls: number): void;
}

/** Chooses Silero when its model is present and loads, else the energy detector. */
export function selectVad(modelsDir: string, wanted?: string): VadFactory {
  const model = wanted === 'energy' ? null : findSileroModel(modelsDir);
  if (model) {
    try {
      const pool = new SileroPool(model);
      pool.give(new SileroVad(model));
      return {
        create: () => pool.take(),
        warm: (calls) => pool.warm(calls),
        info: {
          capability: 'voice-activity',
          engine: 'silero',
          label: 'Silero VAD',
          reason: `model found at ${model}`,
          quality: 'enhanced',
          ok: true,
        },
      };
    } catch (err) {
      return energyFactory(
        `Silero model failed to load: ${err instanceof Error ? err.message : String(err)}`,
      );
    }
  }
  return energyFactory(wanted === 'energy' ? 'VAD_PROVIDER=energy' : `no Silero model under ${modelsDir}`);
}

function energyFactory(reason: string): VadFactory {
  return {
    create: () => new EnergyVad(),
    info: {
      capability: 'voice-activity',
      engine: 'energy',
      label: 'Energy-based voice detection',
      reason,
      quality: 'basic',
      upgradeHint: 'Run npm run models to fetch the Silero VAD model.',
      ok: true,
    },
  };
}
