/* global AudioWorkletProcessor, registerProcessor */
/**
 * The AudioWorklet that turns microphone input into 16 kHz mono Int16 frames. It runs in an
 * AudioContext created at 16 kHz (the browser resamples the microphone), batches 20 ms, and
 * posts each batch with its RMS level. A plain file served from our own origin, because the
 * page's content security policy allows scripts only from 'self'.
 */
class DoorstepMicCapture extends AudioWorkletProcessor {
  constructor(options) {
    super();
    const frame = (options && options.processorOptions && options.processorOptions.frameSamples) || 320;
    this.frame = new Int16Array(frame);
    this.filled = 0;
    this.sumSquares = 0;
  }

  process(inputs) {
    const input = inputs[0];
    const channel = input && input[0];
    if (!channel) return true;
    for (let i = 0; i < channel.length; i++) {
      let v = channel[i];
      if (v > 1) v = 1;
      else if (v < -1) v = -1;
      this.sumSquares += v * v;
      this.frame[this.filled++] = v < 0 ? v * 32768 : v * 32767;
      if (this.filled === this.frame.length) {
        const pcm = this.frame.slice();
        const level = Math.sqrt(this.sumSquares / this.frame.length);
        this.port.postMessage({ pcm, level }, [pcm.buffer]);
        this.filled = 0;
        this.sumSquares = 0;
      }
    }
    return true;
  }
}

registerProcessor('doorstep-mic-capture', DoorstepMicCapture);
