import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { VoiceMessage } from '../../types';
import { WrappedVoiceClient } from '../../wrapper';
import { LocalVoiceDriver } from './local-engine';

/** A WebSocket stand-in: records what the engine sends and lets the test play the server. */
class FakeSocket {
  static readonly CONNECTING = 0;
  static readonly OPEN = 1;
  static readonly CLOSED = 3;
  static last: FakeSocket | null = null;
  /** The server is full: it says so as the socket opens, then closes it. */
  static busy = false;
  readyState = FakeSocket.CONNECTING;
  binaryType = 'blob';
  sent: unknown[] = [];
  onopen: (() => void) | null = null;
  onerror: (() => void) | null = null;
  onclose: (() => void) | null = null;
  onmessage: ((e: { data: unknown }) => void) | null = null;

  constructor(readonly url: string) {
    FakeSocket.last = this;
    setTimeout(() => {
      this.readyState = FakeSocket.OPEN;
      this.onopen?.();
      if (FakeSocket.busy) {
        this.serverSays({ type: 'error', code: 'busy', message: 'All practice lines are busy right now.' });
        this.readyState = FakeSocket.CLOSED;
        this.onclose?.();
      }
    }, 0);
  }

  send(data: string | ArrayBuffer): void {
    this.sent.push(typeof data === 'string' ? JSON.parse(data) : data);
    const msg = typeof data === 'string' ? (JSON.parse(data) as { type: string }) : null;
    if (msg?.type === 'start')
      setTimeout(() => this.serverSays({ type: 'ready', callId: 'c1', maxCallSec: 300 }));
    if (msg?.type === 'stop')
      setTimeout(() => this.serverSays({ type: 'ended', reason: 'customer-ended-call' }));
  }

  serverSays(event: object): void {
    this.onmessage?.({ data: JSON.stringify(event) });
  }

  close(): void {
    this.readyState = FakeSocket.CLOSED;
  }
}

const getUserMedia = vi.fn(() => Promise.reject(new Error('the microphone must not be opened')));

beforeEach(() => {
  vi.stubGlobal('WebSocket', FakeSocket);
  vi.stubGlobal('navigator', { userAgent: 'test', mediaDevices: { getUserMedia } });
  FakeSocket.last = null;
  FakeSocket.busy = false;
  getUserMedia.mockClear();
});
afterEach(() => vi.unstubAllGlobals());

async function typedCall() {
  const client = new WrappedVoiceClient(new LocalVoiceDriver('ws://test/api/voice'));
  const messages: VoiceMessage[] = [];
  client.on('message', (m) => messages.push(m));
  await client.start({ stage: 'HVAC', sessionId: 's1', input: 'text', output: 'text' });
  return { client, messages, socket: FakeSocket.last! };
}

describe('local engine: typed turns', () => {
  it('starts without the microphone or audio and asks the server for a text call', async () => {
    // No AudioContext in this environment: a text-only call must not need one.
    const { socket } = await typedCall();
    expect(getUserMedia).not.toHaveBeenCalled();
    expect(socket.sent[0]).toEqual({
      type: 'start',
      sessionId: 's1',
      stage: 'HVAC',
      input: 'text',
      output: 'text',
    });
  });

  it('sendText sends one trimmed user-text turn and the replies arrive as messages', async () => {
    const { client, messages, socket } = await typedCall();
    client.sendText!('  How old is the furnace?  ');
    expect(socket.sent.at(-1)).toEqual({ type: 'user-text', text: 'How old is the furnace?' });
    socket.serverSays({
      type: 'transcript',
      role: 'user',
      transcriptType: 'final',
      transcript: 'How old is the furnace?',
    });
    socket.serverSays({
      type: 'transcript',
      role: 'assistant',
      transcriptType: 'final',
      transcript: 'About fifteen years.',
    });
    expect(messages.filter((m) => m.type === 'transcript')).toHaveLength(2);
  });

  it('refuses empty, over-long and out-of-call text with a message for the rep', async () => {
    const { client, socket } = await typedCall();
    const before = socket.sent.length;
    expect(() => client.sendText!('   ')).toThrow(/Type something/);
    expect(() => client.sendText!('x'.repeat(1001))).toThrow(/1,000 characters/);
    expect(socket.sent).toHaveLength(before);
    client.stop();
    await vi.waitFor(() => expect(client.isStarted).toBe(false));
    expect(() => client.sendText!('hello')).toThrow(/Start the call/);
  });

  it('a busy server fails the start with its own message', async () => {
    FakeSocket.busy = true;
    const client = new WrappedVoiceClient(new LocalVoiceDriver('ws://test/api/voice'));
    const errors: unknown[] = [];
    client.on('error', (e) => errors.push(e));
    await expect(
      client.start({ stage: 'HVAC', sessionId: 's1', input: 'text', output: 'text' }),
    ).rejects.toThrow('All practice lines are busy right now.');
    expect(client.isStarted).toBe(false);
  });

  it('an audio call still needs Web Audio and the microphone', async () => {
    vi.stubGlobal('navigator', { userAgent: 'test', mediaDevices: { getUserMedia } });
    const client = new WrappedVoiceClient(new LocalVoiceDriver('ws://test/api/voice'));
    // Without Web Audio an audio call cannot start; it fails before touching the socket.
    await expect(client.start({ stage: 'HVAC', sessionId: 's1' })).rejects.toThrow(/cannot run voice calls/);
    expect(FakeSocket.last).toBeNull();
  });
});
