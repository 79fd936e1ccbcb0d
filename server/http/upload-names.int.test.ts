import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedDir, startTestServer, type TestServer } from '../test-support/harness';

const wav = fs.readFileSync(path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav'));

async function post(base: string, form: FormData) {
  const res = await fetch(`${base}/api/audio/upload`, { method: 'POST', body: form });
  return { status: res.status, body: (await res.json()) as any };
}

describe('upload details a hostile visitor might abuse', () => {
  let t: TestServer;
  beforeAll(async () => {
    t = await startTestServer({ env: { ROLES: 'web' } });
  });
  afterAll(async () => {
    await t?.close();
  });

  it('two files in one upload get a message about one file per upload, not about size', async () => {
    const form = new FormData();
    form.append('audio', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'a.wav');
    form.append('audio', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), 'b.wav');
    const res = await post(t.url, form);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/one recording per upload/i);
    expect(res.body.error.message).not.toMatch(/MB/);
  });

  it('stored file names drop control and bidirectional-override characters', async () => {
    const form = new FormData();
    const name = 'call\u202Evaw.exe\u0007\u200B\u2066 notes.wav';
    form.append('audio', new Blob([new Uint8Array(wav)], { type: 'audio/wav' }), name);
    const res = await post(t.url, form);
    expect(res.status).toBe(201);
    expect(res.body.fileName).toBe('callvaw.exe notes.wav');
    const read = await fetch(`${t.url}/api/audio/${res.body.id}`);
    const body = (await read.json()) as { fileName: string };
    // eslint-disable-next-line no-control-regex -- checking that none are left
    expect(body.fileName).not.toMatch(/[\u0000-\u001f\u200b-\u200f\u202a-\u202e\u2066-\u2069]/);
  });
});
