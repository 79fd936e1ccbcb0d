import fs from 'node:fs';
import path from 'node:path';
import { Readable, Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { describe, expect, it } from 'vitest';
import { sharedDir } from '../test-support/harness';
import { UploadGate, UploadTooLargeError } from './upload-gate';
import { playlistPointingAt } from './test-audio';

const jfk = fs.readFileSync(path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav'));

/** Feeds `bytes` in small chunks, as a network upload arrives. */
function arriving(bytes: Buffer, chunk = 7_000): Readable {
  return Readable.from(
    (function* () {
      for (let i = 0; i < bytes.length; i += chunk) yield bytes.subarray(i, i + chunk);
    })(),
  );
}

/** Collects what the gate passes on (what storage would receive). */
function sink(): { stream: Writable; got: () => Buffer } {
  const parts: Buffer[] = [];
  return {
    stream: new Writable({
      write(c: Buffer, _e, done) {
        parts.push(c);
        done();
      },
    }),
    got: () => Buffer.concat(parts),
  };
}

describe('the upload gate', () => {
  it('passes a recording on unchanged once its first bytes say it is audio', async () => {
    const gate = new UploadGate(25 * 1024 * 1024);
    const out = sink();
    const done = pipeline(arriving(jfk), gate, out.stream);
    expect(await gate.sniffed).toEqual({ ok: true, container: 'wav' });
    await done;
    expect(out.got().equals(jfk)).toBe(true);
    expect(gate.bytes).toBe(jfk.length);
  });

  it('passes nothing on for a file that is not a recording', async () => {
    for (const bytes of [Buffer.alloc(200_000, 7), playlistPointingAt('/srv/a.wav'), Buffer.from('hello')]) {
      const gate = new UploadGate(25 * 1024 * 1024);
      const out = sink();
      arriving(bytes).pipe(gate).pipe(out.stream);
      const sniffed = await gate.sniffed;
      expect(sniffed.ok).toBe(false);
      await new Promise((r) => setTimeout(r, 20));
      expect(out.got().length).toBe(0);
    }
    const gate = new UploadGate(1000);
    arriving(playlistPointingAt('/srv/a.wav')).pipe(gate);
    expect(await gate.sniffed).toEqual({ ok: false, reason: 'playlist' });
  });

  it('fails at the first byte past the limit, before the stream ends', async () => {
    const limit = jfk.length - 1000;
    const gate = new UploadGate(limit);
    const out = sink();
    const done = pipeline(arriving(jfk, 4096), gate, out.stream);
    expect((await gate.sniffed).ok).toBe(true);
    await expect(done).rejects.toBeInstanceOf(UploadTooLargeError);
    expect(out.got().length).toBeLessThanOrEqual(limit);
    // Exactly the limit is fine.
    const exact = new UploadGate(jfk.length);
    await pipeline(arriving(jfk), exact, sink().stream);
    expect(exact.bytes).toBe(jfk.length);
  });

  it('reads an empty upload as nothing', async () => {
    const gate = new UploadGate(1000);
    Readable.from([]).pipe(gate);
    expect(await gate.sniffed).toEqual({ ok: false, reason: 'unknown' });
    expect(gate.bytes).toBe(0);
  });
});
