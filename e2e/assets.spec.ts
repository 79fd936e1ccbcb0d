import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clientDistDir, startAppServer, type TestServer } from './support';

let server: TestServer;
beforeAll(async () => {
  server = await startAppServer();
});
afterAll(async () => {
  await server?.close();
});

/** A GET that shows the bytes as sent (fetch would undo the compression). */
function get(
  url: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': acceptEncoding } }, (res) => {
        const parts: Buffer[] = [];
        res.on('data', (c: Buffer) => parts.push(c));
        res.on('end', () =>
          resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(parts) }),
        );
      })
      .on('error', reject);
  });
}

describe('the built client as it is served', () => {
  it('sends hashed assets compressed and cached for good, and the page revalidated', async () => {
    const page = await get(`${server.url}/`, 'br, gzip');
    expect(page.status).toBe(200);
    expect(page.headers['cache-control']).toBe('no-cache');
    // The page itself may come compressed too once it passes the copy threshold (1 KB).
    const encoding = page.headers['content-encoding'];
    const html =
      encoding === 'br'
        ? zlib.brotliDecompressSync(page.body)
        : encoding === 'gzip'
          ? zlib.gunzipSync(page.body)
          : page.body;
    const assets = [...html.toString('utf8').matchAll(/(?:src|href)="(\/assets\/[^"]+\.(?:js|css))"/g)].map(
      (m) => m[1],
    );
    expect(assets.length).toBeGreaterThan(1);
    let raw = 0;
    let sent = 0;
    for (const asset of assets) {
      const original = fs.readFileSync(path.join(clientDistDir, asset));
      const br = await get(`${server.url}${asset}`, 'gzip, deflate, br');
      expect(br.status, asset).toBe(200);
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      if (original.length >= 1024) {
        expect(br.headers['content-encoding'], asset).toBe('br');
        expect(br.headers.vary).toBe('accept-encoding');
        expect(zlib.brotliDecompressSync(br.body).equals(original)).toBe(true);
        const gz = await get(`${server.url}${asset}`, 'gzip');
        expect(gz.headers['content-encoding']).toBe('gzip');
        expect(zlib.gunzipSync(gz.body).equals(original)).toBe(true);
      }
      const plain = await get(`${server.url}${asset}`, 'identity');
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body.equals(original)).toBe(true);
      raw += original.length;
      sent += br.body.length;
    }
    // The first page's scripts and styles cross the network at well under a third of their size.
    expect(sent).toBeLessThan(raw / 3);
  });

  it('serves client routes and a missing asset as before', async () => {
    const route = await get(`${server.url}/audio`, 'br');
    expect(route.status).toBe(200);
    expect(route.headers['cache-control']).toBe('no-cache');
    expect((await get(`${server.url}/assets/missing-0000.js`, 'br')).status).toBe(404);
  });
});
