import { Readable } from 'node:stream';
import aws4 from 'aws4';
import type { FileStore } from './types';
import { HttpError } from '../../errors';

const KEY_PATTERN = /^[a-zA-Z0-9][a-zA-Z0-9_-]{7,127}$/;
/** S3's smallest part (except the last) is 5 MiB; 8 MiB parts keep a 25 MB upload to 4 requests. */
export const DEFAULT_PART_BYTES = 8 * 1024 * 1024;
/** S3_TIMEOUT_MS's default: an 8 MiB part on a slow link fits. */
const REQUEST_TIMEOUT_MS = 60_000;
/** What a client that met unreachable storage is told to wait before trying again. */
export const STORAGE_RETRY_AFTER_SEC = 30;

export interface S3Options {
  bucket: string;
  /** Key prefix inside the bucket, without leading slash; '' or ending in '/'. */
  prefix: string;
  region: string;
  /** https://s3.<region>.amazonaws.com when unset. */
  endpoint?: string;
  forcePathStyle?: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  sessionToken?: string;
  partBytes?: number;
  /** A request with no answer within this long fails as unavailable (S3_TIMEOUT_MS). */
  timeoutMs?: number;
}

/** Parses STORAGE_URL=s3://bucket/prefix. */
export function parseS3Url(url: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([a-z0-9][a-z0-9.-]{1,61}[a-z0-9])(?:\/(.*))?$/.exec(url.trim());
  if (!m) throw new Error('STORAGE_URL must look like s3://bucket or s3://bucket/prefix');
  const prefix = (m[2] ?? '').replace(/^\/+|\/+$/g, '');
  return { bucket: m[1], prefix: prefix ? `${prefix}/` : '' };
}

export class S3Error extends Error {
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * The bucket did not answer in time, could not be reached, or answered with a server error:
 * a 503 with Retry-After for the request that needed it (a stall is not the client's fault
 * and not a bug), and a retry later for a job.
 */
export class StorageUnavailableError extends HttpError {
  constructor(readonly detail: string) {
    super(
      503,
      'storage_unavailable',
      'Recording storage is not answering right now. Please try again in a minute.',
      { 'retry-after': String(STORAGE_RETRY_AFTER_SEC) },
    );
    // What failed, for the operator's log line (the client sees only the message above).
    this.cause = new Error(detail);
  }
}

const xmlValue = (xml: string, tag: string) => new RegExp(`<${tag}>([^<]*)</${tag}>`).exec(xml)?.[1];

/**
 * Recordings in an S3-compatible bucket (AWS S3, MinIO, R2, Backblaze B2): streamed uploads in
 * parts (one part in memory at a time), ranged reads for the player, deletes for retention.
 * Requests are signed with SigV4 (aws4) and sent with fetch; no SDK.
 */
export class S3FileStore implements FileStore {
  readonly id = 's3';
  readonly label: string;
  private readonly base: URL;
  private readonly partBytes: number;

  constructor(private readonly opts: S3Options) {
    const endpoint = new URL(opts.endpoint ?? `https://s3.${opts.region}.amazonaws.com`);
    // Virtual-hosted style puts the bucket in the host name; path style (MinIO, most local servers) in the path.
    this.base = opts.forcePathStyle
      ? new URL(`${endpoint.origin}${endpoint.pathname.replace(/\/$/, '')}/${opts.bucket}/`)
      : new URL(
          `${endpoint.protocol}//${opts.bucket}.${endpoint.host}${endpoint.pathname.replace(/\/$/, '')}/`,
        );
    this.partBytes = Math.max(5 * 1024 * 1024, opts.partBytes ?? DEFAULT_PART_BYTES);
    this.label = `S3 bucket ${opts.bucket}${opts.prefix ? `/${opts.prefix.replace(/\/$/, '')}` : ''}`;
  }

  private objectUrl(key: string, query = ''): URL {
    if (!KEY_PATTERN.test(key)) throw new Error('Invalid storage key');
    return new URL(`${this.opts.prefix}${key}${query}`, this.base);
  }

  private async request(
    method: string,
    url: URL,
    opts: { body?: Buffer | string; headers?: Record<string, string>; ok?: number[] } = {},
  ): Promise<Response> {
    const signed = aws4.sign(
      {
        host: url.host,
        path: url.pathname + url.search,
        method,
        service: 's3',
        region: this.opts.region,
        // aws4 would otherwise label bodies as form data.
        headers: {
          ...(opts.body === undefined ? {} : { 'content-type': 'application/octet-stream' }),
          ...opts.headers,
        },
        body: opts.body,
      },
      this.opts.accessKeyId
        ? {
            accessKeyId: this.opts.accessKeyId,
            secretAccessKey: this.opts.secretAccessKey,
            sessionToken: this.opts.sessionToken,
          }
        : undefined,
    );
    const headers = Object.fromEntries(
      Object.entries(signed.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'host'),
    ) as Record<string, string>;
    const timeoutMs = this.opts.timeoutMs ?? REQUEST_TIMEOUT_MS;
    let res: Response;
    try {
      res = await fetch(url, {
        method,
        headers,
        body: opts.body === undefined ? undefined : new Uint8Array(Buffer.from(opts.body)),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const why =
        err instanceof Error && err.name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : err instanceof Error
            ? ((err.cause as Error | undefined)?.message ?? err.message)
            : String(err);
      throw new StorageUnavailableError(`Storage ${method} failed: ${why}`);
    }
    if (res.status >= 500 && !(opts.ok ?? []).includes(res.status)) {
      await res.body?.cancel().catch(() => undefined);
      throw new StorageUnavailableError(`Storage ${method} failed: ${res.status} ${res.statusText}`);
    }
    if (!(opts.ok ?? [200, 204, 206]).includes(res.status)) {
      const text = method === 'HEAD' ? '' : await res.text().catch(() => '');
      throw new S3Error(
        res.status,
        xmlValue(text, 'Code') ?? `HTTP${res.status}`,
        `Storage ${method} failed: ${res.status} ${xmlValue(text, 'Message') ?? res.statusText}`,
      );
    }
    return res;
  }

  async put(key: string, body: Readable): Promise<{ bytes: number }> {
    const url = this.objectUrl(key);
    let bytes = 0;
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    let uploadId: string | null = null;
    const parts: { number: number; etag: string }[] = [];
    const sendPart = async (data: Buffer) => {
      if (!uploadId) {
        const created = await this.request('POST', this.objectUrl(key, '?uploads'));
        uploadId = xmlValue(await created.text(), 'UploadId') ?? null;
        if (!uploadId) throw new Error('Storage did not start a multipart upload');
      }
      const number = parts.length + 1;
      const res = await this.request(
        'PUT',
        this.objectUrl(key, `?partNumber=${number}&uploadId=${encodeURIComponent(uploadId)}`),
        { body: data },
      );
      parts.push({ number, etag: res.headers.get('etag') ?? '' });
    };
    try {
      for await (const chunk of body as AsyncIterable<Buffer>) {
        bytes += chunk.length;
        pending.push(chunk);
        pendingBytes += chunk.length;
        if (pendingBytes >= this.partBytes) {
          const data = Buffer.concat(pending, pendingBytes);
          pending = [];
          pendingBytes = 0;
          await sendPart(data);
        }
      }
      const rest = Buffer.concat(pending, pendingBytes);
      if (!uploadId) {
        // Small enough for one request.
        await this.request('PUT', url, { body: rest });
        return { bytes };
      }
      if (rest.length > 0) await sendPart(rest);
      const xml =
        '<CompleteMultipartUpload>' +
        parts.map((p) => `<Part><PartNumber>${p.number}</PartNumber><ETag>${p.etag}</ETag></Part>`).join('') +
        '</CompleteMultipartUpload>';
      const done = await this.request(
        'POST',
        this.objectUrl(key, `?uploadId=${encodeURIComponent(uploadId)}`),
        {
          body: xml,
          headers: { 'content-type': 'application/xml' },
        },
      );
      // S3 can answer 200 with an error document when completing.
      const text = await done.text();
      if (/<Error>/.test(text))
        throw new S3Error(500, xmlValue(text, 'Code') ?? 'Error', 'Storage could not complete the upload');
      return { bytes };
    } catch (err) {
      // Nothing of a failed upload stays: the parts are dropped (and a finished small object removed).
      if (uploadId) {
        await this.request('DELETE', this.objectUrl(key, `?uploadId=${encodeURIComponent(uploadId)}`), {
          ok: [200, 204, 404],
        }).catch(() => undefined);
      }
      body.resume();
      throw err;
    }
  }

  async get(key: string): Promise<Readable> {
    const res = await this.request('GET', this.objectUrl(key));
    return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
  }

  /** Bytes start..end inclusive, for the player's range requests. */
  async getRange(key: string, start: number, end: number): Promise<Readable> {
    const res = await this.request('GET', this.objectUrl(key), {
      headers: { range: `bytes=${start}-${end}` },
    });
    return Readable.fromWeb(res.body as import('node:stream/web').ReadableStream);
  }

  async stat(key: string): Promise<{ bytes: number } | null> {
    const res = await this.request('HEAD', this.objectUrl(key), { ok: [200, 404] });
    if (res.status === 404) return null;
    return { bytes: Number(res.headers.get('content-length') ?? 0) };
  }

  async remove(key: string): Promise<void> {
    await this.request('DELETE', this.objectUrl(key), { ok: [200, 204, 404] });
  }
}
