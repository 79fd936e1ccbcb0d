/** Small PCM helpers for the voice pipeline (16-bit mono). */

export function int16ToFloat32(pcm: Int16Array): Float32Array {
  const out = new Float32Array(pcm.length);
  for (let i = 0; i < pcm.length; i++) out[i] = pcm[i] / 32768;
  return out;
}

/** Root-mean-square level, 0..1. */
export function rms(samples: Float32Array | Int16Array): number {
  if (samples.length === 0) return 0;
  const scale = samples instanceof Int16Array ? 1 / 32768 : 1;
  let sum = 0;
  for (let i = 0; i < samples.length; i++) {
    const v = samples[i] * scale;
    sum += v * v;
  }
  return Math.sqrt(sum / samples.length);
}

/** Linear-interpolation resampler; good enough for speech to a recogniser. */
export function resampleInt16(pcm: Int16Array, fromRate: number, toRate: number): Int16Array {
  if (fromRate === toRate) return pcm;
  const outLength = Math.floor((pcm.length * toRate) / fromRate);
  const out = new Int16Array(outLength);
  const step = fromRate / toRate;
  for (let i = 0; i < outLength; i++) {
    const pos = i * step;
    const i0 = Math.floor(pos);
    const i1 = Math.min(i0 + 1, pcm.length - 1);
    const frac = pos - i0;
    out[i] = Math.round(pcm[i0] * (1 - frac) + pcm[i1] * frac);
  }
  return out;
}

export function concatInt16(chunks: Int16Array[], total?: number): Int16Array {
  const length = total ?? chunks.reduce((n, c) => n + c.length, 0);
  const out = new Int16Array(length);
  let offset = 0;
  for (const c of chunks) {
    out.set(c.subarray(0, Math.min(c.length, length - offset)), offset);
    offset += c.length;
    if (offset >= length) break;
  }
  return out;
}

/** Reads a PCM WAV (16-bit) into mono samples; throws a clear error for anything else. */
export function readWav(buf: Buffer): { sampleRate: number; pcm: Int16Array } {
  if (buf.length < 44 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('Not a WAV file');
  }
  let offset = 12;
  let sampleRate = 0;
  let channels = 0;
  let bits = 0;
  let format = 0;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    let size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = buf.readUInt16LE(body);
      channels = buf.readUInt16LE(body + 2);
      sampleRate = buf.readUInt32LE(body + 4);
      bits = buf.readUInt16LE(body + 14);
    } else if (id === 'data') {
      if (format !== 1 || bits !== 16) throw new Error('Only 16-bit PCM WAV is supported');
      if (size > buf.length - body || size === 0xffffffff) size = buf.length - body;
      const frames = Math.floor(size / 2 / channels);
      const pcm = new Int16Array(frames);
      for (let i = 0; i < frames; i++) {
        let sum = 0;
        for (let c = 0; c < channels; c++) sum += buf.readInt16LE(body + (i * channels + c) * 2);
        pcm[i] = Math.round(sum / channels);
      }
      return { sampleRate, pcm };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file has no data chunk');
}
