import { createRequire } from 'node:module';
import type { ServerEvent } from '../voice/protocol';

const require = createRequire(import.meta.url);

interface WsLike {
  readyState: number;
  send(data: string | Buffer, cb?: (err?: Error) => void): void;
  close(code?: number): void;
  terminate(): void;
  on(event: 'message', l: (data: Buffer, isBinary: boolean) => void): void;
  on(event: 'open' | 'close', l: () => void): void;
  on(event: 'error', l: (err: Error) => void): void;
}

export type Received = { at: number; event: ServerEvent } | { at: number; audio: Int16Array };

/**
 * A Node client of the /api/voice protocol, as the browser engine speaks it: for the
 * integration tests and the benchmark. Streams PCM in real time with a drift-free clock.
 */
export class VoiceCallClient {
  readonly received: Received[] = [];
  audioSamples = 0;
  closed = false;
  private readonly ws: WsLike;
  private waiters: (() => void)[] = [];

  private constructor(ws: WsLike) {
    this.ws = ws;
    ws.on('message', (data, isBinary) => {
      const at = Date.now();
      if (isBinary) {
        const pcm = new Int16Array(data.length >> 1);
        for (let i = 0; i < pcm.length; i++) pcm[i] = data.readInt16LE(i * 2);
        this.audioSamples += pcm.length;
        this.received.push({ at, audio: pcm });
      } else {
        try {
          this.received.push({ at, event: JSON.parse(data.toString('utf8')) as ServerEvent });
        } catch {
          // Not JSON: ignored, the server only sends JSON text frames.
        }
      }
      this.wake();
    });
    ws.on('close', () => {
      this.closed = true;
      this.wake();
    });
    ws.on('error', () => undefined);
  }

  /** Opens a call socket; `origin` sends that Origin header, as a browser page there would. */
  static connect(baseUrl: string, opts: { origin?: string } = {}): Promise<VoiceCallClient> {
    const WebSocket = require('ws') as new (url: string, options?: { origin?: string }) => WsLike;
    const ws = new WebSocket(
      `${baseUrl.replace(/^http/, 'ws')}/api/voice`,
      opts.origin ? { origin: opts.origin } : undefined,
    );
    return new Promise((resolve, reject) => {
      ws.on('open', () => resolve(new VoiceCallClient(ws)));
      ws.on('error', reject);
    });
  }

  private wake(): void {
    const w = this.waiters;
    this.waiters = [];
    for (const f of w) f();
  }

  get events(): ServerEvent[] {
    return this.received.flatMap((r) => ('event' in r ? [r.event] : []));
  }

  sendJson(message: unknown): void {
    this.ws.send(typeof message === 'string' ? message : JSON.stringify(message));
  }

  sendRaw(data: Buffer): void {
    this.ws.send(data);
  }

  start(opts: { stage: string; sessionId?: string; sampleRate?: number }): void {
    this.sendJson({ type: 'start', sampleRate: 16_000, encoding: 'pcm16', ...opts });
  }

  stop(): void {
    this.sendJson({ type: 'stop' });
  }

  /** Drops the connection without a goodbye, like a closed laptop lid. */
  terminate(): void {
    this.ws.terminate();
  }

  /** Resolves with the first received item (after `from`) matching, or rejects after timeoutMs. */
  async waitFor<T extends Received>(
    match: (r: Received) => r is T,
    opts?: { from?: number; timeoutMs?: number },
  ): Promise<T>;
  async waitFor(
    match: (r: Received) => boolean,
    opts?: { from?: number; timeoutMs?: number },
  ): Promise<Received>;
  async waitFor(
    match: (r: Received) => boolean,
    opts: { from?: number; timeoutMs?: number } = {},
  ): Promise<Received> {
    const deadline = Date.now() + (opts.timeoutMs ?? 20_000);
    let index = opts.from ?? 0;
    for (;;) {
      for (; index < this.received.length; index++)
        if (match(this.received[index])) return this.received[index];
      if (this.closed) throw new Error('the call closed before the expected event');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for a call event');
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(t);
          resolve();
        });
      });
    }
  }

  waitForEvent<K extends ServerEvent['type']>(
    type: K,
    test: (e: Extract<ServerEvent, { type: K }>) => boolean = () => true,
    opts: { from?: number; timeoutMs?: number } = {},
  ): Promise<Extract<ServerEvent, { type: K }>> {
    return this.waitFor(
      (r) => 'event' in r && r.event.type === type && test(r.event as Extract<ServerEvent, { type: K }>),
      opts,
    ).then((r) => (r as unknown as { event: Extract<ServerEvent, { type: K }> }).event);
  }

  /**
   * Streams PCM in 20 ms frames at real-time pace. Returns the wall time each sample index was
   * sent, via `sentAt(sampleIndex)`, for latency measurements.
   */
  async stream(
    pcm: Int16Array,
    opts: { frameSamples?: number; signal?: AbortSignal } = {},
  ): Promise<{ startedAt: number }> {
    const frame = opts.frameSamples ?? 320;
    const startedAt = Date.now();
    for (let i = 0; i < pcm.length; i += frame) {
      if (opts.signal?.aborted || this.closed) break;
      const chunk = pcm.subarray(i, Math.min(pcm.length, i + frame));
      this.ws.send(Buffer.from(chunk.buffer.slice(chunk.byteOffset, chunk.byteOffset + chunk.byteLength)));
      const due = startedAt + ((i + frame) / 16_000) * 1000;
      const wait = due - Date.now();
      if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    }
    return { startedAt };
  }

  close(): void {
    this.ws.close(1000);
  }
}
