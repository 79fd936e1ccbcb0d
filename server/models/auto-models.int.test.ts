import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { operatorStatusSchema } from '../../core/operator-status';
import { startTestServer, waitFor } from '../test-support/harness';
import { upgradeSet } from './catalogue';

/** The real server with the background fetch on, against model hosts on this machine only. */
let hanging: net.Server;
let hangingUrl = '';
const sockets = new Set<net.Socket>();
let counting: http.Server;
let countingUrl = '';
let counted = 0;

beforeAll(async () => {
  // Accepts connections and never answers, like a host behind a firewall that drops packets.
  hanging = net.createServer((s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', r));
  hangingUrl = `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`;
  counting = http.createServer((_req, res) => {
    counted++;
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => counting.listen(0, '127.0.0.1', r));
  countingUrl = `http://127.0.0.1:${(counting.address() as AddressInfo).port}`;
});

afterAll(async () => {
  for (const s of sockets) s.destroy();
  await new Promise<void>((r) => hanging.close(() => r()));
  counting.closeAllConnections();
  await new Promise<void>((r) => counting.close(() => r()));
});

const status = async (url: string) => {
  const res = await fetch(`${url}/api/status`);
  return operatorStatusSchema.parse(await res.json());
};

describe('AUTO_MODELS at start', () => {
  it('an unreachable model host never holds up start or requests; it gives up after the timeout and says so once', async () => {
    const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'auto-models-'));
    const lines: string[] = [];
    const srv = await startTestServer({
      env: { AUTO_MODELS: 'on', MODELS_BASE_URL: hangingUrl, MODELS_DIR: modelsDir, LOG_LEVEL: 'info' },
      logStream: { write: (l) => lines.push(l) },
    });
    try {
      // Serving while the first download still waits on the host.
      const health = await fetch(`${srv.url}/api/health`);
      expect(health.status).toBe(200);
      const early = await status(srv.url);
      expect(early.models?.enabled).toBe(true);
      expect(early.models?.models.map((m) => m.id)).toEqual(upgradeSet().map((m) => m.id));

      const after = await waitFor(
        async () => {
          const s = await status(srv.url);
          return s.models?.note ? s : null;
        },
        'the fetch to give up',
        30_000,
        200,
      );
      expect(after.models!.models.every((m) => m.state === 'queued')).toBe(true);
      expect(after.models!.models[0].reason).toMatch(/no answer within 5 s/);
      expect(after.models!.note).toMatch(/next try at/);
      const said = lines.filter((l) => l.includes('cannot be reached'));
      expect(said).toHaveLength(1);
      expect((await fetch(`${srv.url}/api/health`)).status).toBe(200);
      // Nothing half-downloaded where the engines look.
      expect(fs.existsSync(path.join(modelsDir, 'stt'))).toBe(false);
      expect(fs.existsSync(path.join(modelsDir, 'tts'))).toBe(false);
    } finally {
      await srv.close();
      fs.rmSync(modelsDir, { recursive: true, force: true });
    }
  });

  it('AUTO_MODELS=off sends no request, and /status says it is off', async () => {
    const modelsDir = fs.mkdtempSync(path.join(os.tmpdir(), 'auto-models-'));
    counted = 0;
    const srv = await startTestServer({
      env: { AUTO_MODELS: 'off', MODELS_BASE_URL: countingUrl, MODELS_DIR: modelsDir },
    });
    try {
      const s = await status(srv.url);
      expect(s.models).toEqual({ enabled: false, note: 'AUTO_MODELS=off', models: [] });
      // Give a background fetch, were there one, the time to start.
      await new Promise((r) => setTimeout(r, 500));
      expect(counted).toBe(0);
    } finally {
      await srv.close();
      fs.rmSync(modelsDir, { recursive: true, force: true });
    }
  });

  it('is off by default under NODE_ENV=test', async () => {
    const srv = await startTestServer({ env: { MODELS_BASE_URL: countingUrl } });
    try {
      counted = 0;
      const s = await status(srv.url);
      expect(s.models?.enabled).toBe(false);
      expect(s.models?.note).toMatch(/off in tests/);
      expect(counted).toBe(0);
    } finally {
      await srv.close();
    }
  });
});
