import { spawn, type ChildProcessByStdio } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { Readable, Writable } from 'node:stream';

const DEFAULT_MODEL_DIR = '/usr/share/pocketsphinx/model/en-us';
const TIMED = /^(\S+)\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)\s+(-?\d+(?:\.\d+)?)$/;
const NOT_A_WORD = /^(<s>|<\/s>|<sil>|\[.*\]|\+\+.*\+\+|\+.*\+)$/i;

/**
 * Skip the second and third search passes: they add a few hundred milliseconds at the end of
 * every utterance, which the rep would hear as a slower homeowner, for a small accuracy gain.
 */
export const FAST_ARGS = ['-fwdflat', 'no', '-bestpath', 'no'];

interface TimedWord {
  word: string;
  startMs: number;
  endMs: number;
}

/** A live recogniser: audio is written as it arrives, text for a stretch of the stream is asked for later. */
export interface StreamingRecognizer {
  readonly id: string;
  /** False once the recogniser process has gone (the call then decodes clips instead). */
  readonly alive: boolean;
  write(pcm: Int16Array): void;
  /** Text spoken between two stream positions (ms), or null if the recogniser has not caught up in time. */
  textBetween(startMs: number, endMs: number, timeoutMs: number): Promise<string | null>;
  close(): void;
}

export function pocketSphinxModelDir(
  dir = process.env.POCKETSPHINX_MODEL_DIR ?? DEFAULT_MODEL_DIR,
): string | null {
  const ok =
    fs.existsSync(path.join(dir, 'en-us', 'mdef')) &&
    fs.existsSync(path.join(dir, 'en-us.lm.bin')) &&
    fs.existsSync(path.join(dir, 'cmudict-en-us.dict'));
  return ok ? dir : null;
}

/**
 * One warm `pocketsphinx_continuous` per call, fed the rep's audio in real time on stdin.
 * Loading the language model takes 0.3-0.8 s, so a process per utterance would add that
 * to every reply; the warm decoder has the words ready about 250 ms after the rep stops.
 * Word times are stream positions, so they line up with the call's own turn-taking.
 */
export class PocketSphinxStream implements StreamingRecognizer {
  readonly id = 'pocketsphinx-stream';
  private readonly child: ChildProcessByStdio<Writable, Readable, null>;
  private readonly words: TimedWord[] = [];
  private block: TimedWord[] = [];
  /** Stream position up to which the decoder has reported finished utterances. */
  private decodedToMs = 0;
  private buffer = '';
  private closed = false;
  private waiters: (() => void)[] = [];

  constructor(modelDir: string, binary = 'pocketsphinx_continuous', extraArgs: string[] = FAST_ARGS) {
    // The decoder opens /dev/stdin, which must be a real pipe (Node's stdio is a socket), hence
    // `cat |`; stdbuf line-buffers its stdout, which would otherwise hold words back for seconds.
    // Its own process group, so teardown reaches every process in the pipeline.
    this.child = spawn(
      'sh',
      [
        '-c',
        'cat | exec stdbuf -oL "$0" "$@"',
        binary,
        '-infile',
        '/dev/stdin',
        '-time',
        'yes',
        '-logfn',
        '/dev/null',
        // End its utterances after 150 ms of silence, well before our own end of turn (400 ms);
        // words are gathered by time, so a turn split into several utterances still reads whole.
        '-vad_postspeech',
        '15',
        '-hmm',
        path.join(modelDir, 'en-us'),
        '-lm',
        path.join(modelDir, 'en-us.lm.bin'),
        '-dict',
        path.join(modelDir, 'cmudict-en-us.dict'),
        ...extraArgs,
      ],
      { stdio: ['pipe', 'pipe', 'ignore'], detached: true },
    );
    this.child.stdin.on('error', () => this.close());
    this.child.on('error', () => this.close());
    this.child.on('exit', () => {
      this.closed = true;
      this.wake();
    });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => this.onOutput(text));
  }

  get alive(): boolean {
    return !this.closed;
  }

  write(pcm: Int16Array): void {
    if (this.closed) return;
    this.child.stdin.write(Buffer.from(pcm.buffer, pcm.byteOffset, pcm.byteLength));
  }

  private onOutput(text: string): void {
    this.buffer += text;
    let newline: number;
    while ((newline = this.buffer.indexOf('\n')) >= 0) {
      const line = this.buffer.slice(0, newline).trim();
      this.buffer = this.buffer.slice(newline + 1);
      const m = TIMED.exec(line);
      if (!m) continue;
      const token = m[1];
      const startMs = Math.round(Number(m[2]) * 1000);
      const endMs = Math.round(Number(m[3]) * 1000);
      if (token === '<s>') {
        this.block = [];
      } else if (token === '</s>') {
        this.words.push(...this.block);
        this.block = [];
        this.decodedToMs = Math.max(this.decodedToMs, endMs);
        // Bound memory on long calls: words far behind the newest are never asked for again.
        while (this.words.length > 2000) this.words.shift();
        this.wake();
      } else if (!NOT_A_WORD.test(token)) {
        this.block.push({ word: token.replace(/\(\d+\)$/, ''), startMs, endMs });
      }
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  async textBetween(startMs: number, endMs: number, timeoutMs: number): Promise<string | null> {
    const deadline = Date.now() + timeoutMs;
    // Its utterance closes at or after the rep's last word; allow for the two detectors disagreeing a little.
    while (this.decodedToMs < endMs - 150 && !this.closed) {
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    if (this.decodedToMs < endMs - 150) return null;
    return this.words
      .filter((w) => {
        const mid = (w.startMs + w.endMs) / 2;
        return mid >= startMs - 250 && mid <= endMs + 400;
      })
      .map((w) => w.word)
      .join(' ');
  }

  close(): void {
    if (this.closed) return;
    this.closed = true;
    try {
      this.child.stdin.end();
    } catch {
      // Already gone.
    }
    try {
      if (this.child.pid) process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      // The group has already exited.
    }
    this.wake();
  }
}
