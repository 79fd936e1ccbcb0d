import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { concatAudio } from '../audio/test-audio';
import { createTestDatabase, dbKinds, sharedDir } from '../test-support/harness';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'audio-restart-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

/** The real server as its own process, so it can be killed without warning. */
async function startServer(env: Record<string, string>): Promise<{ child: ChildProcess; url: string }> {
  const port = await freePort();
  const child = spawn(
    process.execPath,
    [path.join(root, 'node_modules/tsx/dist/cli.mjs'), 'server/main.ts'],
    {
      cwd: root,
      env: {
        ...process.env,
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        ...env,
      },
      stdio: ['ignore', 'ignore', 'pipe'],
    },
  );
  let stderr = '';
  child.stderr!.on('data', (b: Buffer) => (stderr += b.toString()));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`server exited: ${stderr}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { child, url };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  child.kill('SIGKILL');
  throw new Error(`server did not start: ${stderr}`);
}

async function session(url: string, id: string): Promise<any> {
  return (await fetch(`${url}/api/audio/${id}`)).json();
}

describe.each(dbKinds)('a transcription survives SIGKILL (%s)', (db) => {
  it(
    'finishes the transcript after the server is killed mid-way and restarted',
    { timeout: 400_000 },
    async () => {
      const dataDir = fs.mkdtempSync(path.join(tmp, `${db}-`));
      const database = db === 'postgres' ? await createTestDatabase() : null;
      const env: Record<string, string> = {
        DATA_DIR: dataDir,
        MODELS_DIR: path.join(sharedDir, 'models'),
        ...(database ? { DATABASE_URL: database.url } : {}),
      };
      // About a minute of speech: long enough to be killed in the middle.
      const jfk = path.join(sharedDir, 'fixtures/audio/jfk/jfk.wav');
      const call = concatAudio([jfk, jfk, jfk, jfk, jfk], path.join(tmp, `${db}-call.wav`), 1);
      let server = await startServer(env);
      try {
        const form = new FormData();
        form.append(
          'audio',
          new Blob([new Uint8Array(fs.readFileSync(call))], { type: 'audio/wav' }),
          'long call.wav',
        );
        const up = (await (
          await fetch(`${server.url}/api/audio/upload`, { method: 'POST', body: form })
        ).json()) as any;
        expect(up.sessionId).toBeTruthy();
        for (let i = 0; i < 600; i++) {
          const s = await session(server.url, up.sessionId);
          if (s.status === 'transcribing') break;
          expect(s.status).not.toBe('transcribed');
          await new Promise((r) => setTimeout(r, 50));
        }
        expect((await session(server.url, up.sessionId)).status).toBe('transcribing');
        server.child.kill('SIGKILL');
        await new Promise((r) => server.child.once('exit', r));

        server = await startServer(env);
        let s: any;
        for (let i = 0; i < 1500; i++) {
          s = await session(server.url, up.sessionId);
          if (s.status === 'transcribed' || s.status === 'failed') break;
          await new Promise((r) => setTimeout(r, 200));
        }
        expect(s.status, s.error).toBe('transcribed');
        expect(s.durationMs).toBeGreaterThan(55_000);
        const text = s.transcript.map((e: any) => e.transcript).join(' ');
        // Speech from the start and the end of the call is there.
        expect(s.transcript[0].timestamp).toBeLessThan(12_000);
        expect(s.transcript.at(-1).timestamp).toBeGreaterThan(48_000);
        expect(text.split(' ').length).toBeGreaterThan(50);
      } finally {
        server.child.kill('SIGTERM');
        await new Promise((r) => (server.child.exitCode !== null ? r(null) : server.child.once('exit', r)));
        await database?.drop();
      }
    },
  );
});
