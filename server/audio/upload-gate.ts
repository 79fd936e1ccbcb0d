import { Transform, type TransformCallback } from 'node:stream';
import { SNIFF_BYTES, sniffAudio, type SniffResult } from './sniff';

/** An upload that ran past its size limit while it streamed. */
export class UploadTooLargeError extends Error {
  constructor(readonly limitBytes: number) {
    super(`The upload is larger than ${limitBytes} bytes.`);
    this.name = 'UploadTooLargeError';
  }
}

/**
 * Checks an upload as it streams in, before storage sees any of it: its first bytes must be a
 * recording (`sniffed`; nothing is passed on until they are read), and it may run to `maxBytes`
 * and no further (the stream errors at the first byte past it, so storage never completes the
 * file). Pipe the upload in; once `sniffed` says it is audio, hand the gate to storage.
 */
export class UploadGate extends Transform {
  /** What the first bytes are (read once SNIFF_BYTES arrived, or at the end of a shorter file). */
  readonly sniffed: Promise<SniffResult>;
  /** Bytes seen so far. */
  bytes = 0;
  private resolveSniffed!: (result: SniffResult) => void;
  private head: Buffer[] = [];
  private headBytes = 0;
  private result: SniffResult | null = null;

  constructor(private readonly maxBytes: number) {
    super();
    this.sniffed = new Promise((resolve) => (this.resolveSniffed = resolve));
    // Its errors are read from `errored` and from the storage write it feeds, never unhandled.
    this.on('error', () => undefined);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, done: TransformCallback): void {
    this.bytes += chunk.length;
    if (this.bytes > this.maxBytes) return done(new UploadTooLargeError(this.maxBytes));
    if (this.result) return done(null, this.result.ok ? chunk : undefined);
    this.head.push(chunk);
    this.headBytes += chunk.length;
    if (this.headBytes >= SNIFF_BYTES) this.decide();
    done();
  }

  override _flush(done: TransformCallback): void {
    if (!this.result) this.decide();
    done();
  }

  override _destroy(err: Error | null, done: (error?: Error | null) => void): void {
    // A gate torn down before its head was read reads as nothing at all.
    if (!this.result) this.resolveSniffed({ ok: false, reason: 'unknown' });
    done(err);
  }

  private decide(): void {
    const head = Buffer.concat(this.head, this.headBytes);
    this.head = [];
    this.result = sniffAudio(head.subarray(0, SNIFF_BYTES));
    if (this.result.ok) this.push(head);
    this.resolveSniffed(this.result);
  }
}
