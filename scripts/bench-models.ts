/**
 * npx tsx scripts/bench-models.ts [MB]
 * What the background model fetch costs the server, against a model host on 127.0.0.1 serving a
 * generated archive (default 60 MB of incompressible weights): event-loop delay while it
 * downloads, hashes and unpacks (what a request waiting on the server would feel), CPU time per
 * MB, the bytes fetched again after an interruption at half-way, and how long it takes to give
 * up on a host that never answers. Nothing leaves this machine.
 */
import { createHash, randomBytes } from 'node:crypto';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { ModelEntry } from '../server/models/catalogue';
import { installModel } from '../server/models/install';

const mb = Number(process.argv[2] ?? 60);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-models-'));

function listen(server: net.Server): Promise<number> {
  return new Promise((r) => server.listen(0, '127.0.0.1', () => r((server.address() as AddressInfo).port)));
}

async function main() {
  const src = path.join(tmp, 'src', 'bench-model');
  fs.mkdirSync(src, { recursive: true });
  fs.writeFileSync(path.join(src, 'model.onnx'), randomBytes(mb * 1024 * 1024));
  execFileSync('tar', ['-cjf', path.join(tmp, 'bench.tar.bz2'), '-C', path.join(tmp, 'src'), 'bench-model']);
  const archive = fs.readFileSync(path.join(tmp, 'bench.tar.bz2'));
  const sha256 = createHash('sha256').update(archive).digest('hex');
  let cut = true;
  let served = 0;
  const host = http.createServer((req, res) => {
    const m = /^bytes=(\d+)-$/.exec(req.headers.range ?? '');
    const from = m ? Number(m[1]) : 0;
    res.writeHead(m ? 206 : 200, { 'content-length': archive.length - from });
    const body = archive.subarray(from);
    if (req.url === '/cut/bench.tar.bz2' && cut) {
      cut = false;
      const half = body.subarray(0, Math.floor(archive.length / 2));
      served += half.length;
      res.write(half, () => setTimeout(() => res.destroy(), 20));
      return;
    }
    served += body.length;
    res.end(body);
  });
  const port = await listen(host);
  const entry: ModelEntry = {
    id: 'bench',
    capability: 'speech-to-text',
    description: 'bench',
    url: 'https://example.invalid/bench.tar.bz2',
    sha256,
    sizeBytes: archive.length,
    kind: 'tar.bz2',
    target: 'stt',
    creates: 'bench-model',
    approxMb: mb,
    licence: 'none',
  };

  // Idle baseline of the event loop, then the same during a whole install.
  const idle = monitorEventLoopDelay({ resolution: 10 });
  idle.enable();
  await new Promise((r) => setTimeout(r, 2000));
  idle.disable();
  const dir = fs.mkdtempSync(path.join(tmp, 'm-'));
  const loop = monitorEventLoopDelay({ resolution: 10 });
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  loop.enable();
  await installModel(dir, entry, { baseUrl: `http://127.0.0.1:${port}` });
  loop.disable();
  const wallS = (performance.now() - t0) / 1000;
  const cpu = process.cpuUsage(cpu0);
  const archiveMb = archive.length / 1048576;

  // Interrupted at half-way, then resumed.
  const dir2 = fs.mkdtempSync(path.join(tmp, 'm-'));
  served = 0;
  await installModel(dir2, entry, { baseUrl: `http://127.0.0.1:${port}/cut` }).catch(() => undefined);
  await installModel(dir2, entry, { baseUrl: `http://127.0.0.1:${port}/cut` });
  const refetched = served / archive.length;

  // A host that accepts the connection and never answers.
  const sockets = new Set<net.Socket>();
  const hanging = net.createServer((s) => {
    sockets.add(s);
  });
  const hport = await listen(hanging);
  const g0 = performance.now();
  await installModel(fs.mkdtempSync(path.join(tmp, 'm-')), entry, {
    baseUrl: `http://127.0.0.1:${hport}`,
  }).catch(() => undefined);
  const giveUpS = (performance.now() - g0) / 1000;
  for (const s of sockets) s.destroy();
  hanging.close();
  host.close();

  const ms = (ns: number) => (ns / 1e6).toFixed(1);
  console.log(`archive: ${archiveMb.toFixed(1)} MB (${mb} MB of weights), ${os.cpus().length} cores`);
  console.log(
    `install (download+hash+verify+unpack): ${wallS.toFixed(1)} s wall, CPU ${((cpu.user + cpu.system) / 1000 / archiveMb).toFixed(1)} ms per MB in the server process (tar/bzip2 run in a child)`,
  );
  console.log(
    `event-loop delay idle: p50 ${ms(idle.percentile(50))} ms, p99 ${ms(idle.percentile(99))} ms, max ${ms(idle.max)} ms`,
  );
  console.log(
    `event-loop delay during install: p50 ${ms(loop.percentile(50))} ms, p99 ${ms(loop.percentile(99))} ms, max ${ms(loop.max)} ms`,
  );
  console.log(
    `interrupted at half-way and resumed: ${(refetched * 100).toFixed(0)}% of the archive sent in all`,
  );
  console.log(`gave up on a host that never answers after ${giveUpS.toFixed(2)} s`);
  fs.rmSync(tmp, { recursive: true, force: true });
}

void main();
