import { type ChildProcessByStdio } from 'node:child_process';
import { spawnTied } from '../../../child-process';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';
import type { LiveRecognizer } from './types';

/**
 * Skip the second and third search passes: they add a few hundred milliseconds at the end of
 * every utterance, which the rep would hear as a slower homeowner, for a small accuracy gain.
 * At most 5,000 active HMMs a frame: a fifth less decoder CPU per second of speech (bench:turns
 * 0.170 -> 0.139 CPU-s), which is what keeps replies prompt when many calls share the cores,
 * for 0.7 points of WER on the fixtures (24.5% -> 25.2%, same search as a batch decode).
 */
const FIRST_PASS_ONLY = ['-fwdflat', 'no', '-bestpath', 'no'];
export const LIVE_SEARCH_ARGS = [...FIRST_PASS_ONLY, '-maxhmmpf', '5000'];

/**
 * A narrower search for calls started while the machine is busy: about half the CPU (CPU time
 * per second of speech 0.13 -> 0.06) for about 3 points more word errors (25% -> 28% on six
 * fixtures, docs/benchmarks.md), so more calls fit on the same cores.
 */
export const LIGHT_SEARCH_ARGS = [...FIRST_PASS_ONLY, '-ds', '2', '-topn', '2', '-maxhmmpf', '3000'];

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

/**
 * One warm PocketSphinx decoder per call (`native/sphinx-live.c`), driven utterance by
 * utterance over a framed stdin protocol. Loading the language model takes 0.3-0.8 s, which a
 * process per utterance would add to every reply; this decoder has the words about 20-50 ms
 * after the turn ends, and answers caption requests from its running hypothesis.
 */
export class SphinxLiveRecognizer implements LiveRecognizer {
  readonly id = 'pocketsphinx-live';
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly pending: Pending[] = [];
  private buffer = '';
  private closed = false;
  private inUtterance = false;
  private batch: Buffer[] = [];
  private batchSamples = 0;

  /** Set by a pool: `close` offers the decoder back instead of ending it (true = taken). */
  onRelease: ((r: SphinxLiveRecognizer) => boolean) | null = null;

  constructor(
    binary: string,
    modelDir: string,
    /** Search settings passed to the decoder (LIVE_SEARCH_ARGS or LIGHT_SEARCH_ARGS). */
    readonly searchArgs: string[] = LIVE_SEARCH_ARGS,
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

  partial(timeoutMs: number): Promise<string | null> {
    if (!this.inUtterance) return Promise.resolve('');
    this.flush();
    return this.request('P', timeoutMs);
  }

  end(timeoutMs: number): Promise<string | null> {
    this.flush();
    this.inUtterance = false;
    return this.request('F', timeoutMs, 'E');
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

  private frame(type: FrameType, payload?: Buffer): void {
    if (this.closed) return;
    const header = Buffer.alloc(5);
    header.write(type, 0, 'latin1');
    header.writeUInt32LE(payload?.length ?? 0, 1);
    this.child.stdin.write(payload?.length ? Buffer.concat([header, payload]) : header);
  }

  private request(
    kind: 'P' | 'F',
    timeoutMs: number,
    frameType: FrameType = kind as FrameType,
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
      this.frame(frameType);
    });
  }

  private onOutput(text: string): void {
    this.buffer += text;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline);
      this.buffer = this.buffer.slice(newline + 1);
      const kind = line[0];
      if (kind !== 'P' && kind !== 'F') {
        // 'R' (models loaded) needs no answer; 'X' is a fatal error, after which the process exits.
        continue;
      }
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
