import type { ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { spawnTied } from '../../child-process';

/**
 * One build/sphinx-batch process that decodes many chunk files in turn (a path per line in; the
 * file's lines, then `#end`, out), so a recording pays one model load per decoder instead of
 * one per chunk: about 0.35 s of CPU and 0.5 s of wall time each (docs/benchmarks.md).
 */
export class WarmDecoder {
  private readonly child: ChildProcessByStdio<Writable, Readable, Readable>;
  private out = '';
  private err = '';
  private waiting: { resolve: (text: string) => void; reject: (err: Error) => void } | null = null;
  private failure: Error | null = null;

  constructor(binary: string, args: string[]) {
    this.child = spawnTied(binary, args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (text: string) => this.onOutput(text));
    this.child.stderr.on('data', (b: Buffer) => {
      if (this.err.length < 4000) this.err += b.toString();
    });
    this.child.stdin.on('error', () => this.fail(new Error(this.stoppedMessage(null))));
    this.child.on('error', (e) => this.fail(e));
    this.child.on('close', (code) => this.fail(new Error(this.stoppedMessage(code))));
  }

  /** The decoder's output lines for one 16 kHz mono WAV file. */
  decode(file: string, signal?: AbortSignal): Promise<string> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.waiting) return Promise.reject(new Error('the decoder is busy'));
    if (/[\r\n]/.test(file)) return Promise.reject(new Error('a chunk path may not contain a line break'));
    return new Promise((resolve, reject) => {
      const onAbort = () => this.kill();
      signal?.addEventListener('abort', onAbort, { once: true });
      const done = () => signal?.removeEventListener('abort', onAbort);
      this.waiting = {
        resolve: (text) => {
          done();
          resolve(text);
        },
        reject: (err) => {
          done();
          reject(signal?.aborted ? (signal.reason ?? err) : err);
        },
      };
      this.child.stdin.write(`${file}\n`);
    });
  }

  /** Lets the process finish and exit (standard input closes). */
  close(): void {
    if (!this.failure) this.child.stdin.end();
  }

  kill(): void {
    this.child.kill('SIGKILL');
  }

  private onOutput(text: string): void {
    this.out += text;
    for (;;) {
      const end = this.out.indexOf('#end\n');
      if (end < 0) return;
      const body = this.out.slice(0, end);
      this.out = this.out.slice(end + 5);
      const waiting = this.waiting;
      this.waiting = null;
      const error = /^#error (\d+)\n?$/m.exec(body);
      if (error)
        waiting?.reject(new Error(`pocketsphinx failed (exit ${error[1]}): ${this.err.trim().slice(-300)}`));
      else waiting?.resolve(body);
    }
  }

  private stoppedMessage(code: number | null): string {
    return `pocketsphinx failed (exit ${code ?? 'unknown'}): ${this.err.trim().slice(-300)}`;
  }

  private fail(err: Error): void {
    if (this.failure) return;
    this.failure = err;
    const waiting = this.waiting;
    this.waiting = null;
    waiting?.reject(err);
  }
}
