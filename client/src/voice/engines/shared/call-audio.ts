import { MOBILE_PERMISSION_WAIT } from '@core/constants';
import { UPSTREAM_SAMPLE_RATE } from '@core/voice-protocol';
import { microphoneErrorMessage, StartStageError } from '../../wrapper';
import { MIC_PROCESSOR_NAME, MIC_PROCESSOR_URL } from '../local/mic-worklet';
import { PcmPlayer } from '../local/player';

/** 20 ms per frame upstream. */
const FRAME_SAMPLES = 320;

function isMobile(): boolean {
  return typeof navigator !== 'undefined' && /Android|iPhone|iPad|iPod|Mobile/i.test(navigator.userAgent);
}

/** Root mean square of a window of samples (0..1 for Web Audio floats). */
export function rms(samples: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < samples.length; i++) sum += samples[i] * samples[i];
  return Math.sqrt(sum / samples.length);
}

export interface MicrophoneWiring {
  /** Send 16 kHz Int16 frames (with the worklet's level) here: the server recognises the rep. */
  onFrame?: (frame: { pcm: Int16Array; level: number }) => void;
  /** Keep an analyser on the microphone, read with `micLevel()`. */
  analyser?: boolean;
}

/**
 * The audio half of a call to our server, shared by the engines that use it: the microphone
 * (echo cancellation, noise suppression and auto gain on) into a 16 kHz capture context, and
 * the homeowner's PCM out through a jitter-buffered player. `release()` frees all of it.
 */
export class CallAudio {
  private stream: MediaStream | null = null;
  private captureCtx: AudioContext | null = null;
  private playbackCtx: AudioContext | null = null;
  private worklet: AudioWorkletNode | null = null;
  private analyser: AnalyserNode | null = null;
  private levelBuf: Float32Array<ArrayBuffer> | null = null;
  player: PcmPlayer | null = null;

  /** Asks for the microphone; a refusal fails the start's permission stage with a plain reason. */
  async requestMicrophone(): Promise<void> {
    // Mobile browsers need a moment between the tap and the permission prompt (spec §9).
    if (isMobile()) await new Promise((r) => setTimeout(r, MOBILE_PERMISSION_WAIT));
    try {
      this.stream = await navigator.mediaDevices.getUserMedia({
        audio: { echoCancellation: true, noiseSuppression: true, autoGainControl: true, channelCount: 1 },
      });
    } catch (err) {
      throw new StartStageError('mobile-permissions', microphoneErrorMessage(err), err);
    }
  }

  /** The capture context; with `frames`, the worklet that cuts the microphone into frames is loaded. */
  async openCapture(frames: boolean): Promise<void> {
    this.captureCtx = new AudioContext({ sampleRate: UPSTREAM_SAMPLE_RATE });
    if (frames) await this.captureCtx.audioWorklet.addModule(MIC_PROCESSOR_URL);
  }

  openPlayback(): void {
    this.playbackCtx = new AudioContext();
    this.player = new PcmPlayer(this.playbackCtx);
  }

  /** Connects the microphone to the frame worklet and/or the level analyser; false without one. */
  connectMicrophone(wiring: MicrophoneWiring): boolean {
    const ctx = this.captureCtx;
    if (!ctx || !this.stream) return false;
    const source = ctx.createMediaStreamSource(this.stream);
    if (wiring.analyser) {
      this.analyser = ctx.createAnalyser();
      this.analyser.fftSize = 512;
      this.levelBuf = new Float32Array(this.analyser.fftSize);
      source.connect(this.analyser);
    }
    const onFrame = wiring.onFrame;
    if (onFrame) {
      this.worklet = new AudioWorkletNode(ctx, MIC_PROCESSOR_NAME, {
        numberOfInputs: 1,
        numberOfOutputs: 0,
        channelCount: 1,
        processorOptions: { frameSamples: FRAME_SAMPLES },
      });
      this.worklet.port.onmessage = (e: MessageEvent<{ pcm: Int16Array; level: number }>) => onFrame(e.data);
      source.connect(this.worklet);
    }
    return true;
  }

  /** Browsers start contexts suspended until a user gesture; the start button was one. */
  async resume(): Promise<void> {
    await Promise.all([this.captureCtx?.resume(), this.playbackCtx?.resume()]);
  }

  /** The microphone's level now (RMS), or null without an analyser. */
  micLevel(): number | null {
    if (!this.analyser || !this.levelBuf) return null;
    this.analyser.getFloatTimeDomainData(this.levelBuf);
    return rms(this.levelBuf);
  }

  release(): void {
    this.player?.flush();
    this.player = null;
    if (this.worklet) {
      this.worklet.port.onmessage = null;
      this.worklet.disconnect();
    }
    this.worklet = null;
    this.analyser = null;
    this.stream?.getTracks().forEach((t) => t.stop());
    this.stream = null;
    void this.captureCtx?.close().catch(() => undefined);
    void this.playbackCtx?.close().catch(() => undefined);
    this.captureCtx = null;
    this.playbackCtx = null;
  }
}
