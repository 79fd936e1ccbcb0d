import { type ChildProcessByStdio } from 'node:child_process';
import { spawnTied } from '../../child-process';
import { cpuCores } from '../../machine';
import { PushQueue } from '../../push-queue';
import type { Readable, Writable } from 'node:stream';
import type { TextToSpeech, TtsAudio, VoiceStyle } from './types';

/** espeak-ng's voice name, speed (words per minute) and pitch; refuses option-like names. */
export function espeakVoice(voice: VoiceStyle): { name: string; rate: number; pitch: number } {
  if (!/^[a-z0-9_+-]+$/i.test(voice.espeakVoice)) throw new Error(`Unknown voice: ${voice.espeakVoice}`);
  const clamp = (v: number, lo: number, hi: number) => Math.round(Math.min(hi, Math.max(lo, v)));
  return { name: voice.espeakVoice, rate: clamp(voice.rate, 80, 450), pitch: clamp(voice.pitch, 0, 99) };
}

interface Sink {
  push(pcm: Int16Array): void;
  done(): void;
  fail(err: Error): void;
}

/** One espeak-live process: requests are written as lines and answered in order. */
class Synthesiser {
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly pending: Sink[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  sampleRate = 22_050;
  dead = false;

  constructor(binary: string) {
    this.child = spawnTied(binary, [], { stdio: ['pipe', 'pipe', 'ignore'] });
    this.child.stdin.on('error', () => this.die(new Error('espeak-live stopped')));
    this.child.on('error', (err) => this.die(err));
    this.child.on('exit', () => this.die(new Error('espeak-live stopped')));
    this.child.stdout.on('data', (data: Buffer) => this.onData(data));
  }

  get load(): number {
    return this.pending.length;
  }

  request(voice: { name: string; rate: number; pitch: number }, text: string, sink: Sink): void {
    if (this.dead) return sink.fail(new Error('espeak-live stopped'));
    this.pending.push(sink);
    this.child.stdin.write(`${voice.name}\t${voice.rate}\t${voice.pitch}\t${text}\n`);
  }

  close(): void {
    this.die(new Error('espeak-live closed'));
    this.child.kill('SIGKILL');
  }

  private die(err: Error): void {
    if (this.dead) return;
    this.dead = true;
    for (const sink of this.pending.splice(0)) sink.fail(err);
  }

  private onData(data: Buffer): void {
    this.buffer = this.buffer.length ? Buffer.concat([this.buffer, data]) : data;
    while (this.buffer.length >= 5) {
      const len = this.buffer.readUInt32LE(1);
      if (this.buffer.length < 5 + len) break;
      const type = String.fromCharCode(this.buffer[0]);
      const payload = this.buffer.subarray(5, 5 + len);
      this.buffer = this.buffer.subarray(5 + len);
      if (type === 'R') {
        this.sampleRate = payload.readUInt32LE(0) || this.sampleRate;
      } else if (type === 'A') {
        this.pending[0]?.push(toInt16(payload));
      } else if (type === 'D') {
        this.pending.shift()?.done();
      } else if (type === 'X') {
        this.pending.shift()?.fail(new Error(payload.toString('utf8') || 'espeak-live failed'));
      }
    }
  }
}

/**
 * espeak-ng through long-lived synthesisers (`native/espeak-live.c`), one per core, shared by
 * every call. A process per sentence costs a process start and a voice load each time, and
 * spawning from the server blocks its event loop for tens of milliseconds once it is large;
 * with 20 live calls that was a quarter of the server's main thread.
 */
export class EspeakLiveTts implements TextToSpeech {
  readonly id = 'espeak-ng';
  readonly label = 'Offline voice (espeak-ng)';
  private readonly pool: (Synthesiser | null)[];
  private closed = false;

  constructor(
    private readonly binary: string,
    size = Math.min(4, cpuCores()),
  ) {
    this.pool = new Array<Synthesiser | null>(size).fill(null);
  }

  /** The least busy synthesiser, starting (or restarting) one when its slot is empty or dead. */
  private pick(): Synthesiser {
    let best = -1;
    for (let i = 0; i < this.pool.length; i++) {
      const s = this.pool[i];
      if (!s || s.dead) {
        this.pool[i] = new Synthesiser(this.binary);
        return this.pool[i]!;
      }
      if (best < 0 || s.load < this.pool[best]!.load) best = i;
    }
    return this.pool[best]!;
  }

  async *synthesize(
    text: string,
    opts: { voice: VoiceStyle; signal?: AbortSignal },
  ): AsyncIterable<TtsAudio> {
    const clean = text.replace(/\s+/g, ' ').trim();
    if (!clean || opts.signal?.aborted || this.closed) return;
    const voice = espeakVoice(opts.voice);
    const synth = this.pick();
    const chunks = new PushQueue<Int16Array>();
    synth.request(voice, clean, {
      push: (pcm) => chunks.push(pcm),
      done: () => chunks.end(),
      fail: (err) => chunks.fail(err),
    });
    for await (const pcm of chunks.read(opts.signal)) yield { sampleRate: synth.sampleRate, pcm };
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const s of this.pool) s?.close();
  }
}

function toInt16(buf: Buffer): Int16Array {
  // Copy: the stream's buffers are pooled and may be unaligned.
  const out = new Int16Array(buf.length / 2);
  for (let i = 0; i < out.length; i++) out[i] = buf.readInt16LE(i * 2);
  return out;
}
