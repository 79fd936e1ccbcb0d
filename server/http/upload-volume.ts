import { HttpError } from '../errors';

const HOUR_MS = 3600_000;
/** Clients remembered at once; past this the least recently seen are forgotten. */
const MAX_CLIENTS = 10_000;

/**
 * Megabytes one client may upload per hour (UPLOAD_MB_PER_HOUR): a sliding hour of what each
 * client address stored, kept in this process's memory. A request that would pass the limit is
 * answered 429 with Retry-After (seconds until enough of the hour's uploads age out).
 */
export class UploadVolume {
  private readonly clients = new Map<string, { at: number; bytes: number }[]>();
  private readonly limitBytes: number;

  constructor(
    mbPerHour: number,
    private readonly now: () => number = Date.now,
  ) {
    this.limitBytes = Math.round(mbPerHour * 1024 * 1024);
  }

  private recent(client: string): { at: number; bytes: number }[] {
    const since = this.now() - HOUR_MS;
    const list = (this.clients.get(client) ?? []).filter((e) => e.at > since);
    if (list.length) this.clients.set(client, list);
    else this.clients.delete(client);
    return list;
  }

  /** Throws a 429 when storing `incomingBytes` more would take the client past its hourly volume. */
  check(client: string, incomingBytes: number): void {
    if (this.limitBytes <= 0) return;
    const list = this.recent(client);
    let used = list.reduce((n, e) => n + e.bytes, 0);
    const incoming = Math.max(1, incomingBytes);
    // A first upload always fits (the file size limit bounds it), so a low limit never locks a client out.
    if (used === 0 || used + incoming <= this.limitBytes) return;
    // Wait until enough of the oldest uploads leave the hour for this one to fit.
    let waitUntil = this.now();
    for (const e of list) {
      used -= e.bytes;
      waitUntil = e.at + HOUR_MS;
      if (used + incoming <= this.limitBytes) break;
    }
    const retryAfter = Math.max(1, Math.ceil((waitUntil - this.now()) / 1000));
    const mb = Math.round(this.limitBytes / 1024 / 1024);
    throw new HttpError(
      429,
      'upload_volume_exceeded',
      `You have uploaded ${mb} MB of recordings in the last hour, the most allowed. Please try again in ${Math.ceil(retryAfter / 60)} minutes.`,
      { 'retry-after': String(retryAfter) },
    );
  }

  /** Counts stored bytes against the client's hour. */
  add(client: string, bytes: number): void {
    if (this.limitBytes <= 0 || bytes <= 0) return;
    const list = this.recent(client);
    list.push({ at: this.now(), bytes });
    this.clients.delete(client);
    this.clients.set(client, list);
    while (this.clients.size > MAX_CLIENTS) this.clients.delete(this.clients.keys().next().value!);
  }
}
