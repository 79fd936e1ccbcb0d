import { desc, eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { outbox } from '../db/schema';

/** A browser for integration tests: its own cookie jar, sending what the server set back. */
export class Device {
  readonly cookies = new Map<string, string>();
  constructor(private readonly base: string) {}

  async call(method: string, url: string, body?: unknown, headers: Record<string, string> = {}) {
    const cookie = [...this.cookies].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(this.base + url, {
      method,
      headers: {
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(cookie ? { cookie } : {}),
        ...headers,
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair.indexOf('=');
      const name = pair.slice(0, eq);
      const value = pair.slice(eq + 1);
      if (value && !/Max-Age=0/.test(line)) this.cookies.set(name, value);
      else this.cookies.delete(name);
    }
    const text = await res.text();
    let json: any = null;
    try {
      json = text ? JSON.parse(text) : null;
    } catch {
      json = null;
    }
    return { status: res.status, json, text, headers: res.headers };
  }
}

/** Signs a device in through the emailed-link flow, reading the link from the outbox. */
export async function signInDevice(db: Db, device: Device, email: string): Promise<void> {
  const asked = await device.call('POST', '/api/account/sign-in-link', { email });
  if (asked.status !== 202) throw new Error(`sign-in link: ${asked.status} ${asked.text}`);
  const [row] = await db
    .select()
    .from(outbox)
    .where(eq(outbox.toAddress, email.toLowerCase()))
    .orderBy(desc(outbox.createdAt))
    .limit(1);
  const token = row?.text.match(/\/sign-in#token=([A-Za-z0-9_-]{43})/)?.[1];
  if (!token) throw new Error('no sign-in link in the outbox');
  const done = await device.call('POST', '/api/account/sign-in', { token });
  if (done.status !== 200) throw new Error(`sign-in: ${done.status} ${done.text}`);
}
