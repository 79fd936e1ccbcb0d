import { Readable } from 'node:stream';
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestS3, type TestS3 } from '../../test-support/s3';
import { parseS3Url, S3FileStore } from './s3';

async function collect(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c));
  return Buffer.concat(chunks);
}

/** A stream of the data in small chunks, as an upload arrives. */
function streamOf(data: Buffer, chunk = 64 * 1024): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < data.length; i += chunk) yield data.subarray(i, i + chunk);
    })(),
  );
}

describe('S3-compatible storage against a real S3 server (s3rver)', () => {
  let s3: TestS3;
  let store: S3FileStore;
  beforeAll(async () => {
    s3 = await startTestS3();
    const env = s3.env('calls');
    store = new S3FileStore({
      ...parseS3Url(env.STORAGE_URL),
      region: env.AWS_REGION,
      endpoint: env.S3_ENDPOINT,
      forcePathStyle: true,
      accessKeyId: env.AWS_ACCESS_KEY_ID,
      secretAccessKey: env.AWS_SECRET_ACCESS_KEY,
    });
  });
  afterAll(async () => s3?.close());

  it('parses STORAGE_URL', () => {
    expect(parseS3Url('s3://my-bucket/a/b/')).toEqual({ bucket: 'my-bucket', prefix: 'a/b/' });
    expect(parseS3Url('s3://my-bucket')).toEqual({ bucket: 'my-bucket', prefix: '' });
    expect(() => parseS3Url('https://x')).toThrow(/s3:\/\/bucket/);
  });

  it('stores a small file in one request, reads it whole and by range, and deletes it', async () => {
    const data = randomBytes(300_000);
    expect(await store.put('smallfile0001', streamOf(data))).toEqual({ bytes: data.length });
    expect(s3.keys()).toContain('calls/smallfile0001');
    expect(await store.stat('smallfile0001')).toEqual({ bytes: data.length });
    expect((await collect(await store.get('smallfile0001'))).equals(data)).toBe(true);
    const part = await collect(await store.getRange('smallfile0001', 1000, 1999));
    expect(part.equals(data.subarray(1000, 2000))).toBe(true);
    await store.remove('smallfile0001');
    expect(await store.stat('smallfile0001')).toBeNull();
    // Removing what is already gone is fine (retention may run twice).
    await store.remove('smallfile0001');
  });

  it('streams a large file in parts (multipart upload) and reads it back intact', async () => {
    const data = randomBytes(12 * 1024 * 1024 + 12345);
    const small = new S3FileStore({ ...(store as any).opts, partBytes: 5 * 1024 * 1024 });
    expect(await small.put('largefile0001', streamOf(data))).toEqual({ bytes: data.length });
    expect(await small.stat('largefile0001')).toEqual({ bytes: data.length });
    expect((await collect(await small.get('largefile0001'))).equals(data)).toBe(true);
    const tail = await collect(await small.getRange('largefile0001', data.length - 100, data.length - 1));
    expect(tail.equals(data.subarray(data.length - 100))).toBe(true);
    await small.remove('largefile0001');
  });

  it('leaves nothing behind when the upload stream fails midway', async () => {
    const failing = Readable.from(
      (async function* () {
        yield randomBytes(6 * 1024 * 1024);
        throw new Error('client went away');
      })(),
    );
    const small = new S3FileStore({ ...(store as any).opts, partBytes: 5 * 1024 * 1024 });
    await expect(small.put('brokenfile01', failing)).rejects.toThrow(/client went away/);
    expect(await small.stat('brokenfile01')).toBeNull();
  });

  it('says clearly when the bucket is wrong', async () => {
    const wrong = new S3FileStore({ ...(store as any).opts, bucket: 'no-such-bucket' });
    await expect(wrong.put('wrongbucket1', streamOf(Buffer.from('x')))).rejects.toThrow(
      /Storage PUT failed: 404 .*bucket/i,
    );
  });
});
