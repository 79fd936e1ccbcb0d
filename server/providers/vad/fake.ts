import { rms } from '../../audio/wav';
import type { FrameVad, VadFactory } from './types';

/**
 * A detector for tests about the call, not about detection: a window is speech when its level
 * is above a fixed threshold (a test tone is speech, digital silence is not), with no state.
 */
export class FakeVad implements FrameVad {
  readonly id = 'fake';
  closed = false;

  constructor(private readonly threshold = 0.05) {}

  isSpeech(window: Float32Array): boolean {
    return rms(window) > this.threshold;
  }

  reset(): void {}

  close(): void {
    this.closed = true;
  }
}

export function fakeVadFactory(threshold?: number): VadFactory {
  return {
    create: () => new FakeVad(threshold),
    info: {
      capability: 'voice-activity',
      engine: 'fake',
      label: 'Test voice detection',
      reason: 'tests',
      quality: 'basic',
      ok: true,
    },
  };
}
