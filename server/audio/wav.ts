/**
 * The one home of PCM and WAV helpers (RIFF, PCM 16-bit) for the 16 kHz mono Int16 audio the
 * engines use: file pipeline, live calls, tests and benchmarks.
 */

/** The rate of the PCM every engine takes and every decode produces. */
export const PCM_SAMPLE_RATE = 16_000;

export function wavHeader(dataBytes: number, sampleRate: number, channels = 1): Buffer {
  const header = Buffer.alloc(44);
  header.write('RIFF', 0, 'ascii');
  header.writeUInt32LE(36 + dataBytes, 4);
  header.write('WAVE', 8, 'ascii');
  header.write('fmt ', 12, 'ascii');
  header.writeUInt32LE(16, 16);
  header.writeUInt16LE(1, 20); // PCM
  header.writeUInt16LE(channels, 22);
  header.writeUInt32LE(sampleRate, 24);
  header.writeUInt32LE(sampleRate * channels * 2, 28);
  header.writeUInt16LE(channels * 2, 32);
  header.writeUInt16LE(16, 34);
  header.write('data', 36, 'ascii');
  header.writeUInt32LE(dataBytes, 40);
  return header;
}

/** Encodes mono Int16 samples as a complete WAV file. */
export function encodeWav(pcm: Int16Array, sampleRate: number): Buffer {
  const data = Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength);
  return Buffer.concat([wavHeader(data.length, sampleRate), data]);
}

/** Reads a PCM 16-bit WAV (any channel count) into interleaved samples. */
export function decodeWav(buf: Buffer): { samples: Int16Array; sampleRate: number; channels: number } {
  if (buf.length < 12 || buf.toString('ascii', 0, 4) !== 'RIFF' || buf.toString('ascii', 8, 12) !== 'WAVE') {
    throw new Error('Not a WAV file');
  }
  let offset = 12;
  let sampleRate = 0;
  let channels = 0;
  let bits = 0;
  let format = 0;
  while (offset + 8 <= buf.length) {
    const id = buf.toString('ascii', offset, offset + 4);
    const size = buf.readUInt32LE(offset + 4);
    const body = offset + 8;
    if (id === 'fmt ') {
      format = buf.readUInt16LE(body);
      channels = buf.readUInt16LE(body + 2);
      sampleRate = buf.readUInt32LE(body + 4);
      bits = buf.readUInt16LE(body + 14);
    } else if (id === 'data') {
      if (format !== 1 || bits !== 16) throw new Error('Only 16-bit PCM WAV is supported here');
      const end = Math.min(buf.length, body + size);
      const bytes = Buffer.from(buf.subarray(body, end - ((end - body) % 2)));
      return {
        samples: new Int16Array(bytes.buffer, bytes.byteOffset, bytes.length / 2),
        sampleRate,
        channels,
      };
    }
    offset = body + size + (size % 2);
  }
  throw new Error('WAV file has no data chunk');
}

/** Reads a PCM 16-bit WAV into mono samples (channels averaged). */
export function readWav(buf: Buffer): { sampleRate: number; pcm: Int16Array } {
  const { samples, sampleRate, channels } = decodeWav(buf);
  if (channels <= 1) return { sampleRate, pcm: samples };
  const frames = Math.floor(samples.length / channels);
  const pcm = new Int16Array(frames);
  for (let i = 0; i < frames; i++) {
    let sum = 0;
    for (let c = 0; c < channels; c++) sum += samples[i * channels + c];
    pcm[i] = Math.round(sum / channels);
  }
  return { sampleRate, pcm };
}

/** Concatenates Int16 chunks; with `total`, the result is cut (or zero-padded) to that length. */
export function concatPcm(parts: Int16Array[], total?: number): Int16Array {
  const length = total ?? parts.reduce((n, p) => n + p.length, 0);
  const out = new Int16Array(length);
  let at = 0;
  for (const p of parts) {
    if (at >= length) break;
    out.set(p.length <= length - at ? p : p.subarray(0, length - at), at);
    at += p.length;
  }
  return out;
}

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
