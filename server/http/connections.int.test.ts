import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from '../test-support/harness';

/** A raw socket to the server: what it received, and whether the server closed it. */
class RawClient {
  received = '';
  closed = false;
  private readonly closedAt: Promise<void>;

  constructor(readonly socket: net.Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (this.received += d));
    socket.on('error', () => undefined);
    this.closedAt = new Promise((resolve) =>
      socket.once('close', () => {
        this.closed = true;
        resolve();
      }),
    );
  }

  static open(url: string): Promise<RawClient> {
    const { hostname, port } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname, () => resolve(new RawClient(socket)));
      socket.once('error', reject);
    });
  }

  write(text: string): void {
    this.socket.write(text);
  }

  /** Resolves true when the server closes the socket within `ms`, false when it is still open. */
  async closesWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([
      this.closedAt.then(() => true),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), ms))),
    ]);
    clearTimeout(timer);
    return result;
  }

  status(): number | null {
    const m = /^HTTP\/1\.1 (\d{3})/.exec(this.received);
    return m ? Number(m[1]) : null;
  }

  destroy(): void {
    this.socket.destroy();
  }
}

/** Headers of a JSON request whose body is announced as `length` bytes. */
const jsonHead = (method: string, path: string, length: number) =>
  `${method} ${path} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\n\r\n`;

describe('connections: answers to unread bodies, body and header deadlines', () => {
  let t: TestServer;
  const open: RawClient[] = [];
  beforeAll(async () => {
    t = await startTestServer({
      env: { BODY_TIMEOUT_MS: '800', HEADERS_TIMEOUT_MS: '1500', RATE_LIMIT_FEEDBACK: '1' },
    });
  });
  afterAll(async () => {
    for (const c of open) c.destroy();
    await t?.close();
  });
  const client = async () => {
    const c = await RawClient.open(t.url);
    open.push(c);
    return c;
  };

  it('closes the connection after answering 413 to a body it will not read', async () => {
    const c = await client();
    c.write(jsonHead('POST', '/api/sessions', 2_000_000) + '{"stage":"');
    expect(await c.closesWithin(3000)).toBe(true);
    expect(c.status()).toBe(413);
    expect(c.received).toMatch(/connection: close/i);
  });

  it('closes the connection after answering a GET whose body never finishes', async () => {
    const c = await client();
    c.write(jsonHead('GET', '/api/health', 100_000) + '{"a":');
    expect(await c.closesWithin(3000)).toBe(true);
    expect(c.status()).toBe(200);
  });

  it('closes the connection after a 429 while the body still trickles in', async () => {
    // The first submission spends the one allowed a window; the second is refused at once.
    const first = await fetch(`${t.url}/api/feedback`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(first.status).toBe(400);
    const c = await client();
    c.write(jsonHead('POST', '/api/feedback', 50_000) + '{"name":"');
    expect(await c.closesWithin(3000)).toBe(true);
    expect(c.status()).toBe(429);
  });

  it('answers 408 and closes when a JSON body does not arrive within BODY_TIMEOUT_MS', async () => {
    const c = await client();
    const started = Date.now();
    c.write(jsonHead('POST', '/api/sessions', 40) + '{"stage":');
    // Keeps trickling, as slow-body clients do: each byte restarts no clock.
    const drip = setInterval(() => c.socket.writable && c.write(' '), 200);
    try {
      expect(await c.closesWithin(5000)).toBe(true);
    } finally {
      clearInterval(drip);
    }
    expect(Date.now() - started).toBeLessThan(4000);
    expect(c.status()).toBe(408);
    expect(c.received).toContain('"code":"request_timeout"');
  });

  it('a whole JSON body sent slowly but within the deadline is served', async () => {
    const c = await client();
    const body = '{"stage":"General"}';
    c.write(jsonHead('POST', '/api/sessions', body.length) + body.slice(0, 5));
    await new Promise((r) => setTimeout(r, 300));
    c.write(body.slice(5));
    await new Promise((r) => setTimeout(r, 500));
    expect(c.status()).toBe(201);
    // A complete request keeps its connection for the next one.
    expect(c.closed).toBe(false);
  });

  it('uploads keep the long request timeout for their body', async () => {
    const c = await client();
    const boundary = 'x-boundary';
    c.write(
      `POST /api/audio/upload HTTP/1.1\r\nHost: localhost\r\nContent-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: 1000000\r\n\r\n` +
        `--${boundary}\r\nContent-Disposition: form-data; name="audio"; filename="a.wav"\r\nContent-Type: audio/wav\r\n\r\nRIFF`,
    );
    expect(await c.closesWithin(2500)).toBe(false);
    expect(c.status()).toBeNull();
  });

  it('answers 408 and closes when the headers do not arrive within HEADERS_TIMEOUT_MS', async () => {
    const c = await client();
    c.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n');
    const drip = setInterval(() => c.socket.writable && c.write('X-Slow: 1\r\n'), 300);
    try {
      expect(await c.closesWithin(6000)).toBe(true);
    } finally {
      clearInterval(drip);
    }
    expect(c.status()).toBe(408);
  });
});

describe('connection caps', () => {
  let t: TestServer;
  const open: RawClient[] = [];
  beforeAll(async () => {
    t = await startTestServer({ env: { MAX_CONNECTIONS_PER_CLIENT: '3', MAX_CONNECTIONS: '20' } });
  });
  afterAll(async () => {
    for (const c of open) c.destroy();
    await t?.close();
  });

  it('sets the process-wide cap on the listening server', () => {
    expect(t.server.app.server.maxConnections).toBe(20);
  });

  it('answers 429 and closes a client address past its connection cap; a freed slot is reused', async () => {
    for (let i = 0; i < 3; i++) {
      const c = await RawClient.open(t.url);
      open.push(c);
    }
    await new Promise((r) => setTimeout(r, 100));
    expect(open.every((c) => !c.closed)).toBe(true);
    const extra = await RawClient.open(t.url);
    expect(await extra.closesWithin(3000)).toBe(true);
    expect(extra.status()).toBe(429);
    expect(extra.received).toContain('too_many_connections');

    open.shift()!.destroy();
    await new Promise((r) => setTimeout(r, 200));
    const next = await RawClient.open(t.url);
    open.push(next);
    next.write('GET /api/health HTTP/1.1\r\nHost: localhost\r\n\r\n');
    await new Promise((r) => setTimeout(r, 500));
    expect(next.status()).toBe(200);
  });
});
