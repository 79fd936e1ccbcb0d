import { MAX_USER_TEXT_CHARS, type ServerEvent } from '@core/voice-protocol';
import type { VoiceErrorEvent } from '../../types';

const CONNECT_TIMEOUT_MS = 15_000;
/** How long stop() waits for the server to confirm it has saved the transcript. */
const STOP_WAIT_MS = 3000;
export const CONNECTION_ERROR = 'An error occurred with the voice connection';

export function voiceSocketUrl(base: Location | URL = location): string {
  const proto = base.protocol === 'https:' ? 'wss:' : 'ws:';
  return `${proto}//${base.host}/api/voice`;
}

/** The page's error for a server `error` event that arrives once the call is under way. */
export function serverErrorEvent(event: ServerEvent, message: string): VoiceErrorEvent {
  return { type: 'daily-error', error: event, message, timestamp: new Date().toISOString() };
}

/** A typed turn, trimmed, ready to send; throws the reason (for the rep) when it cannot be sent. */
export function typedTurn(text: unknown, connected: boolean): string {
  const trimmed = typeof text === 'string' ? text.trim() : '';
  if (!trimmed) throw new Error('Type something to say first.');
  if (trimmed.length > MAX_USER_TEXT_CHARS)
    throw new Error(`Keep a typed turn under ${MAX_USER_TEXT_CHARS.toLocaleString('en-US')} characters.`);
  if (!connected) throw new Error('The call is not connected.');
  return trimmed;
}

export interface CallSocketHandlers {
  /** A chunk of the homeowner's 16-bit mono PCM. */
  onAudio(pcm: Int16Array): void;
  /** Every server event, after the socket has settled its own part ('ready', 'ended'). */
  onEvent(event: ServerEvent): void;
  /** The socket closed after the call started (a close before 'ready' fails the start instead). */
  onClosed(): void;
}

/**
 * The `/api/voice` socket as every engine that talks to our server uses it (docs/voice.md):
 * connect, send `start` and wait for `ready`, JSON events and PCM down, `stop` and wait for
 * `ended`, then close.
 */
export class CallSocket {
  private ws: WebSocket | null = null;
  private readyWaiter: { resolve: () => void; reject: (e: Error) => void } | null = null;
  private endedWaiters: (() => void)[] = [];

  constructor(
    private readonly url: string,
    private readonly handlers: CallSocketHandlers,
  ) {}

  get isOpen(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  connect(): Promise<void> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(this.url);
      ws.binaryType = 'arraybuffer';
      this.ws = ws;
      const timer = setTimeout(
        () => reject(new Error('The voice server did not answer')),
        CONNECT_TIMEOUT_MS,
      );
      ws.onopen = () => {
        clearTimeout(timer);
        resolve();
      };
      ws.onerror = () => {
        clearTimeout(timer);
        reject(new Error('Could not connect to the voice server'));
      };
      ws.onclose = () => this.onClosed();
      ws.onmessage = (e) => this.onMessage(e);
    });
  }

  /** Sends the `start` message; resolves when the server says `ready`. */
  start(message: object): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error('The voice server did not start the call')),
        CONNECT_TIMEOUT_MS,
      );
      this.readyWaiter = {
        resolve: () => {
          clearTimeout(timer);
          resolve();
        },
        reject: (e) => {
          clearTimeout(timer);
          reject(e);
        },
      };
      this.send(message);
    });
  }

  /** Fails a start still waiting for `ready`; false when none is waiting. */
  failStart(error: Error): boolean {
    if (!this.readyWaiter) return false;
    this.readyWaiter.reject(error);
    this.readyWaiter = null;
    return true;
  }

  send(message: object): void {
    if (this.isOpen) this.ws!.send(JSON.stringify(message));
  }

  sendAudio(pcm: ArrayBuffer | ArrayBufferLike): void {
    if (this.isOpen) this.ws!.send(pcm);
  }

  /** Asks the server to end the call and waits (a bounded time) for it to say `ended`. */
  async stop(): Promise<void> {
    if (!this.isOpen) return;
    await new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, STOP_WAIT_MS);
      this.endedWaiters.push(() => {
        clearTimeout(timer);
        resolve();
      });
      this.send({ type: 'stop' });
    });
  }

  close(): void {
    const ws = this.ws;
    this.ws = null;
    if (ws) {
      ws.onclose = null;
      ws.onmessage = null;
      ws.onerror = null;
      if (ws.readyState === WebSocket.OPEN || ws.readyState === WebSocket.CONNECTING)
        ws.close(1000, 'customer-ended-call');
    }
  }

  private onMessage(e: MessageEvent): void {
    if (e.data instanceof ArrayBuffer) {
      if (e.data.byteLength >= 2) this.handlers.onAudio(new Int16Array(e.data, 0, e.data.byteLength >> 1));
      return;
    }
    let event: ServerEvent;
    try {
      event = JSON.parse(String(e.data)) as ServerEvent;
    } catch {
      return;
    }
    if (event.type === 'ready') {
      this.readyWaiter?.resolve();
      this.readyWaiter = null;
    } else if (event.type === 'ended') this.wakeEnded();
    this.handlers.onEvent(event);
  }

  private onClosed(): void {
    this.wakeEnded();
    if (this.failStart(new Error(CONNECTION_ERROR))) return;
    this.handlers.onClosed();
  }

  private wakeEnded(): void {
    const waiters = this.endedWaiters;
    this.endedWaiters = [];
    for (const w of waiters) w();
  }
}
