import { spawnSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { spawnTied } from '../../child-process';
import { ownerTag, tempRoot } from '../../temp';
import { readWav } from '../../audio/wav';
import type { TextToSpeech, TtsAudio, VoiceStyle } from './types';
import { fliteArgs, type FliteVoice } from './unit-voices';

/** Chunks of 100 ms at Flite's 16 kHz, so playback can start on the first. */
const CHUNK_SAMPLES = 1600;
/** A sentence never takes Flite this long; a stuck process is killed. */
const SYNTH_TIMEOUT_MS = 15_000;

export function fliteAvailable(bin = 'flite'): boolean {
  // `flite --version` prints its version and exits with 1.
  const r = spawnSync(bin, ['--version'], { encoding: 'utf8', timeout: 10_000 });
  return !r.error && /flite-\d/i.test(`${r.stdout}${r.stderr}`);
}

/** The Flite voice for a style: the persona's own, else by the espeak-ng voice's gender. */
export function fliteVoiceFor(voice: VoiceStyle): FliteVoice {
  if (voice.flite) return voice.flite;
  return { voice: /\+f\d/.test(voice.espeakVoice) ? 'slt' : 'rms', rate: voice.rate / 170 };
}

/**
 * Flite (Debian `flite`): CMU's small synthesiser with its built-in English voices, no model
 * files and no download. Its clustergen voices (slt, rms, awb) are far easier to understand
 * than espeak-ng's formant voice (word error rate through our recogniser 11-24% against 61-65%,
 * docs/benchmarks.md) at 50-90 ms to the first audio of a sentence. One process per sentence;
 * a persona's pitch is moved by the rate its samples are played at (`pitchShift`).
 */
export class FliteTts implements TextToSpeech {
  readonly id = 'flite';
  readonly label = 'Offline voice (Flite)';

  constructor(private readonly bin = 'flite') {}

  async *synthesize(
    text: string,
    opts: { voice: VoiceStyle; signal?: AbortSignal },
  ): AsyncIterable<TtsAudio> {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (!clean || opts.signal?.aborted) return;
    const voice = fliteVoiceFor(opts.voice);
    // Flite seeks in its output, so it writes a file (the server's stdout is a socket, not a file).
    const out = path.join(tempRoot(), `flite-${ownerTag()}-${randomUUID()}.wav`);
    await fs.mkdir(tempRoot(), { recursive: true });
    const child = spawnTied(this.bin, fliteArgs(voice, clean, out), { stdio: 'ignore' });
    const kill = () => child.kill('SIGKILL');
    const timer = setTimeout(kill, SYNTH_TIMEOUT_MS);
    opts.signal?.addEventListener('abort', kill);
    let wav: Buffer;
    try {
      const code = await new Promise<number | null>((resolve, reject) => {
        child.once('error', reject);
        child.once('close', resolve);
      });
      if (opts.signal?.aborted) return;
      if (code !== 0) throw new Error(`Flite failed (exit ${code})`);
      wav = await fs.readFile(out);
    } finally {
      clearTimeout(timer);
      opts.signal?.removeEventListener('abort', kill);
      if (child.exitCode === null) kill();
      await fs.rm(out, { force: true });
    }
    if (wav.length <= 44) throw new Error('Flite produced no audio');
    const { sampleRate, pcm } = readWav(wav);
    // Played faster or slower, the same samples sound higher or lower (and a little quicker or slower).
    const shift = voice.pitchShift && voice.pitchShift > 0.5 && voice.pitchShift < 2 ? voice.pitchShift : 1;
    const rate = Math.round(sampleRate * shift);
    for (let i = 0; i < pcm.length; i += CHUNK_SAMPLES) {
      if (opts.signal?.aborted) return;
      yield { sampleRate: rate, pcm: pcm.slice(i, i + CHUNK_SAMPLES) };
    }
  }
}
