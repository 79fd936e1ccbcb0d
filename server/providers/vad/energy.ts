import { rms } from '../../audio/wav';
import type { FrameVad } from './types';

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
