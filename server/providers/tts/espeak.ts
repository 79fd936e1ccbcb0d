import { spawnSync } from 'node:child_process';
import { spawnTied } from '../../child-process';
import { espeakVoice } from './espeak-live';
import type { TextToSpeech, TtsAudio, VoiceStyle } from './types';

const WAV_HEADER_BYTES = 44;
/** Chunks of about 100 ms at espeak-ng's 22.05 kHz, so playback starts before synthesis ends. */
const CHUNK_SAMPLES = 2205;

export function espeakAvailable(bin = 'espeak-ng'): boolean {
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8' });
  return r.status === 0;
}

/** The espeak-ng arguments for a voice. */
export function espeakArgs(voice: VoiceStyle): string[] {
  const v = espeakVoice(voice);
  return ['-v', v.name, '-s', String(v.rate), '-p', String(v.pitch)];
}

/**
 * espeak-ng as a child process per sentence: 30-60 ms to first audio, no model files, robotic.
 * Used when the warm synthesisers (espeak-live.ts) have not been built.
 */
export class EspeakTts implements TextToSpeech {
  readonly id = 'espeak-ng';
  readonly label = 'Offline voice (espeak-ng)';

  constructor(private readonly bin = 'espeak-ng') {}

  async *synthesize(
    text: string,
    opts: { voice: VoiceStyle; signal?: AbortSignal },
  ): AsyncIterable<TtsAudio> {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (!clean || opts.signal?.aborted) return;
    // The text goes on stdin, never argv, so it cannot be read as an option.
    const child = spawnTied(this.bin, [...espeakArgs(opts.voice), '--stdout'], {
      stdio: ['pipe', 'pipe', 'ignore'],
    });
    const kill = () => child.kill('SIGKILL');
    opts.signal?.addEventListener('abort', kill);
    child.stdin.on('error', () => undefined);
    child.stdin.end(clean);
    let sampleRate = 22_050;
    let header = Buffer.alloc(0);
    let headerDone = false;
    let pending = Buffer.alloc(0);
    try {
      for await (const data of child.stdout as AsyncIterable<Buffer>) {
        if (opts.signal?.aborted) return;
        let buf = data;
        if (!headerDone) {
          header = Buffer.concat([header, buf]);
          if (header.length < WAV_HEADER_BYTES) continue;
          sampleRate = header.readUInt32LE(24) || sampleRate;
          buf = header.subarray(WAV_HEADER_BYTES);
          headerDone = true;
        }
        pending = Buffer.concat([pending, buf]);
        while (pending.length >= CHUNK_SAMPLES * 2) {
          yield { sampleRate, pcm: toInt16(pending.subarray(0, CHUNK_SAMPLES * 2)) };
          pending = pending.subarray(CHUNK_SAMPLES * 2);
        }
      }
      const even = pending.length - (pending.length % 2);
      if (even > 0 && !opts.signal?.aborted) yield { sampleRate, pcm: toInt16(pending.subarray(0, even)) };
    } finally {
      opts.signal?.removeEventListener('abort', kill);
      if (child.exitCode === null) kill();
    }
  }
}

function toInt16(buf: Buffer): Int16Array {
  // Copy: the child's buffers are pooled and may be unaligned.
  const out = new Int16Array(buf.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = buf.readInt16LE(i * 2);
  return out;
}
