import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { audioSessions } from '../db/schema';
import { sharedDir, startTestServer, type TestServer } from '../test-support/harness';

const jfkWav = fs.readFileSync(path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav'));

/** An "S3 endpoint" that accepts connections and never answers: a stalled bucket. */
function stalledEndpoint(): Promise<{ url: string; close(): Promise<void> }> {
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({
        url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
        close: () =>
          new Promise((done) => {
            for (const s of sockets) s.destroy();
            server.close(() => done());
          }),
      }),
    ),
  );
}

describe('storage that stops answering (S3)', () => {
  let stalled: Awaited<ReturnType<typeof stalledEndpoint>>;
  let t: TestServer;
  beforeAll(async () => {
    stalled = await stalledEndpoint();
    t = await startTestServer({
      env: {
        STORAGE_URL: 's3://doorstep-test/recordings',
        S3_ENDPOINT: stalled.url,
        S3_FORCE_PATH_STYLE: 'true',
        AWS_ACCESS_KEY_ID: 'key',
        AWS_SECRET_ACCESS_KEY: 'secret',
        AWS_REGION: 'us-east-1',
        S3_TIMEOUT_MS: '500',
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await stalled?.close();
  });

  it('answers an upload 503 with Retry-After once S3_TIMEOUT_MS passes', async () => {
    const form = new FormData();
    form.append('audio', new Blob([new Uint8Array(jfkWav)], { type: 'audio/wav' }), 'jfk.wav');
    const started = Date.now();
    const res = await fetch(`${t.url}/api/audio/upload`, { method: 'POST', body: form });
    expect(Date.now() - started).toBeLessThan(8000);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('storage_unavailable');
    expect(body.error.message).toBe(
      'Recording storage is not answering right now. Please try again in a minute.',
    );
  });

  it('answers a recording download 503 with Retry-After', async () => {
    const [row] = await t.server.ctx.database.db
      .insert(audioSessions)
      .values({
        fileName: 'a.wav',
        stage: 'General',
        storageKey: 'audio-0123456789abcdef',
        status: 'transcribed',
      })
      .returning();
    const res = await fetch(`${t.url}/api/audio/${row.id}/file`);
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('30');
  });
});
