import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
// @ts-expect-error s3rver ships no types
import S3rver from 's3rver';

/** A real S3-compatible server (s3rver) on a free local port, with one bucket, for tests. */
export interface TestS3 {
  endpoint: string;
  bucket: string;
  /** Environment for the app: STORAGE_URL and the S3 settings. */
  env(prefix?: string): Record<string, string>;
  /** Object keys stored in the bucket (from s3rver's folder). */
  keys(): string[];
  close(): Promise<void>;
}

export async function startTestS3(bucket = 'doorstep-test'): Promise<TestS3> {
  const directory = fs.mkdtempSync(path.join(os.tmpdir(), 'doorstep-s3-'));
  const server = new S3rver({
    port: 0,
    address: '127.0.0.1',
    silent: true,
    directory,
    configureBuckets: [{ name: bucket }],
  });
  const address = (await server.run()) as { port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  const walk = (dir: string): string[] =>
    fs
      .readdirSync(dir, { withFileTypes: true })
      .flatMap((e) => (e.isDirectory() ? walk(path.join(dir, e.name)) : [path.join(dir, e.name)]));
  return {
    endpoint,
    bucket,
    env: (prefix = 'recordings') => ({
      STORAGE_URL: `s3://${bucket}/${prefix}`,
      S3_ENDPOINT: endpoint,
      S3_FORCE_PATH_STYLE: 'true',
      // s3rver's built-in account. s3rver checks the access key id, not the SigV4 signature itself.
      AWS_ACCESS_KEY_ID: 'S3RVER',
      AWS_SECRET_ACCESS_KEY: 'S3RVER',
      AWS_REGION: 'us-east-1',
    }),
    keys: () =>
      walk(path.join(directory, bucket))
        .filter((f) => f.endsWith('._S3rver_object'))
        .map((f) => path.relative(path.join(directory, bucket), f).replace(/\._S3rver_object$/, '')),
    close: async () => {
      await server.close();
      fs.rmSync(directory, { recursive: true, force: true });
    },
  };
}
