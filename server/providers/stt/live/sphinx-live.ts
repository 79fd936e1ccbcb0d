import { type ChildProcessByStdio } from 'node:child_process';
import { spawnTied } from '../../../child-process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { LiveRecognizer } from './types';
import type { DecoderGate, GatedDecoder } from './decoder-gate';

/**
 * What both live searches share. Only the first search pass: the second and third add a few
 * hundred milliseconds at the end of every utterance, which the rep would hear as a slower
 * homeowner, for a small accuracy gain. No spectral noise subtraction, as for recordings
 * (BATCH_ARGS): it took speech away with the noise. In `npm run bench:turns` the words the
 * listener heard went from 23.1% to 21.5% word errors on the full search and from 30.2% to 26.8%
 * on the light one, with the same cut-ins and decoder CPU.
 */
const LIVE_COMMON = ['-fwdflat', 'no', '-bestpath', 'no', '-remove_noise', 'no'];

/**
 * At most 5,000 active HMMs a frame: a fifth less decoder CPU per second of speech (bench:turns
 * 0.170 -> 0.139 CPU-s), which is what keeps replies prompt when many calls share the cores,
 * for 0.7 points of WER on the fixtures (24.5% -> 25.2%, same search as a batch decode).
 */
export const LIVE_SEARCH_ARGS = [...LIVE_COMMON, '-maxhmmpf', '5000'];

/**
 * A narrower search for calls started while the machine is busy: about a third less decoder CPU
 * (bench:turns 0.181 -> 0.119 CPU-s per second of speech) for about 5 points more word errors in
 * what the listener heard (21.5% -> 26.8%), so more calls fit on the same cores.
 */
export const LIGHT_SEARCH_ARGS = [...LIVE_COMMON, '-ds', '2', '-topn', '2', '-maxhmmpf', '3000'];

type FrameType = 'B' | 'A' | 'P' | 'E';

/**
 * Audio goes to the decoder in pieces of about 96 ms: each piece wakes the process with its
 * model's working set out of cache, so 32 ms pieces cost about half as much CPU again (1.49 s
 * against 1.01 s for 11 s of speech fed in real time). Captions and the end of a turn flush
 * what is waiting first, so neither sees older audio.
 */
const BATCH_SAMPLES = 1536;

interface Pending {
  kind: 'P' | 'F';
  resolve(text: string | null): void;
  timer: ReturnType<typeof setTimeout> | null;
}

/** A frame not yet handed to the decoder (with a gate, see decoder-gate.ts). */
interface Outgoing {
  bytes: Buffer;
  /** A turn decision waits on its answer. */
  urgent: boolean;
  /** Samples of audio it carries. */
  samples: number;
  at: number;
}

/**
 * Audio handed to a gated decoder at a time when nothing urgent waits: about 200 ms, a few
 * milliseconds of decoding, so a decoder that a turn is waiting on gets a slot soon.
 */
const SHARE_SAMPLES = 2 * BATCH_SAMPLES;

/**
 * One warm PocketSphinx decoder per call (`native/sphinx-live.c`), driven utterance by
 * utterance over a framed stdin protocol. Loading the language model takes 0.3-0.8 s, which a
 * process per utterance would add to every reply; this decoder has the words about 20-50 ms
 * after the turn ends, and answers caption requests from its running hypothesis.
 */
export class SphinxLiveRecognizer implements LiveRecognizer, GatedDecoder {
  readonly id = 'pocketsphinx-live';
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly pending: Pending[] = [];
  private buffer = '';
  private closed = false;
  private inUtterance = false;
  private batch: Buffer[] = [];
  private batchSamples = 0;
  /**
   * Whether the decoder acknowledges each frame (protocol 2): known once it has loaded its
   * models. With a gate, frames wait in the outbox until then; an older build that does not
   * acknowledge is written to directly, as is every decoder without a gate.
   */
  private acknowledges: boolean | null = null;
  private readonly outbox: Outgoing[] = [];
  /** Frames handed to the decoder and not yet answered. */
  private handed = 0;

  /** Set by a pool: `close` offers the decoder back instead of ending it (true = taken). */
  onRelease: ((r: SphinxLiveRecognizer) => boolean) | null = null;

  constructor(
    binary: string,
    modelDir: string,
    /** Search settings passed to the decoder (LIVE_SEARCH_ARGS or LIGHT_SEARCH_ARGS). */
    readonly searchArgs: string[] = LIVE_SEARCH_ARGS,
    /** Shares the cores with the other calls' decoders by urgency; none: straight to the pipe. */
    private readonly gate: DecoderGate | null = null,
  ) {
    this.child = spawnTied(
      binary,
      [
        '-logfn',
        '/dev/null',
        '-hmm',
        path.join(modelDir, 'en-us'),
        '-lm',
        path.join(modelDir, 'en-us.lm.bin'),
        '-dict',
        path.join(modelDir, 'cmudict-en-us.dict'),
        ...searchArgs,
      ],
      { stdio: ['pipe', 'pipe', 'ignore'] },
    );
    this.child.stdin.on('error', () => this.close());
    this.child.on('error', () => this.close());
    this.child.on('exit', () => this.close());
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => this.onOutput(text));
  }

  get alive(): boolean {
    return !this.closed;
  }

  /** The decoder's process id (tests and the benchmark look at it). */
  get pid(): number | undefined {
    return this.child.pid;
  }

  begin(): void {
    this.flush();
    this.inUtterance = true;
    this.frame('B');
  }

  write(pcm: Int16Array): void {
    if (!this.inUtterance || pcm.length === 0) return;
    // Copied: the caller may reuse its buffer before the batch is sent.
    this.batch.push(Buffer.from(new Uint8Array(pcm.buffer, pcm.byteOffset, pcm.byteLength)));
    this.batchSamples += pcm.length;
    if (this.batchSamples >= BATCH_SAMPLES) this.flush();
  }

  partial(timeoutMs: number, opts?: { urgent?: boolean }): Promise<string | null> {
    if (!this.inUtterance) return Promise.resolve('');
    this.flush();
    return this.request('P', timeoutMs, 'P', opts?.urgent ?? false);
  }

  end(timeoutMs: number): Promise<string | null> {
    this.flush();
    this.inUtterance = false;
    return this.request('F', timeoutMs, 'E', true);
  }

  get waiting(): boolean {
    return this.outbox.length > 0 && this.acknowledges === true && !this.closed;
  }

  get urgent(): boolean {
    return this.outbox.some((f) => f.urgent);
  }

  get waitingSince(): number {
    return this.outbox[0]?.at ?? Infinity;
  }

  get busy(): boolean {
    return this.handed > 0;
  }

  /**
   * Hands the decoder its next share: everything up to the last frame a turn decision waits
   * on (all of it must be decoded first anyway), else about 200 ms of audio and any caption
   * request among it.
   */
  release(): void {
    if (!this.waiting) return;
    let upTo = -1;
    for (let i = this.outbox.length - 1; i >= 0; i--)
      if (this.outbox[i].urgent) {
        upTo = i;
        break;
      }
    if (upTo < 0) {
      let samples = 0;
      upTo = this.outbox.length - 1;
      for (let i = 0; i < this.outbox.length; i++) {
        samples += this.outbox[i].samples;
        if (samples >= SHARE_SAMPLES) {
          upTo = i;
          break;
        }
      }
    }
    const share = this.outbox.splice(0, upTo + 1);
    this.handed += share.length;
    this.child.stdin.write(share.length === 1 ? share[0].bytes : Buffer.concat(share.map((f) => f.bytes)));
  }

  private flush(): void {
    if (!this.batch.length) return;
    const audio = this.batch.length === 1 ? this.batch[0] : Buffer.concat(this.batch);
    this.batch = [];
    this.batchSamples = 0;
    this.frame('A', audio);
  }

  close(): void {
    if (this.closed) return;
    const release = this.onRelease;
    this.onRelease = null;
    if (release) {
      // Back to a pool: an utterance the call left open is ended and its words dropped.
      if (this.inUtterance) void this.end(5000);
      this.batch = [];
      this.batchSamples = 0;
      if (release(this)) return;
    }
    this.closed = true;
    this.inUtterance = false;
    this.outbox.length = 0;
    this.handed = 0;
    this.gate?.leave(this);
    try {
      this.child.stdin.destroy();
    } catch {
      // Already gone.
    }
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
    for (const p of this.pending.splice(0)) {
      if (p.timer) clearTimeout(p.timer);
      p.resolve(null);
    }
  }

  private frame(type: FrameType, payload?: Buffer, urgent = false): void {
    if (this.closed) return;
    const header = Buffer.alloc(5);
    header.write(type, 0, 'latin1');
    header.writeUInt32LE(payload?.length ?? 0, 1);
    const bytes = payload?.length ? Buffer.concat([header, payload]) : header;
    if (!this.gate || this.acknowledges === false) {
      this.child.stdin.write(bytes);
      return;
    }
    this.outbox.push({ bytes, urgent, samples: (payload?.length ?? 0) / 2, at: performance.now() });
    this.gate.pump();
  }

  /** The decoder has loaded its models and said which protocol it speaks. */
  private onReady(line: string): void {
    this.acknowledges = line.split(' ')[1] === '2';
    if (this.gate && this.acknowledges) {
      this.gate.join(this);
      return;
    }
    // An older build, which does not acknowledge: what queued while it loaded goes at once.
    const queued = this.outbox.splice(0);
    if (queued.length) this.child.stdin.write(Buffer.concat(queued.map((f) => f.bytes)));
  }

  /** A frame handed over is done: the next share may go, to this decoder or another. */
  private answered(): void {
    if (this.handed === 0) return;
    this.handed--;
    if (this.handed === 0) this.gate?.pump();
  }

  private request(
    kind: 'P' | 'F',
    timeoutMs: number,
    frameType: FrameType = kind as FrameType,
    urgent = false,
  ): Promise<string | null> {
    if (this.closed) return Promise.resolve(null);
    return new Promise((resolve) => {
      // A request that times out keeps its place: the decoder still answers it, in order.
      const entry: Pending = { kind, resolve, timer: null };
      entry.timer = setTimeout(() => {
        entry.timer = null;
        const r = entry.resolve;
        entry.resolve = () => undefined;
        r(null);
      }, timeoutMs);
      this.pending.push(entry);
      this.frame(frameType, undefined, urgent);
    });
  }

  private onOutput(text: string): void {
    this.buffer += text;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      const kind = line[0];
      if (kind === 'R') this.onReady(line);
      if (kind === 'a' && this.acknowledges) this.answered();
      if (kind !== 'P' && kind !== 'F') {
        // 'X' is a fatal error, after which the process exits.
        continue;
      }
      if (this.acknowledges) this.answered();
      const entry = this.pending.shift();
      if (!entry) continue;
      if (entry.timer) clearTimeout(entry.timer);
      entry.resolve(cleanHypothesis(line.slice(2)));
    }
  }
}

/** Drops the decoder's noise and filler tokens, and alternate-pronunciation marks. */
export function cleanHypothesis(hyp: string): string {
  return hyp
    .split(/\s+/)
    .filter((w) => w && !/^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+|\+.*\+)$/i.test(w))
    .map((w) => w.replace(/\(\d+\)$/, ''))
    .join(' ');
}
